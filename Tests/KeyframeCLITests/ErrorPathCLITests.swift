import Foundation
import KeyframeTestSupport
import XCTest

/// Every error names the file as the user gave it (issue 23, defect 7; docs/cli.md "Errors say where"): whatever
/// kind of error, whichever command, the path starts the way INPUT (or `--assets`, or a script's document) was
/// written, and no absolute path of the working folder appears.
final class ErrorPathCLITests: XCTestCase {
    var work: URL!
    var root: URL { TestPaths.packageRoot }

    override func setUpWithError() throws {
        work = try TestPaths.temporaryFolder("error-paths")
    }

    override func tearDownWithError() throws {
        if let work { try? FileManager.default.removeItem(at: work) }
    }

    /// Copies the sample `name` to `path` under the work folder.
    func copy(_ name: String, to path: String) throws -> URL {
        let folder = work.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: root.appendingPathComponent("Samples/\(name)"), to: folder)
        return folder
    }

    /// Runs `arguments` in the work folder (or `directory` under it) and checks: exit 1, one error line starting with
    /// `expected`, and no absolute path of the work folder.
    func expectError(_ arguments: [String], in directory: String = "", startsWith expected: String,
                     file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try CLIRunner.run(arguments, directory: directory.isEmpty ? work : work.appendingPathComponent(directory))
        XCTAssertEqual(run.status, 1, "\(arguments): \(run.stderr)", file: file, line: line)
        XCTAssertTrue(run.stderr.hasPrefix("keyframe: error: " + expected), "\(arguments): \(run.stderr)", file: file, line: line)
        XCTAssertFalse(run.stderr.contains(work.path), "\(arguments) names an absolute path: \(run.stderr)",
                       file: file, line: line)
        XCTAssertFalse(run.stderr.contains(work.resolvingSymlinksInPath().path),
                       "\(arguments) names an absolute path: \(run.stderr)", file: file, line: line)
    }

    /// A truncated normalized document (before: `doc.json:20:35`, the folder dropped because the document could not
    /// be detected), from any working folder and however it was written.
    func testATruncatedNormalizedDocumentIsNamedAsGiven() throws {
        let folder = work.appendingPathComponent("msg/nd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let full = try CLIRunner.run(["convert", root.appendingPathComponent("Samples/animate-walker").path])
        XCTAssertEqual(full.status, 0)
        try Data(full.stdout.utf8.prefix(600)).write(to: folder.appendingPathComponent("doc.json"))
        for command in [["convert"], ["inspect"], ["render"], ["export", "--to", "lottie", "-o", "x.json"]] {
            let arguments = [command[0], "msg/nd/doc.json"] + command.dropFirst()
            try expectError(arguments, startsWith: "msg/nd/doc.json:")
            try expectError([command[0], "nd/doc.json"] + command.dropFirst(), in: "msg", startsWith: "nd/doc.json:")
            try expectError([command[0], "doc.json"] + command.dropFirst(), in: "msg/nd", startsWith: "doc.json:")
            try expectError([command[0], "./doc.json"] + command.dropFirst(), in: "msg/nd", startsWith: "./doc.json:")
        }
    }

    /// An atlas image that is not a PNG, or missing, at conversion and at rendering (before: the absolute path).
    func testAtlasImageErrorsNameTheImageAsGiven() throws {
        let text = try copy("animate-walker", to: "malformed/png-is-text")
        try Data("hello\n".utf8).write(to: text.appendingPathComponent("spritemap1.png"))
        for command in ["convert", "inspect", "render"] {
            try expectError([command, "malformed/png-is-text"],
                            startsWith: "malformed/png-is-text/spritemap1.png: atlas image is not a PNG")
        }
        let missing = try copy("dragonbones-waver", to: "malformed/no-image")
        try FileManager.default.removeItem(at: missing.appendingPathComponent("waver_tex.png"))
        try expectError(["render", "malformed/no-image"], startsWith: "malformed/no-image/waver_tex.png: ")
        let flump = try copy("flump-hopbot", to: "malformed/flump")
        try FileManager.default.removeItem(at: flump.appendingPathComponent("atlas0.png"))
        try expectError(["render", "malformed/flump/library.json"], startsWith: "malformed/flump/atlas0.png: ")

        // A normalized document rendered or exported without its images: named where they were looked for.
        let doc = work.appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: doc, withIntermediateDirectories: true)
        XCTAssertEqual(try CLIRunner.run(["convert", root.appendingPathComponent("Samples/animate-walker").path,
                                          "-o", doc.appendingPathComponent("walker.json").path]).status, 0)
        try expectError(["render", "docs/walker.json"], startsWith: "docs/spritemap1.png: atlas image \"spritemap1.png\" not found")
        try expectError(["render", "docs/walker.json", "--assets", "malformed/no-image"],
                        startsWith: "malformed/no-image/spritemap1.png: ")
        try expectError(["export", "docs/walker.json", "--to", "core-animation", "-o", "ca/"],
                        startsWith: "docs/walker.json: docs/spritemap1.png: atlas image \"spritemap1.png\" not found")
        try expectError(["inspect", "docs/walker.json", "--lottie-report"], startsWith: "docs/spritemap1.png: ")
    }

    /// The input itself missing, and files of the export that are damaged rather than malformed JSON (before: the
    /// absolute path, or the file without its folder).
    func testMissingInputsAndDamagedFilesAreNamedAsGiven() throws {
        try expectError(["convert", "nowhere/walker"], startsWith: "nowhere/walker: no such file or folder")
        let binary = try copy("dragonbones-waver", to: "broken/binary")
        try FileManager.default.removeItem(at: binary.appendingPathComponent("waver_ske.json"))
        try Data("DBDX not binary".utf8).write(to: binary.appendingPathComponent("waver_ske.dbbin"))
        try expectError(["convert", "broken/binary"], startsWith: "broken/binary/waver_ske.dbbin: not DragonBones binary data")
        let flump = try copy("flump-hopbot", to: "broken/flump")
        try Data(#"{"frameRate": 30, "movies": [], "textureGroups": []}"#.utf8)
            .write(to: flump.appendingPathComponent("library.json"))
        try expectError(["convert", "broken/flump"], startsWith: "broken/flump/library.json: the library has no texture groups")
        let noMaps = try copy("animate-walker", to: "broken/spritemaps")
        try FileManager.default.removeItem(at: noMaps.appendingPathComponent("spritemap1.json"))
        try expectError(["convert", "broken/spritemaps"], startsWith: "broken/spritemaps/spritemap1.json: no spritemap")
    }

    /// A script's clip target that cannot be converted is named with the script's folder as given and the path the
    /// script wrote (before: the absolute path).
    func testAScriptsBrokenDocumentIsNamedAsWritten() throws {
        let broken = try copy("animate-walker", to: "exports/walker")
        var text = try String(contentsOf: broken.appendingPathComponent("Animation.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"DU\":24", with: "\"DU\":24,,")
        try text.write(to: broken.appendingPathComponent("Animation.json"), atomically: true, encoding: .utf8)
        let scripts = work.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        let script = #"{"animators": [{"name": "w", "duration": 1, "target": {"clip": "walk", "document": "../exports/walker"}}], "steps": [{"at": 0, "action": "start"}]}"#
        try Data(script.utf8).write(to: scripts.appendingPathComponent("walk.json"))
        let run = try CLIRunner.run(["play", "scripts/walk.json"], directory: work)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("scripts/../exports/walker/Animation.json:3:"), run.stderr)
        XCTAssertFalse(run.stderr.contains(work.path), run.stderr)
    }
}
