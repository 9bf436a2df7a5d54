import Foundation
import KeyframeTestSupport
import XCTest

/// Runs the built `keyframe` binary as a user would: exit codes, outputs on disk, error text.
final class CLITests: XCTestCase {
    func run(_ arguments: [String]) throws -> CLIRun { try CLIRunner.run(arguments) }

    private let sprite = #"{"ASI":{"N":"0000","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,5,6,0,1]}}"#

    func testConvertWritesFileAndInspectSummarises() throws {
        let fixture = try AnimateFixture(animation: AnimateFixture.animation(
            frames: "[{\"I\":0,\"DU\":12,\"N\":\"idle\",\"E\":[\(sprite)]},{\"I\":12,\"DU\":6,\"N\":\"jump\",\"E\":[]}]"))
        let output = fixture.folder.appendingPathComponent("out/doc.json")
        let convert = try run(["convert", fixture.folder.path, "-o", output.path])
        XCTAssertEqual(convert.status, 0, convert.stderr)
        let written = try Data(contentsOf: output)
        XCTAssert(String(decoding: written, as: UTF8.self).contains(#""format" : "keyframe""#))
        let toStdout = try run(["convert", fixture.folder.path])
        XCTAssertEqual(Data(toStdout.stdout.utf8), written, "stdout and -o give the same bytes")
        // Leftover temporary files would show up here.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path), ["doc.json"])

        let inspect = try run(["inspect", fixture.folder.path])
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        XCTAssert(inspect.stdout.contains("idle: frames 0–11, 12 frames, 0.500 s, loops"), inspect.stdout)
        XCTAssert(inspect.stdout.contains("jump: frames 12–17, 6 frames, 0.250 s"), inspect.stdout)
        let json = try run(["inspect", fixture.folder.path, "--json"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["sprites"] as? Int, 2)
        XCTAssertEqual((object["clips"] as? [[String: Any]])?.count, 3, "idle, jump and the whole timeline")

        // A normalized document converts to itself.
        let again = try run(["convert", output.path])
        XCTAssertEqual(Data(again.stdout.utf8), written)
    }

    /// `inspect` says which files of a DragonBones export under unusual names were read and why.
    func testInspectSaysWhichDragonBonesFilesWereChosen() throws {
        let sample = TestPaths.packageRoot.appendingPathComponent("Samples/dragonbones-waver")
        let folder = try TestPaths.temporaryFolder("keyframe-cli-db-files")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        for (from, to) in [("waver_ske.json", "Waver.dbjson"), ("waver_tex.json", "Waver_tex.json"),
                           ("waver_tex.png", "waver_tex.png")] {
            try FileManager.default.copyItem(at: sample.appendingPathComponent(from), to: folder.appendingPathComponent(to))
        }
        let inspect = try run(["inspect", folder.path])
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        XCTAssert(inspect.stdout.contains("info: [files-chosen] skeleton Waver.dbjson, recognised by its content"),
                  inspect.stdout)
        XCTAssert(inspect.stdout.contains("texture atlas Waver_tex.json, named after the skeleton"), inspect.stdout)
    }

    /// Writing over an existing output replaces it (repeatedly), never losing it.
    func testConvertReplacesAnExistingOutput() throws {
        let sample = TestPaths.packageRoot.appendingPathComponent("Samples/bta-spinner").path
        let output = try TestPaths.temporaryFolder("cli-overwrite").appendingPathComponent("spinner.json")
        for _ in 0..<3 {
            let result = try run(["convert", sample, "-o", output.path])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(FileManager.default.fileExists(atPath: output.path))
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path)
        XCTAssertEqual(files, ["spinner.json"], "temporary files left behind")
    }

    func testInputErrorExitsOneAndLeavesNoOutput() throws {
        let fixture = try AnimateFixture(animation: "{\"AN\": [}")
        let output = fixture.folder.appendingPathComponent("never.json")
        let result = try run(["convert", fixture.folder.path, "-o", output.path])
        XCTAssertEqual(result.status, 1)
        // The file is named with the export's folder as it was given (issue 11).
        XCTAssertEqual(result.stderr, "keyframe: error: \(fixture.folder.path)/Animation.json:1:9: invalid JSON: unexpected character '}', expected a value\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
    }

    func testUsageErrorExitsTwo() throws {
        XCTAssertEqual(try run(["convert"]).status, 2)
        XCTAssertEqual(try run(["convert", "x", "--no-such-option"]).status, 2)
        XCTAssertEqual(try run(["frobnicate"]).status, 2)
        XCTAssertEqual(try run(["--help"]).status, 0)
    }

    func testStrictFailsOnWarnings() throws {
        let frames = #"[{"I":0,"DU":1,"E":[{"ASI":{"N":"0000","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}},{"SI":{"SN":"s","ST":"G","B":"frobnicate","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}}]}]"#
        let symbols = #"{"SN":"s","TL":{"L":[{"LN":"a","FR":[{"I":0,"DU":1,"E":[]}]}]}}"#
        let fixture = try AnimateFixture(animation: AnimateFixture.animation(frames: frames, symbols: symbols))
        let lenient = try run(["convert", fixture.folder.path])
        XCTAssertEqual(lenient.status, 0)
        XCTAssert(lenient.stderr.contains("unknown-blend-mode"), lenient.stderr)
        let strict = try run(["convert", fixture.folder.path, "--strict"])
        XCTAssertEqual(strict.status, 1)
        XCTAssert(strict.stderr.contains("--strict: 1 diagnostic(s)"), strict.stderr)
    }
}
