import Foundation
import KeyframePNG
import KeyframeRaster
import KeyframeTestSupport
import XCTest

/// Builds (as test dependencies) and runs every program in `Examples/`, as a user following the README would, and
/// checks what each one does against something it did not compute itself: the CLI's own report, a curve solved here,
/// the Lottie schema, golden frames recorded by `keyframe verify --record`.
final class ExamplesTests: XCTestCase {
    /// Runs the example `name` from the package root.
    private func example(_ name: String, _ arguments: [String]) throws -> CLIRun {
        let binary = CLIRunner.binary.deletingLastPathComponent().appendingPathComponent(name)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary.path), "\(name) was not built")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = TestPaths.packageRoot
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIRun(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    func testImportAndSampleListsTheClipsInspectReports() throws {
        let run = try example("ImportAndSample", ["Samples/animate-walker"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let inspect = try CLIRunner.run(["inspect", "Samples/animate-walker", "--json"], directory: TestPaths.packageRoot)
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        let clips = try XCTUnwrap(report["clips"] as? [[String: Any]])
        XCTAssertFalse(clips.isEmpty)
        for clip in clips {
            let name = try XCTUnwrap(clip["name"] as? String)
            let frames = try XCTUnwrap(clip["frames"] as? Double)
            XCTAssertTrue(run.stdout.contains("\(name): \(Int(frames)) frames"),
                          "no line for clip \(name) with \(Int(frames)) frames in:\n\(run.stdout)")
        }
        XCTAssertTrue(run.stdout.contains("reads back equal: true"), run.stdout)
    }

    func testAnimatorsOnAClockFollowsTheCurveAndComesBackToTheStart() throws {
        let run = try example("AnimatorsOnAClock", ["Samples/animate-walker", "walk"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        // After 10 ticks of 1/60 s on a 1 s clip with ease-in-ease-out, cubic-bezier(0.42, 0, 0.58, 1) at x = 1/6,
        // solved here by bisection on x(t).
        let first = try XCTUnwrap(lines.first { $0.hasPrefix("after 10 ticks") })
        XCTAssertTrue(first.contains(String(format: "t=%.4f s", Self.cubicBezier(0.42, 0, 0.58, 1, at: 1.0 / 6))),
                      "\(first)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("scrubbed to half: t=0.5000 s, frame 12.000") }, run.stdout)
        XCTAssertTrue(lines.contains("completed at start"), run.stdout)
        let last = try XCTUnwrap(lines.last)
        XCTAssertTrue(last.contains("t=0.0000 s") && last.contains("fraction 0.0000"), last)
    }

    func testExportToLottieWritesFilesTheSchemaAccepts() throws {
        let folder = try TestPaths.temporaryFolder("example-lottie")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try example("ExportToLottie", ["Samples/flump-hopbot", folder.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
            .sorted()
        XCTAssertFalse(files.isEmpty, run.stdout)
        for file in files { XCTAssertTrue(run.stdout.contains(": \(file), "), "\(file) not reported:\n\(run.stdout)") }
        let schema = TestPaths.shared.appendingPathComponent("reference/lottie-spec/lottie.schema.json")
        guard FileManager.default.fileExists(atPath: schema.path) else {
            throw XCTSkip("../shared/reference/lottie-spec is absent; the files were written but not validated")
        }
        let validate = try CommandRun.run(
            ["python3", TestPaths.packageRoot.appendingPathComponent("Scripts/validate-lottie.py").path]
                + files.map { folder.appendingPathComponent($0).path })
        XCTAssertEqual(validate.status, 0, validate.output)
    }

    func testVerifyFramesPassesOnRecordedGoldensAndFailsOnAChangedOne() throws {
        let golden = try TestPaths.temporaryFolder("example-golden")
        defer { try? FileManager.default.removeItem(at: golden) }
        let record = try CLIRunner.run(["verify", "Samples/bta-spinner", "--clip", "spinner", "--golden", golden.path,
                                        "--record"], directory: TestPaths.packageRoot)
        XCTAssertEqual(record.status, 0, record.stderr)
        let pass = try example("VerifyFrames", ["Samples/bta-spinner", "spinner", golden.path])
        XCTAssertEqual(pass.status, 0, pass.stdout + pass.stderr)

        // One golden frame with a block of its pixels changed: the example must fail and name that frame.
        let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: golden.path).sorted()
            .first { $0.hasSuffix("-0005.png") })
        let path = golden.appendingPathComponent(name).path
        var bitmap = try PNGDecoder().decode(contentsOf: path)
        for y in 0..<min(20, bitmap.height) {
            for x in 0..<min(20, bitmap.width) { bitmap.setPixel(x: x, y: y, PremultipliedPixel(r: 255, g: 0, b: 0, a: 255)) }
        }
        var encoder = PNGEncoder()
        try Data(encoder.encode(bitmap)).write(to: URL(fileURLWithPath: path))
        let fail = try example("VerifyFrames", ["Samples/bta-spinner", "spinner", golden.path])
        XCTAssertEqual(fail.status, 1, fail.stdout + fail.stderr)
        XCTAssertTrue(fail.stdout.contains(name), fail.stdout)
    }

    func testTheREADMEShowsTheExamplesAsTheyAre() throws {
        let readme = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for name in ["ImportAndSample", "ExportToLottie"] {
            let source = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("Examples/\(name)/main.swift"),
                                    encoding: .utf8)
            // The program without its opening comment, as the README shows it.
            let code = source.split(separator: "\n", omittingEmptySubsequences: false)
                .drop { $0.hasPrefix("//") || $0.isEmpty }.joined(separator: "\n")
                .trimmingCharacters(in: .newlines)
            XCTAssertTrue(readme.contains("```swift\n\(code)\n```"),
                          "README.md does not show Examples/\(name)/main.swift as it is")
        }
    }

    /// y of the CSS cubic Bézier (0,0) (x1,y1) (x2,y2) (1,1) at `x`, by bisection on the curve parameter.
    static func cubicBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
        func component(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
            3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t
        }
        var low = 0.0, high = 1.0
        for _ in 0..<100 {
            let mid = (low + high) / 2
            if component(x1, x2, mid) < x { low = mid } else { high = mid }
        }
        return component(y1, y2, (low + high) / 2)
    }
}
