import Foundation
import KeyframeTestSupport
import XCTest

/// A sprite sheet goes through the CLI like any export: `convert` with the sheet options, `render` writing every
/// frame, `inspect` naming the layout.
final class SpriteSheetCLITests: XCTestCase {
    func testConvertRenderAndInspectASparrowSheet() throws {
        let folder = try SpriteSheetFixture.write(.sparrow)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let convert = try CLIRunner.run(["convert", folder.path, "--sheet-fps", "12", "--sheet-animations", "single"])
        XCTAssertEqual(convert.status, 0, convert.stderr)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(convert.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["frameRate"] as? Double, 12)
        XCTAssertEqual((document["clips"] as? [[String: Any]])?.map { $0["name"] as? String }, ["BOYFRIEND"])
        XCTAssert(convert.stderr.contains("atlas-image-renamed"), convert.stderr)

        let out = folder.appendingPathComponent("frames")
        let render = try CLIRunner.run(["render", folder.path, "-o", out.path, "--quiet"])
        XCTAssertEqual(render.status, 0, render.stderr)
        let pictures = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".png") }
        XCTAssertEqual(pictures.count, 6, "3 + 2 + 1 frames of the three clips: \(pictures.sorted())")

        let inspect = try CLIRunner.run(["inspect", folder.path])
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        XCTAssert(inspect.stdout.contains("spriteSheet (sparrowXML)"), inspect.stdout)

        let bad = try CLIRunner.run(["convert", folder.path, "--sheet-animations", "prefix"])
        XCTAssertEqual(bad.status, 2, bad.stderr)
    }
}
