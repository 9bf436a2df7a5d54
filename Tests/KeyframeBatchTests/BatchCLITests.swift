import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import KeyframeBatch
import KeyframeExport
import KeyframeJSON
import KeyframeTestSupport
import XCTest

/// `keyframe batch` as a build runs it: exit codes, located errors, reports, the lock, and `kill -9` at random
/// moments.
final class BatchCLITests: XCTestCase {
    private var work: URL!

    override func setUpWithError() throws {
        work = try TestPaths.temporaryFolder("keyframe-batch-cli")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    /// 100 exports, 3 broken in different ways: 97 converted, 3 reported with located errors, exit 1.
    func testHundredExportsWithThreeBrokenConvertTheRestAndReportTheThree() throws {
        let root = try BatchFixtures.tree(copies: 20, in: work.appendingPathComponent("in"))
        // Truncated JSON.
        let walker = root.appendingPathComponent("set-00/animate-walker/Animation.json")
        let bytes = try Data(contentsOf: walker)
        try bytes.prefix(bytes.count / 2).write(to: walker)
        // Missing atlas image.
        try FileManager.default.removeItem(at: root.appendingPathComponent("set-01/dragonbones-waver/waver_tex.png"))
        // A symbol that contains itself.
        let loop = #"{"SI":{"SN":"loop","ST":"G","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}}"#
        let cycle = AnimateFixture.animation(frames: "[{\"I\":0,\"DU\":1,\"E\":[\(loop)]}]",
                                             symbols: #"{"SN":"loop","TL":{"L":[{"LN":"a","FR":[{"I":0,"DU":1,"E":["# + loop + "]}]}]}}")
        try Data(cycle.utf8).write(to: root.appendingPathComponent("set-02/animate-bouncer-long/Animation.json"))

        let out = work.appendingPathComponent("out")
        let report = work.appendingPathComponent("report.json"), junit = work.appendingPathComponent("junit.xml")
        let run = try BatchCLI.run(["batch", root.path, "-o", out.path, "--jobs", "2", "--report", report.path,
                                    "--junit", junit.path])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssert(run.stdout.contains("100 exports: 97 converted, 0 up to date, 3 failed"), run.stdout)
        let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("keyframe: error: ") }
        XCTAssertEqual(errors.count, 3, run.stderr)
        let truncated = try XCTUnwrap(errors.first { $0.contains("set-00/animate-walker") })
        XCTAssertNotNil(truncated.range(of: #"set-00/animate-walker: Animation\.json:\d+:\d+: invalid JSON"#,
                                        options: .regularExpression), String(truncated))
        XCTAssert(errors.contains { $0.contains("set-01/dragonbones-waver: ") && $0.contains("waver_tex.png") }, run.stderr)
        XCTAssert(errors.contains { $0.contains("set-02/animate-bouncer-long: symbol cycle: loop → loop") }, run.stderr)
        XCTAssertEqual(BatchFixtures.snapshot(out).keys.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.count, 97)

        let json = try JSONParser.parse([UInt8](Data(contentsOf: report)))
        XCTAssertEqual(json["summary"]?["converted"]?.doubleValue, 97)
        XCTAssertEqual(json["summary"]?["failed"]?.doubleValue, 3)
        let failed = (json["exports"]?.arrayValue ?? []).filter { $0["status"]?.stringValue == "failed" }
        XCTAssertEqual(failed.compactMap { $0["id"]?.stringValue },
                       ["set-00/animate-walker", "set-01/dragonbones-waver", "set-02/animate-bouncer-long"])
        XCTAssert(failed.allSatisfy { $0["error"]?.stringValue?.isEmpty == false && $0["durationSeconds"] != nil })

        // The JUnit file is well-formed XML with one case per export and a failure for each broken one.
        let xml = try Data(contentsOf: junit)
        let counter = JUnitCounter()
        let parser = XMLParser(data: xml)
        parser.delegate = counter
        XCTAssert(parser.parse(), "JUnit XML must parse: \(String(describing: parser.parserError))")
        XCTAssertEqual(counter.cases, 100)
        XCTAssertEqual(counter.failures, ["set-00/animate-walker", "set-01/dragonbones-waver", "set-02/animate-bouncer-long"])

        // Fixing one converts only that one; the other two still fail.
        try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent("Samples/dragonbones-waver/waver_tex.png"),
                                         to: root.appendingPathComponent("set-01/dragonbones-waver/waver_tex.png"))
        let again = try BatchCLI.run(["batch", root.path, "-o", out.path, "--jobs", "2"])
        XCTAssertEqual(again.status, 1)
        XCTAssert(again.stdout.contains("100 exports: 1 converted, 97 up to date, 2 failed"), again.stdout)
    }

