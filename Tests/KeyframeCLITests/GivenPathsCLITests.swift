import Foundation
import KeyframeTestSupport
import XCTest

/// Paths in every message and report as the user gave them (trust trial, class 7): relative paths stay relative in
/// the summaries, `--json` reports and errors of `render`, `verify`, `play`, `preview` and `batch`, and an existing
/// named pipe is called one. Before: `/home/me/project/out/walk-0000.png` for `-o out`, the script's documents by
/// their absolute paths, and `fifo: file not found` for a FIFO.
final class GivenPathsCLITests: XCTestCase {
    var work: URL!
    /// The working folder's absolute path, which no output may print.
    var absolute: String { work.resolvingSymlinksInPath().path }

    override func setUpWithError() throws {
        work = try TestPaths.temporaryFolder("given-paths")
        let samples = TestPaths.packageRoot.appendingPathComponent("Samples")
        try FileManager.default.copyItem(at: samples.appendingPathComponent("animate-walker"),
                                         to: work.appendingPathComponent("animate-walker"))
        try FileManager.default.copyItem(at: samples.appendingPathComponent("scripts"), to: work.appendingPathComponent("scripts"))
    }

    override func tearDownWithError() throws {
        if let work { try? FileManager.default.removeItem(at: work) }
    }

    func run(_ arguments: [String]) throws -> CLIRun {
        try CLIRunner.run(arguments, directory: work)
    }

    func assertNoAbsolutePath(_ result: CLIRun, _ command: String, file: StaticString = #filePath, line: UInt = #line) {
        for (name, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
            XCTAssertFalse(text.contains(absolute) || text.contains(work.path), "\(command) \(name): \(text)",
                           file: file, line: line)
        }
    }

    func testRenderVerifyAndPreviewNamePathsAsGiven() throws {
        let render = try run(["render", "animate-walker", "--clip", "walk", "--frames", "0..1", "-o", "out"])
        XCTAssertEqual(render.status, 0, render.stderr)
        XCTAssertTrue(render.stdout.contains(": out/walk-0000.png … walk-0001.png"), render.stdout)
        assertNoAbsolutePath(render, "render")
        let json = try run(["render", "animate-walker", "--clip", "walk", "--frames", "0", "-o", "./out/", "--json"])
        XCTAssertTrue(json.stdout.contains(#""path" : "./out/walk-0000.png""#), json.stdout)
        assertNoAbsolutePath(json, "render --json")

        XCTAssertEqual(try run(["verify", "animate-walker", "--golden", "gold", "--record", "--clip", "walk",
                                "--frames", "0..1"]).status, 0)
        let verify = try run(["verify", "animate-walker", "--golden", "gold", "--clip", "walk", "--frames", "0..2"])
        XCTAssertEqual(verify.status, 1)
        XCTAssertTrue(verify.stderr.contains("match gold,"), verify.stderr)
        XCTAssertTrue(verify.stdout.contains("actual: keyframe-verify-artifacts/walk-0002.actual.png")
                      || verify.stderr.contains("actual: keyframe-verify-artifacts/walk-0002.actual.png"),
                      verify.stdout + verify.stderr)
        assertNoAbsolutePath(verify, "verify")

        let preview = try run(["preview", "animate-walker", "--clip", "walk", "--frames", "0", "-o", "p/p.html"])
        XCTAssertEqual(preview.status, 0, preview.stderr)
        assertNoAbsolutePath(preview, "preview")
    }

    func testPlayNamesTheScriptsDocumentsAsWritten() throws {
        let play = try run(["play", "scripts/walker-interaction.json", "--until", "0"])
        XCTAssertEqual(play.status, 0, play.stderr)
        XCTAssertTrue(play.stdout.contains("clip walk of scripts/../animate-walker ("), play.stdout)
        assertNoAbsolutePath(play, "play")
        let json = try run(["play", "scripts/walker-interaction.json", "--until", "0", "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        assertNoAbsolutePath(json, "play --json")
    }

    func testANamedPipeIsCalledOneAndBatchNamesItsRootAsGiven() throws {
        XCTAssertEqual(mkfifo(work.appendingPathComponent("fifo").path, 0o644), 0)
        for arguments in [["convert", "fifo"], ["render", "fifo", "-o", "out"], ["batch", "fifo", "-o", "out"]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("fifo: it is a named pipe"), "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("no such file") || result.stderr.contains("not found"), result.stderr)
            assertNoAbsolutePath(result, arguments[0])
        }
    }
}
