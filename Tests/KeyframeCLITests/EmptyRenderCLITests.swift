import Foundation
import KeyframeTestSupport
import XCTest

/// `keyframe render` of a document that has sprites but shows none of them fails before writing anything, with one
/// line saying how many displays lack a texture, unless `--allow-empty` is given.
final class EmptyRenderCLITests: XCTestCase {
    /// A DragonBones skeleton whose three displays (`armL`, `armR`, `head`) name textures the atlas does not have.
    func mismatchedExport() throws -> URL {
        let folder = try TestPaths.temporaryFolder("render-cli-empty")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let skeleton = #"{"name":"t","version":"5.5","frameRate":24,"armature":[{"name":"arm","bone":[{"name":"root"}],"slot":[{"name":"a","parent":"root"},{"name":"b","parent":"root"},{"name":"c","parent":"root"}],"skin":[{"slot":[{"name":"a","display":[{"name":"armL"}]},{"name":"b","display":[{"name":"armR"}]},{"name":"c","display":[{"name":"head"}]}]}],"animation":[{"name":"idle","duration":3}]}]}"#
        let atlas = #"{"frames":[{"filename":"left/arm.png","frame":{"x":0,"y":0,"w":2,"h":2},"rotated":false,"trimmed":false,"spriteSourceSize":{"x":0,"y":0,"w":2,"h":2},"sourceSize":{"w":2,"h":2}}],"meta":{"image":"sheet.png","size":{"w":4,"h":4},"scale":"1"}}"#
        try Data(skeleton.utf8).write(to: folder.appendingPathComponent("skeleton.json"))
        try Data(atlas.utf8).write(to: folder.appendingPathComponent("atlas.json"))
        try Data(StoredPNG.make(width: 4, height: 4) { _, _ in (200, 40, 40, 255) }).write(to: folder.appendingPathComponent("sheet.png"))
        return folder
    }

    func testARenderThatDrawsNothingFailsWithOneSummaryLine() throws {
        let export = try mismatchedExport()
        let out = export.appendingPathComponent("frames")
        let result = try CLIRunner.run(["render", export.path, "-o", out.path])
        XCTAssertEqual(result.status, 1, result.stderr)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("keyframe: error:") }
        XCTAssertEqual(errors.count, 1, result.stderr)
        XCTAssertTrue(errors[0].contains("none of the 4 frame(s) shows any of the document's 1 sprite(s)"), result.stderr)
        XCTAssertTrue(errors[0].contains("3 of 3 image/mesh display(s) have no texture"), result.stderr)
        XCTAssertTrue(errors[0].contains("--allow-empty"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "nothing may be written")
    }

    func testAllowEmptyWritesTheBlankFrames() throws {
        let export = try mismatchedExport()
        let out = export.appendingPathComponent("frames")
        let result = try CLIRunner.run(["render", export.path, "-o", out.path, "--allow-empty"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".png") }.count, 4)
    }
}