    func testFailFastStopsStartingExportsAfterTheFirstFailure() throws {
        let root = try BatchFixtures.tree(copies: 2, in: work.appendingPathComponent("in"))
        // The largest export of set-00, a few bytes short: second in largest-first order.
        let bouncer = root.appendingPathComponent("set-00/animate-bouncer-long/Animation.json")
        let bytes = try Data(contentsOf: bouncer)
        try bytes.prefix(bytes.count - 10).write(to: bouncer)
        let report = work.appendingPathComponent("report.json")
        let run = try BatchCLI.run(["batch", root.path, "-o", work.appendingPathComponent("out").path, "--jobs", "1",
                                    "--fail-fast", "--report", report.path])
        XCTAssertEqual(run.status, 1)
        let json = try JSONParser.parse([UInt8](Data(contentsOf: report)))
        XCTAssertEqual(json["summary"]?["converted"]?.doubleValue, 1, run.stdout)
        XCTAssertEqual(json["summary"]?["failed"]?.doubleValue, 1)
        XCTAssertEqual(json["summary"]?["cancelled"]?.doubleValue, 8)
    }

    func testReportsAreByteIdenticalForAnyJobsWithoutTimings() throws {
        let root = try BatchFixtures.tree(copies: 2, in: work.appendingPathComponent("in"))
        var reports: [[UInt8]] = []
        for jobs in ["1", "3"] {
            let prefix = work.appendingPathComponent("r\(jobs)").path
            let run = try BatchCLI.run(["batch", root.path, "-o", prefix + "-out", "--jobs", jobs, "--no-timings",
                                        "--report", prefix + ".json", "--junit", prefix + ".xml"])
            XCTAssertEqual(run.status, 0, run.stderr)
            reports.append([UInt8](try Data(contentsOf: URL(fileURLWithPath: prefix + ".json")))
                           + [UInt8](try Data(contentsOf: URL(fileURLWithPath: prefix + ".xml"))))
        }
        XCTAssertEqual(reports[0], reports[1])
        BatchFixtures.assertSame(BatchFixtures.snapshot(work.appendingPathComponent("r3-out")),
                                 BatchFixtures.snapshot(work.appendingPathComponent("r1-out")), "jobs 1 vs 3")
    }

    func testSecondBatchOnTheSameOutputIsRefused() throws {
        let root = try BatchFixtures.tree(copies: 1, in: work.appendingPathComponent("in"))
        let out = work.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let held = try BatchLock(folder: out.path)
        let refused = try BatchCLI.run(["batch", root.path, "-o", out.path])
        XCTAssertEqual(refused.status, 1)
        XCTAssert(refused.stderr.contains("keyframe: error: another keyframe batch is writing to \(out.path)"), refused.stderr)
        XCTAssertEqual(BatchFixtures.snapshot(out).count, 0, "the refused batch wrote nothing")
        held.release()
        XCTAssertEqual(try BatchCLI.run(["batch", root.path, "-o", out.path]).status, 0)
    }

