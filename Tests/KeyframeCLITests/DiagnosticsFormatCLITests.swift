import Foundation
import KeyframeTestSupport
import XCTest

/// `--diagnostics-format build` on `convert` and `export`: every error and warning as one line in the form compilers
/// print (`PATH:LINE:COLUMN: error: message`), the path as the user gave it, a JSON path turned into the line and
/// column of its value, checked against positions counted here from the broken text.
final class DiagnosticsFormatCLITests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = try TestPaths.temporaryFolder("diagnostics-format")
    }

    override func tearDownWithError() throws {
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    /// A copy of the sample `name` at `root/folder` with `find` replaced by `replace` in `file`.
    private func broken(_ name: String, as folder: String, file: String, _ find: String, _ replace: String) throws -> String {
        try SampleEdit.copy(name, to: root.appendingPathComponent(folder), file: file, find, replace)
    }

    private func run(_ arguments: [String]) throws -> CLIRun {
        try CLIRunner.run(arguments, directory: root)
    }

    func testErrorsAreOneLineAtTheFileLineAndColumnOfTheProblem() throws {
        // Malformed JSON: the parser's position, the path as given.
        let animation = try broken("animate-walker", as: "walker", file: "Animation.json", "\"DU\":24", "\"DU\":24,,")
        let syntax = try run(["convert", "walker", "--diagnostics-format", "build"])
        XCTAssertEqual(syntax.status, 1)
        let at = try SampleEdit.place(of: ",,", in: animation)
        let column = Int(at.split(separator: ":")[1])! + 1
        XCTAssert(syntax.stderr.hasPrefix("walker/Animation.json:\(at.split(separator: ":")[0]):\(column): error: invalid JSON: "),
                  syntax.stderr)
        XCTAssertEqual(syntax.stderr.split(separator: "\n").count, 1, syntax.stderr)
        // The plain form says the same place, after the prefix people grep for.
        let plain = try run(["convert", "walker"])
        XCTAssert(plain.stderr.hasPrefix("keyframe: error: walker/Animation.json:\(at.split(separator: ":")[0]):\(column): invalid JSON"),
                  plain.stderr)

        // A missing key: the JSON path becomes the line and column of the object that lacks it.
        let library = try broken("flump-hopbot", as: "hopbot", file: "library.json", "\"layers\"", "\"layerz\"")
        let schema = try run(["convert", "./hopbot/", "--diagnostics-format", "build"])
        XCTAssertEqual(schema.status, 1)
        XCTAssertEqual(schema.stderr, "./hopbot/library.json:\(try SampleEdit.place(of: "{\"id\"", in: library)): error: at movies[0]: "
                       + "missing required key \"layers\"\n")
    }

    func testWarningsAndStrictFailuresNameTheValue() throws {
        let library = try broken("flump-hopbot", as: "hopbot", file: "library.json", "\"frameRate\":24", "\"frameRate\":\"24\"")
        let at = try SampleEdit.place(of: "\"24\"", in: library)
        let warned = try run(["convert", "hopbot", "-o", "out.json", "--diagnostics-format", "build"])
        XCTAssertEqual(warned.status, 0, warned.stderr)
        XCTAssertEqual(warned.stderr, "hopbot/library.json:\(at): warning: [number-as-string] a number written as a "
                       + "string was read leniently (\"24\" as 24) (at frameRate)\n")
        let strict = try run(["convert", "hopbot", "-o", "out.json", "--strict", "--diagnostics-format", "build"])
        XCTAssertEqual(strict.status, 1)
        XCTAssertEqual(strict.stderr, "hopbot/library.json:\(at): error: [number-as-string] a number written as a "
                       + "string was read leniently (\"24\" as 24) (at frameRate) (--strict)\n")
    }

    func testExportWarningsNameTheExportAndQuietListsNoFiles() throws {
        let walker = TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker").path
        let exported = try run(["export", walker, "--to", "core-animation", "-o", "ca/", "--quiet",
                                "--diagnostics-format", "build"])
        XCTAssertEqual(exported.status, 0, exported.stderr)
        XCTAssertEqual(exported.stdout, "", "--quiet lists no files")
        let lines = exported.stderr.split(separator: "\n")
        XCTAssertFalse(lines.isEmpty)
        XCTAssert(lines.allSatisfy { $0.hasPrefix("\(walker): warning: core-animation: [ca-") }, exported.stderr)
        let listed = try run(["export", walker, "--to", "core-animation", "-o", "ca/"])
        XCTAssertNotEqual(listed.stdout, "", "without --quiet the files are listed")
    }
}
