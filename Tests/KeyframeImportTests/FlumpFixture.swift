import Foundation
import KeyframeTestSupport

/// Writes small Flump exports into a temporary folder: a library file (JSON or XML text as given) and 4×4 PNG
/// atlases, for importer tests of good and bad input.
struct FlumpFixture {
    /// The folder the export was written to.
    let folder: URL

    /// Writes `library` as `file` beside the PNG atlases named in `atlases` (each a valid image of `size`).
    init(_ library: String, file: String = "library.json", atlases: [String: Int] = ["atlas0.png": 4]) throws {
        folder = try TestPaths.temporaryFolder("flump-fixture")
        try Data(library.utf8).write(to: folder.appendingPathComponent(file))
        for (name, size) in atlases {
            try Data(FlumpFixture.png(size: size)).write(to: folder.appendingPathComponent(name))
        }
    }

    /// A library with one 4×4 atlas holding textures "a" (2×2 at 0,0, origin 1,1) and "b" (2×2 at 2,2), and the
    /// given movies (JSON text of the `movies` array).
    static func json(movies: String, frameRate: Double = 24) -> String {
        """
        {"md5":"x","frameRate":\(frameRate),"movies":\(movies),
         "textureGroups":[{"scaleFactor":1,"atlases":[{"file":"atlas0.png","textures":[
           {"symbol":"a","rect":[0,0,2,2],"origin":[1,1]},{"symbol":"b","rect":[2,2,2,2],"origin":[0,0]}]}]}]}
        """
    }

    /// A PNG header and IHDR for a `size`×`size` image (the importer reads only the header; renderers are not
    /// involved in these tests), followed by a minimal valid image body.
    static func png(size: Int) -> [UInt8] {
        if size == 4 { return AnimateFixture.tinyPNG }
        var bytes = AnimateFixture.tinyPNG
        // Patch width and height in IHDR (bytes 16…23); the CRC is not checked by the header reader.
        for (offset, value) in [(16, size), (20, size)] {
            bytes[offset] = UInt8(value >> 24 & 0xFF)
            bytes[offset + 1] = UInt8(value >> 16 & 0xFF)
            bytes[offset + 2] = UInt8(value >> 8 & 0xFF)
            bytes[offset + 3] = UInt8(value & 0xFF)
        }
        return bytes
    }
}