    func testUsageErrors() throws {
        let root = try BatchFixtures.tree(copies: 1, in: work.appendingPathComponent("in"))
        let out = work.appendingPathComponent("out")
        XCTAssertEqual(try BatchCLI.run(["batch", "-o", out.path]).status, 2)
        XCTAssertEqual(try BatchCLI.run(["batch", root.path, "-o", out.path, "--to", "gif"]).status, 2)
        for format in ExportFormat.allCases where Exporters.exporter(for: format) == nil {
            let run = try BatchCLI.run(["batch", root.path, "-o", out.path, "--to", format.rawValue])
            XCTAssertEqual(run.status, 2, format.rawValue)
            XCTAssert(run.stderr.contains("--to \(format.rawValue) is not available in this build"), run.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "usage errors write nothing")
        let file = work.appendingPathComponent("file")
        try Data().write(to: file)
        let notFolder = try BatchCLI.run(["batch", root.path, "-o", file.path])
        XCTAssertEqual(notFolder.status, 1)
        XCTAssert(notFolder.stderr.contains("keyframe: error: the output folder \(file.path) is not a folder"), notFolder.stderr)
    }

    /// `kill -9` at 20 random moments of a batch: what is on disk is always complete, and a rerun ends with exactly
    /// the bytes of an uninterrupted run.
    func testKillNineAtRandomMomentsNeverLeavesPartialOutputs() throws {
        let root = try BatchFixtures.tree(copies: 2, in: work.appendingPathComponent("in"))
        let reference = work.appendingPathComponent("reference")
        XCTAssertEqual(try BatchCLI.run(["batch", root.path, "-o", reference.path, "--jobs", "2"]).status, 0)
        // The kill moments are spread over a warm run's length (the first run also warms the file cache), and the
        // estimate shrinks whenever a batch finishes before its kill, so the kills keep landing while batches run.
        let start = Date()
        XCTAssertEqual(try BatchCLI.run(["batch", root.path, "-o", work.appendingPathComponent("warm").path,
                                         "--jobs", "2"]).status, 0)
        var fullRun = Date().timeIntervalSince(start)
        let expected = BatchFixtures.snapshot(reference)
        let expectedManifest = try JSONParser.parse(try XCTUnwrap(expected[".keyframe-manifest.json"]))

        var random = SeededGenerator(seed: 0xBA7C4)
        var killedMidway = 0
        for attempt in 0..<20 {
            let out = work.appendingPathComponent("kill-\(attempt)")
            let process = Process()
            process.executableURL = BatchCLI.binary
            process.arguments = ["batch", root.path, "-o", out.path, "--jobs", "2"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(Double.random(in: 0.02...1.0, using: &random) * fullRun * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if process.terminationReason == .uncaughtSignal { killedMidway += 1 } else { fullRun *= 0.8 }

            // Every visible file is complete; the manifest (if any) records only exports whose outputs are in place.
            let partial = BatchFixtures.snapshot(out)
            for (path, bytes) in partial where !(path as NSString).lastPathComponent.hasPrefix(".") {
                XCTAssertEqual(bytes, expected[path], "attempt \(attempt): \(path) is not complete")
            }
            if let manifestBytes = partial[".keyframe-manifest.json"] {
                let manifest = try JSONParser.parse(manifestBytes)
                for (id, entry) in manifest["exports"]?.objectValue ?? [:] {
                    XCTAssertEqual(entry, expectedManifest["exports"]?[id], "attempt \(attempt): \(id)")
                    for output in entry["outputs"]?.arrayValue ?? [] {
                        XCTAssertEqual(partial[output.stringValue ?? ""], expected[output.stringValue ?? ""],
                                       "attempt \(attempt): recorded output \(output)")
                    }
                }
            }
            let rerun = try BatchCLI.run(["batch", root.path, "-o", out.path, "--jobs", "2"])
            XCTAssertEqual(rerun.status, 0, "attempt \(attempt): \(rerun.stderr)")
            BatchFixtures.assertSame(BatchFixtures.snapshot(out), expected, "attempt \(attempt) after the rerun")
            try? FileManager.default.removeItem(at: out)
        }
        XCTAssertGreaterThanOrEqual(killedMidway, 10, "most kills must land while the batch runs")
    }
}

/// Counts test cases and the names of failing ones in a JUnit file.
private final class JUnitCounter: NSObject, XMLParserDelegate {
    var cases = 0
    var failures: [String] = []
    private var current = ""

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if name == "testcase" {
            cases += 1
            current = attributes["name"] ?? ""
        }
        if name == "failure" { failures.append(current) }
    }
}
