import Foundation

/// Writes small Animate texture-atlas exports into a temporary folder, for importer tests of good and bad input.
public struct AnimateFixture {
    /// A valid 4×4 RGBA PNG (header only matters to the importer; the bytes are a complete image).
    public static let tinyPNG: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x04, 0x08, 0x06, 0x00, 0x00, 0x00, 0xA9, 0xF1, 0x9E,
        0x7E, 0x00, 0x00, 0x00, 0x12, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0,
        0x1F, 0x19, 0x33, 0x0C, 0x32, 0x07, 0x00, 0x44, 0x2E, 0x3F, 0xC1, 0x45, 0x2C, 0x3C, 0x1C, 0x00,
        0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    /// The default spritemap: two sprites in a 4×4 image.
    public static let spritemap = """
        \u{FEFF}{"ATLAS":{"SPRITES":[
        {"SPRITE":{"name":"0000","x":0,"y":0,"w":2,"h":4,"rotated":false}},
        {"SPRITE":{"name":"0001","x":2,"y":0,"w":2,"h":3,"rotated":true}}]},
        "meta":{"app":"Adobe Animate","version":"21.0.0","image":"spritemap1.png","format":"RGBA8888","size":{"w":4,"h":4},"resolution":"1"}}
        """

    /// The folder the export was written to.
    public let folder: URL

    /// Writes `animation` as Animation.json beside the default spritemap and its PNG.
    public init(animation: String, spritemap: String? = AnimateFixture.spritemap, png: Bool = true,
                extraFiles: [String: String] = [:]) throws {
        folder = try TestPaths.temporaryFolder("animate-fixture")
        try Data(animation.utf8).write(to: folder.appendingPathComponent("Animation.json"))
        if let spritemap { try Data(spritemap.utf8).write(to: folder.appendingPathComponent("spritemap1.json")) }
        if png { try Data(AnimateFixture.tinyPNG).write(to: folder.appendingPathComponent("spritemap1.png")) }
        for (path, text) in extraFiles {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    /// An Animation.json whose instances of symbol `s` (the sprite `0000`) carry filters, for the exporters'
    /// reports: on layer `glowing`, an instance with a glow and a blur (frames 0–1); on layer `adjusted`, nothing on
    /// frame 0 and an instance on frame 1 whose frame has an adjust-colour filter; on layer `plain`, an instance
    /// without filters. Frame 0 is labelled `first`, frame 1 `second`, so each label is a clip of one frame.
    public static let filtered: String = {
        let identity = "[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]"
        let moved = "[1,0,0,0,0,1,0,0,0,0,1,0,3,0,0,1]"
        return """
            {"AN":{"N":"filtered","SN":"root","TL":{"L":[
            {"LN":"labels","FR":[{"I":0,"DU":1,"N":"first","E":[]},{"I":1,"DU":1,"N":"second","E":[]}]},
            {"LN":"glowing","FR":[{"I":0,"DU":2,"E":[{"SI":{"SN":"s","ST":"G","M3D":\(identity),
              "F":{"GF":{"BLX":4,"BLY":4,"C":"#FF0000","A":1,"STR":1,"Q":1},"BLF":{"BLX":2,"BLY":2,"Q":1}}}}]}]},
            {"LN":"adjusted","FR":[{"I":0,"DU":1,"E":[]},
              {"I":1,"DU":1,"F":{"ACF":{"BRT":10,"CT":0,"SAT":0,"H":0}},"E":[{"SI":{"SN":"s","ST":"G","M3D":\(moved)}}]}]},
            {"LN":"plain","FR":[{"I":0,"DU":2,"E":[{"SI":{"SN":"s","ST":"G","M3D":\(moved)}}]}]}]}},
            "SD":{"S":[{"SN":"s","TL":{"L":[{"LN":"a","FR":[{"I":0,"DU":1,"E":[{"ASI":{"N":"0000","M3D":\(identity)}}]}]}]}}]},
            "MD":{"FRT":24}}
            """
    }()

    /// An optimized-key Animation.json with one root layer whose frames are `frames` (JSON text of the FR array)
    /// and the given symbol dictionary entries (JSON text of the S array).
    public static func animation(frames: String, symbols: String = "", frameRate: Double = 24) -> String {
        """
        {"AN":{"N":"fixture","SN":"root","TL":{"L":[{"LN":"Layer 1","FR":\(frames)}]}},
        "SD":{"S":[\(symbols)]},"MD":{"FRT":\(frameRate)}}
        """
    }
}
