import Foundation
import KeyframeRaster
import KeyframeTestSupport
import XCTest

/// ThorVG, a second real Lottie player, rendering a Lottie file through `Scripts/thorvg-render.py` (PyPI
/// `thorvg-python`: ThorVG's software canvas, one thread). The script writes premultiplied RGBA frames, the layout
/// of ``Bitmap``.
struct ThorVGPlayer {
    /// What the script reports about the file.
    struct Info: Decodable {
        var width: Int
        var height: Int
        /// The file's frame count (ThorVG's `totalFrame`: `op − ip`).
        var frames: Double
        /// ThorVG's version.
        var version: String
    }

    static let script = TestPaths.packageRoot.appendingPathComponent("Scripts/thorvg-render.py")

    /// Renders `frames` (numbered from the file's in-point) of the Lottie file at `lottie` at its own size.
    ///
    /// Throws `XCTSkip` when thorvg-python is not installed (the script exits 3; `Scripts/ensure-deps.sh test`
    /// installs it), and fails with ThorVG's message when it refuses the file.
    static func render(_ lottie: URL, frames: [Int]) throws -> (info: Info, bitmaps: [Bitmap]) {
        let output = lottie.deletingPathExtension().appendingPathExtension("thorvg.raw")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, lottie.path, output.path,
                             "--frames", frames.map(String.init).joined(separator: ",")]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        switch process.terminationStatus {
        case 0: break
        case 3: throw XCTSkip("ThorVG is not available (pip install thorvg-python; `Scripts/ensure-deps.sh test` does): \(stderr)")
        default:
            throw ThorVGFailure(message: "thorvg-render.py exited \(process.terminationStatus) on \(lottie.lastPathComponent): \(stderr)")
        }
        let info = try JSONDecoder().decode(Info.self, from: stdout)
        let raw = [UInt8](try Data(contentsOf: output))
        let frameBytes = info.width * info.height * 4
        guard raw.count == frameBytes * frames.count else {
            throw ThorVGFailure(message: "thorvg-render.py wrote \(raw.count) bytes for \(frames.count) frames of \(info.width)×\(info.height)")
        }
        let bitmaps = frames.indices.map { index in
            Bitmap(width: info.width, height: info.height,
                   premultipliedRGBA: Array(raw[(index * frameBytes)..<((index + 1) * frameBytes)]))!
        }
        return (info, bitmaps)
    }
}

/// ThorVG (or its driver script) refused to render.
struct ThorVGFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
