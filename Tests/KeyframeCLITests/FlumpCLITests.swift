import Foundation
import KeyframeTestSupport
import XCTest

/// `convert` and `inspect` on a Flump export, and their `--scale-factor` option, run through the built binary.
final class FlumpCLITests: XCTestCase {
    private let sample = TestPaths.packageRoot.appendingPathComponent("Samples/flump-hopbot")

    func run(_ arguments: [String]) throws -> CLIRun { try CLIRunner.run(arguments) }

    func testScaleFactorChoosesTheTextureGroup() throws {
        let one = try run(["inspect", sample.path, "--json"])
        XCTAssertEqual(one.status, 0, one.stderr)
        let oneObject = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(oneObject["images"] as? [String], ["atlas0.png"])
        XCTAssertEqual(oneObject["format"] as? String, "flump")

        let two = try run(["inspect", sample.path, "--json", "--scale-factor", "2"])
        XCTAssertEqual(two.status, 0, two.stderr)
        let twoObject = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(two.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(twoObject["images"] as? [String], ["atlas0@2x.png"])

        let converted = try run(["convert", sample.path, "--scale-factor", "3"])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(converted.stdout.utf8)) as? [String: Any])
        let images = try XCTUnwrap((document["assets"] as? [String: Any])?["images"] as? [[String: Any]])
        XCTAssertEqual(images.first?["path"] as? String, "atlas0@2x.png", "3× is not there: the largest below, 2×")
        XCTAssertEqual(images.first?["resolution"] as? Double, 2)
    }

    func testTextSummaryNamesTheShapeAndClips() throws {
        let inspect = try run(["inspect", sample.path])
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        XCTAssert(inspect.stdout.contains("format:       flump (json)"), inspect.stdout)
        XCTAssert(inspect.stdout.contains("robot:hop: frames 0–23, 24 frames, 1.000 s, loops"), inspect.stdout)
    }

    func testBadScaleFactorIsAUsageError() throws {
        for value in ["0", "-2", "nan"] {
            let result = try run(["convert", sample.path, "--scale-factor", value])
            XCTAssertEqual(result.status, 2, "\(value): \(result.stderr)")
        }
    }

    func testFlumpErrorsExitWithOne() throws {
        let folder = try TestPaths.temporaryFolder("flump-cli")
        try Data("<resources md5=\"x\">\n<movie name=\"m\" frameRate=\"24\">\n</resources>".utf8)
            .write(to: folder.appendingPathComponent("library.xml"))
        let result = try run(["convert", folder.path])
        XCTAssertEqual(result.status, 1)
        XCTAssert(result.stderr.contains("library.xml:3:1: invalid XML: the end tag </resources> does not match <movie>"),
                  result.stderr)
    }
}
