import Foundation
import KeyframeTestSupport
import XCTest

/// An Animate export whose files were renamed after it was written: `spritemap.json` beside `spritemap.png`, while
/// `meta.image` still says `spritemap1.png`. The image is found by the spritemap's own name, with a warning naming
/// both, and convert, render and export all work.
final class RenamedAtlasCLITests: XCTestCase {
    func run(_ arguments: [String]) throws -> CLIRun { try CLIRunner.run(arguments) }

    var walker: URL { TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker") }

    /// The walker sample with its spritemap renamed to `spritemap.json`/`spritemap.png`; `meta.image` unchanged.
    func renamedWalker(_ name: String) throws -> URL {
        let folder = try TestPaths.temporaryFolder(name)
        let files = FileManager.default
        try files.copyItem(at: walker.appendingPathComponent("Animation.json"),
                           to: folder.appendingPathComponent("Animation.json"))
        try files.copyItem(at: walker.appendingPathComponent("spritemap1.json"),
                           to: folder.appendingPathComponent("spritemap.json"))
        try files.copyItem(at: walker.appendingPathComponent("spritemap1.png"),
                           to: folder.appendingPathComponent("spritemap.png"))
        let map = try String(contentsOf: folder.appendingPathComponent("spritemap.json"), encoding: .utf8)
        XCTAssertTrue(map.contains("\"spritemap1.png\""), "the sample's meta.image names spritemap1.png")
        return folder
    }

    func testImageFoundByTheSpritemapsOwnNameWithAWarning() throws {
        let export = try renamedWalker("renamed-atlas")
        let converted = try run(["convert", export.path, "-o", export.appendingPathComponent("doc.json").path])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        XCTAssertTrue(converted.stderr.contains("[atlas-image-renamed]")
                      && converted.stderr.contains("spritemap1.png (named by spritemap.json meta.image)")
                      && converted.stderr.contains("spritemap.png, the spritemap's own name"), converted.stderr)

        // Render: the same pixels as the original export.
        let renamedFrames = try TestPaths.temporaryFolder("renamed-atlas-frames")
        let originalFrames = try TestPaths.temporaryFolder("renamed-atlas-original")
        let rendered = try run(["render", export.path, "--clip", "walk", "--frames", "0..3", "-o", renamedFrames.path])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        XCTAssertEqual(try run(["render", walker.path, "--clip", "walk", "--frames", "0..3", "-o",
                                originalFrames.path]).status, 0)
        for frame in 0...3 {
            let name = String(format: "walk-%04d.png", frame)
            XCTAssertEqual(try Data(contentsOf: renamedFrames.appendingPathComponent(name)),
                           try Data(contentsOf: originalFrames.appendingPathComponent(name)), name)
        }

        // Export to both formats.
        for format in ["lottie", "core-animation"] {
            let out = try TestPaths.temporaryFolder("renamed-atlas-\(format)")
            let exported = try run(["export", export.path, "--to", format, "--clip", "walk", "-o",
                                    out.appendingPathComponent("walk.json").path])
            XCTAssertEqual(exported.status, 0, "\(format): \(exported.stderr)")
        }
    }

    func testNeitherNameMissingNamesBoth() throws {
        let export = try renamedWalker("renamed-atlas-missing")
        try FileManager.default.removeItem(at: export.appendingPathComponent("spritemap.png"))
        let rendered = try run(["render", export.path, "-o", export.appendingPathComponent("out").path])
        XCTAssertEqual(rendered.status, 1)
        XCTAssertTrue(rendered.stderr.contains("spritemap1.png: atlas image not found (named by spritemap.json meta.image; "
                                               + "spritemap.png, the spritemap's own name, is not there either)"),
                      rendered.stderr)
    }
}
