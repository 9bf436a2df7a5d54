import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import KeyframeTestSupport
import XCTest

/// One escaping rule per sink (trust trial, classes 4 and 8): a name holding control characters, ESC/OSC sequences or
/// U+FFFE makes a well-formed property list and JUnit report (XML cannot hold such characters at all: they become
/// U+FFFD, and the export says so in a warning), and never reaches a terminal raw — not through an error message, a
/// warning, `inspect` or a summary. Before: the plist was not well-formed (exit 0) and the sequences retitled and
/// cleared the terminal.
final class SinkEscapeCLITests: XCTestCase {
    var work: URL!
    var walker: String { TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker").path }
    /// Retitles a terminal (OSC 0), clears it (CSI 2J), rings it, and holds a character XML cannot hold.
    let hostile = "walk\u{1b}]0;pwned\u{7}\u{1b}[2J\u{1}\u{FFFE}\u{9b}31m"

    override func setUpWithError() throws {
        work = try TestPaths.temporaryFolder("sink-escape")
    }

    override func tearDownWithError() throws {
        if let work { try? FileManager.default.removeItem(at: work) }
    }

    /// The walker as a normalized document beside its atlas, its first clip named `name`.
    func document(clip name: String) throws -> String {
        let document = work.appendingPathComponent("doc.json")
        XCTAssertEqual(try CLIRunner.run(["convert", walker, "-o", document.path]).status, 0)
        try FileManager.default.copyItem(atPath: walker + "/spritemap1.png",
                                         toPath: work.appendingPathComponent("spritemap1.png").path)
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: document)) as? [String: Any])
        var clips = try XCTUnwrap(object["clips"] as? [[String: Any]])
        clips[0]["name"] = name
        object["clips"] = clips
        object["name"] = name
        try JSONSerialization.data(withJSONObject: object).write(to: document)
        return document.path
    }

    /// Whether `text` holds a byte a terminal acts on: C0 but line feed and tab, DEL, or a C1 character.
    func hasRawControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { s in
            (s.value < 0x20 && s != "\n" && s != "\t") || s.value == 0x7F || (0x80...0x9F).contains(s.value)
        }
    }

    /// Whether Python's `plistlib` (what the trial used) reads `path`.
    func plistlibReads(_ path: String) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import plistlib,sys; plistlib.load(open(sys.argv[1],'rb'))", path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    func testAPropertyListWithHostileNamesIsWellFormedAndSaysWhatChanged() throws {
        let input = try document(clip: hostile)
        let out = work.appendingPathComponent("out.plist").path
        let result = try CLIRunner.run(["export", input, "--to", "core-animation", "--format", "plist",
                                        "--clip", hostile, "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(try plistlibReads(out), "plistlib refuses \(out)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || $0 == "\u{FFFE}" })
        XCTAssertTrue(text.contains("walk\u{FFFD}]0;pwned\u{FFFD}\u{FFFD}[2J\u{FFFD}\u{FFFD}\u{9b}31m"), text)
        XCTAssertTrue(result.stderr.contains("[ca-plist-character]"), result.stderr)
        XCTAssertFalse(hasRawControl(result.stderr), result.stderr)
        // The JSON spelling keeps the name exactly.
        let json = work.appendingPathComponent("out.json").path
        XCTAssertEqual(try CLIRunner.run(["export", input, "--to", "core-animation", "--clip", hostile, "-o", json]).status, 0)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        XCTAssertEqual(object["clip"] as? String, hostile)
    }

    func testTheJUnitReportOfABatchWithHostileNamesIsWellFormed() throws {
        let root = work.appendingPathComponent("root/walk\u{1}er\u{FFFE}")
        try FileManager.default.createDirectory(at: root.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: walker, toPath: root.path)
        // Broken, so the report carries a failure message with the name in it.
        try Data("{".utf8).write(to: root.appendingPathComponent("Animation.json"))
        let junit = work.appendingPathComponent("junit.xml")
        let result = try CLIRunner.run(["batch", work.appendingPathComponent("root").path, "-o",
                                        work.appendingPathComponent("out").path, "--junit", junit.path])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertFalse(hasRawControl(result.stderr), result.stderr)
        let parser = XMLParser(contentsOf: junit)
        XCTAssertEqual(parser?.parse(), true, "\(String(describing: parser?.parserError))")
        let text = try String(contentsOf: junit, encoding: .utf8)
        XCTAssertTrue(text.contains("walk\u{FFFD}er\u{FFFD}"), text)
    }

    func testNamesNeverReachTheTerminalRaw() throws {
        let input = try document(clip: hostile)
        let runs: [[String]] = [
            ["inspect", input],
            ["render", input, "--clip", "nope", "-o", work.appendingPathComponent("frames").path],
            ["render", input, "--clip", hostile, "--frames", "0", "-o", work.appendingPathComponent("frames").path],
            ["convert", input, "--clip", "nope"],
            ["export", input, "--to", "lottie", "--clip", "nope", "-o", work.appendingPathComponent("x.json").path],
            ["preview", input, "--clip", "nope", "-o", work.appendingPathComponent("p.html").path],
        ]
        for arguments in runs {
            let result = try CLIRunner.run(arguments)
            let command = arguments.prefix(2).joined(separator: " ")
            XCTAssertTrue(result.terminationReasonIsExit, command)
            XCTAssertFalse(hasRawControl(result.stdout), "\(command) stdout: \(result.stdout.debugDescription)")
            XCTAssertFalse(hasRawControl(result.stderr), "\(command) stderr: \(result.stderr.debugDescription)")
            // The name is still there, readable: ESC as \u{1b}.
            XCTAssertTrue((result.stdout + result.stderr).contains("walk\\u{1b}]0;pwned\\u{7}"),
                          "\(command): \((result.stdout + result.stderr).debugDescription)")
        }
    }
}
