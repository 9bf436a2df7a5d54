import Foundation
import KeyframePNG
import KeyframeRaster
import KeyframeTestSupport
import XCTest

/// `keyframe batch --verify GOLDEN_ROOT` as CI runs it: the real CLI on copies of the bundled samples, goldens on
/// disk, reports read back.
final class BatchVerifyCLITests: XCTestCase {
    private var work: URL!
    /// Small frames keep the tests quick; the same options go to every command, as a user's CI script would pass them.
    private let render = ["--size", "48x48", "--fps", "12"]

    override func setUpWithError() throws {
        work = try TestPaths.temporaryFolder("keyframe-batch-verify")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    /// `tree/set/<sample>` for each sample.
    private func tree(_ samples: [String]) throws -> URL {
        let root = work.appendingPathComponent("tree")
        let set = root.appendingPathComponent("set")
        try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
        for sample in samples {
            try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent("Samples/\(sample)"),
                                             to: set.appendingPathComponent(sample))
        }
        return root
    }

    private func path(_ name: String) -> String { work.appendingPathComponent(name).path }

    private func batch(_ arguments: [String]) throws -> BatchCLIRun {
        try BatchCLI.run(["batch"] + arguments + render)
    }

    private func json(_ name: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: work.appendingPathComponent(name))) as? [String: Any])
    }

    private func pngFiles(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".png") }.sorted()
    }

    /// Paints a 5×4 block of opaque magenta into a golden frame (so 20 pixels differ wherever the frame is not
    /// magenta already).
    private func deface(_ url: URL, x: Int, y: Int) throws -> Int {
        var bitmap = try PNGDecoder().decode(contentsOf: url.path)
        var changed = 0
        for row in y..<(y + 4) {
            for column in x..<(x + 5) {
                let i = (row * bitmap.width + column) * 4
                let old = Array(bitmap.pixels[i..<(i + 4)])
                let new: [UInt8] = [255, 0, 255, 255]
                if zip(old, new).contains(where: { abs(Int($0) - Int($1)) > 2 }) { changed += 1 }
                bitmap.pixels.replaceSubrange(i..<(i + 4), with: new)
            }
        }
        var encoder = PNGEncoder(options: .fast)
        try Data(encoder.encode(bitmap)).write(to: url)
        return changed
    }

    /// Record, pass, a defaced golden fails naming export, clip, frame and figures (even though the export itself is
    /// up to date), a missing golden folder fails clearly, and `--record` rewrites only the defaced frame.
    func testRecordVerifyFailOnAChangedGoldenAndRerecordOnlyIt() throws {
        let root = try tree(["bta-spinner", "dragonbones-waver"])
        let out = path("out"), gold = path("gold")

        // No golden root yet: a clear error, nothing verified.
        var run = try batch([root.path, "-o", out, "--verify", gold])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("the golden root") && run.stderr.contains("does not exist")
                      && run.stderr.contains("--record"), run.stderr)

        // Record.
        run = try batch([root.path, "-o", out, "--verify", gold, "--record"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let spinner = URL(fileURLWithPath: gold).appendingPathComponent("set/bta-spinner")
        let waver = URL(fileURLWithPath: gold).appendingPathComponent("set/dragonbones-waver")
        let spinnerFrames = pngFiles(spinner), waverFrames = pngFiles(waver)
        XCTAssertFalse(spinnerFrames.isEmpty)
        XCTAssertFalse(waverFrames.isEmpty)
        XCTAssertTrue(spinnerFrames.allSatisfy { $0.hasPrefix("spinner-") }, "\(spinnerFrames)")
        XCTAssertTrue(run.stdout.contains("goldens \(spinnerFrames.count + waverFrames.count) new, 0 updated, 0 removed"),
                      run.stdout)

        // Verify: everything matches.
        run = try batch([root.path, "-o", out, "--verify", gold])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("verify: 2 exports: 2 passed"), run.stdout)
        let before = BatchFixtures.snapshot(URL(fileURLWithPath: gold))

        // Deface one golden: the export is up to date, but its goldens changed, so it is verified again and fails.
        let target = spinner.appendingPathComponent(spinnerFrames[3])
        let original = try PNGDecoder().decode(contentsOf: target.path)
        let changed = try deface(target, x: 10, y: 12)
        XCTAssertGreaterThan(changed, 0)
        run = try batch([root.path, "-o", out, "--verify", gold, "--report", path("report.json"),
                         "--junit", path("junit.xml"), "--verify-html", path("verify.html")])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("0 converted, 2 up to date"), run.stdout)
        XCTAssertTrue(run.stderr.contains("keyframe: error: set/bta-spinner: verify") && run.stderr.contains(spinnerFrames[3]),
                      run.stderr)
        let report = try json("report.json")
        let exports = try XCTUnwrap(report["exports"] as? [[String: Any]])
        let failed = try XCTUnwrap(exports.first { $0["id"] as? String == "set/bta-spinner" })
        let verification = try XCTUnwrap(failed["verification"] as? [String: Any])
        XCTAssertEqual(verification["status"] as? String, "failed")
        XCTAssertEqual(verification["golden"] as? String, "set/bta-spinner")
        let failures = try XCTUnwrap(verification["failures"] as? [[String: Any]])
        XCTAssertEqual(failures.count, 1)
        let frame = try XCTUnwrap(failures.first)
        XCTAssertEqual(frame["clip"] as? String, "spinner")
        XCTAssertEqual(frame["frame"] as? Int, 3)
        XCTAssertEqual(frame["file"] as? String, spinnerFrames[3])
        XCTAssertEqual(frame["status"] as? String, "differs")
        XCTAssertEqual(frame["differingPixels"] as? Int, changed)
        XCTAssertGreaterThan(frame["maxDifference"] as? Int ?? 0, 2)
        let bounds = try XCTUnwrap(frame["bounds"] as? [String: Int])
        XCTAssertTrue(bounds["x"]! >= 10 && bounds["y"]! >= 12 && bounds["x"]! + bounds["width"]! <= 15
                      && bounds["y"]! + bounds["height"]! <= 16, "\(bounds)")
        // The saved pictures are where the report says; the actual frame is the render, i.e. the original golden.
        let actualPath = try XCTUnwrap(frame["actual"] as? String), diffPath = try XCTUnwrap(frame["diff"] as? String)
        XCTAssertEqual(actualPath, "set/verify/bta-spinner/" + spinnerFrames[3].dropLast(4) + ".actual.png")
        XCTAssertEqual(try PNGDecoder().decode(contentsOf: out + "/" + actualPath), original)
        let diff = try PNGDecoder().decode(contentsOf: out + "/" + diffPath)
        XCTAssertEqual(diff.width, original.width)
        let other = try XCTUnwrap(exports.first { $0["id"] as? String == "set/dragonbones-waver" })
        XCTAssertEqual((other["verification"] as? [String: Any])?["status"] as? String, "passed")
        let summary = try XCTUnwrap((report["summary"] as? [String: Any])?["verification"] as? [String: Any])
        XCTAssertEqual(summary["failed"] as? Int, 1)
        XCTAssertEqual(summary["failingFrames"] as? Int, 1)
        // JUnit: that export's test case fails with its figures; the other passes.
        let junit = try String(contentsOf: work.appendingPathComponent("junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("failures=\"1\""), junit)
        XCTAssertTrue(junit.contains("type=\"verification\"") && junit.contains("clip spinner, frame 3")
                      && junit.contains("\(changed) pixel(s)"), junit)
        // One HTML page with the three pictures of the failing frame.
        let html = try String(contentsOf: work.appendingPathComponent("verify.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("set/bta-spinner") && html.contains(spinnerFrames[3]), "page names the frame")
        XCTAssertEqual(html.components(separatedBy: "src=\"data:image/png;base64,").count - 1, 4,
                       "expected | actual | heat map, and the heat map's scale")

        // A failing tree keeps failing on the next run (failures are never carried over as passes).
        run = try batch([root.path, "-o", out, "--verify", gold])
        XCTAssertEqual(run.status, 1, run.stdout)

        // --record rewrites only the defaced frame.
        run = try batch([root.path, "-o", out, "--verify", gold, "--record"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("goldens 0 new, 1 updated, 0 removed"), run.stdout)
        BatchFixtures.assertSame(BatchFixtures.snapshot(URL(fileURLWithPath: gold)), before, "after re-recording")
        XCTAssertEqual(try PNGDecoder().decode(contentsOf: target.path), original)
        // A passing run clears the earlier failure's pictures.
        run = try batch([root.path, "-o", out, "--verify", gold])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/set/verify"), "stale diff pictures left in OUT")
        // Unchanged inputs, options and goldens: nothing is rendered again.
        XCTAssertTrue(run.stdout.contains("2 passed (2 unchanged since the last run)"), run.stdout)

        // A missing golden folder is a failure that says so; the other export still passes.
        try FileManager.default.removeItem(at: waver)
        run = try batch([root.path, "-o", out, "--verify", gold, "--report", path("report.json")])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("set/dragonbones-waver: verify against golden set/dragonbones-waver: "
                                          + "no golden folder set/dragonbones-waver in the golden root"), run.stderr)
        XCTAssertTrue(run.stdout.contains("1 passed"), run.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: waver.path), "verify created a golden folder")
    }

    /// Reports, diff pictures and the HTML page do not depend on `--jobs`.
    func testReportsAndPicturesAreIdenticalForJobs1And2() throws {
        let root = try tree(["bta-spinner", "dragonbones-waver", "animate-bouncer-long"])
        let gold = path("gold")
        XCTAssertEqual(try batch([root.path, "-o", path("rec"), "--verify", gold, "--record"]).status, 0)
        let frames = pngFiles(URL(fileURLWithPath: gold).appendingPathComponent("set/dragonbones-waver"))
        _ = try deface(URL(fileURLWithPath: gold).appendingPathComponent("set/dragonbones-waver/\(frames[5])"), x: 0, y: 0)
        try FileManager.default.removeItem(at: URL(fileURLWithPath: gold).appendingPathComponent("set/bta-spinner/spinner-0001.png"))
        var outputs: [[String: [UInt8]]] = []
        for jobs in ["1", "2"] {
            let run = try batch([root.path, "-o", path("out\(jobs)"), "--verify", gold, "--jobs", jobs, "--no-timings",
                                 "--report", path("out\(jobs)/r.json"), "--junit", path("out\(jobs)/j.xml"),
                                 "--verify-html", path("out\(jobs)/v.html")])
            XCTAssertEqual(run.status, 1, run.stderr)
            var snapshot = BatchFixtures.snapshot(URL(fileURLWithPath: path("out\(jobs)")))
            // The page shows the command that records the new goldens: this run's command, which names its own OUT.
            let page = String(decoding: snapshot["v.html"] ?? [], as: UTF8.self)
            let command = try XCTUnwrap(page.range(of: "<pre class=\"command\">.*</pre>", options: .regularExpression))
            XCTAssertTrue(page[command].contains("-o \(path("out\(jobs)")) --verify \(gold) ")
                          && page[command].hasSuffix(" --record</code></pre>") && !page[command].contains("--jobs"),
                          String(page[command]))
            snapshot["v.html"] = Array(page.replacingCharacters(in: command, with: "").utf8)
            outputs.append(snapshot)
        }
        XCTAssertNotNil(outputs[0]["set/verify/dragonbones-waver/\(frames[5].dropLast(4)).diff.png"])
        XCTAssertNotNil(outputs[0]["set/verify/bta-spinner/spinner-0001.actual.png"], "missing golden keeps the render")
        BatchFixtures.assertSame(outputs[1], outputs[0], "--jobs 2 against --jobs 1")
    }

    /// A golden set recorded by `keyframe verify --record` passes under batch, and one recorded by batch passes
    /// `keyframe verify`: the same frames, the same names (and the same bytes).
    func testGoldensAreInterchangeableWithKeyframeVerify() throws {
        let root = try tree(["bta-spinner", "flump-hopbot"])
        let gold = path("gold")
        let spinner = gold + "/set/bta-spinner"
        var run = try BatchCLI.run(["verify", root.path + "/set/bta-spinner", "--golden", spinner, "--record", "--quiet"] + render)
        XCTAssertEqual(run.status, 0, run.stderr)
        let fromVerify = BatchFixtures.snapshot(URL(fileURLWithPath: spinner))
        XCTAssertFalse(fromVerify.isEmpty)

        // Batch records only what is missing (hopbot) and leaves verify's goldens untouched.
        run = try batch([root.path, "-o", path("out"), "--verify", gold, "--record"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("\(fromVerify.keys.filter { $0.hasSuffix(".png") }.count) unchanged"), run.stdout)
        BatchFixtures.assertSame(BatchFixtures.snapshot(URL(fileURLWithPath: spinner)), fromVerify, "verify's goldens")
        run = try batch([root.path, "-o", path("out"), "--verify", gold, "--force"])
        XCTAssertEqual(run.status, 0, run.stderr)

        // Batch's goldens pass `keyframe verify`, and equal what verify records.
        let hopbot = gold + "/set/flump-hopbot"
        run = try BatchCLI.run(["verify", root.path + "/set/flump-hopbot", "--golden", hopbot, "--quiet",
                                "--artifacts", path("artifacts")] + render)
        XCTAssertEqual(run.status, 0, run.stderr)
        run = try BatchCLI.run(["verify", root.path + "/set/flump-hopbot", "--golden", path("again"), "--record",
                                "--quiet"] + render)
        XCTAssertEqual(run.status, 0, run.stderr)
        BatchFixtures.assertSame(BatchFixtures.snapshot(URL(fileURLWithPath: path("again"))),
                                 BatchFixtures.snapshot(URL(fileURLWithPath: hopbot)), "batch's goldens against verify's")

        // Other render options: a golden set for --size 48x48 does not pass at 40x40 (size mismatch, named).
        run = try BatchCLI.run(["batch", root.path, "-o", path("out"), "--verify", gold, "--size", "40x40", "--fps", "12"])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("size-mismatch"), run.stderr)
    }

    /// The golden folder belongs to its export: a frame of a clip that no longer exists is an extra golden (removed
    /// by `--record`); the pictures of a failure go when the export is verified again or pruned.
    func testStrayGoldensFailAndPruneRemovesPicturesOfGoneExports() throws {
        let root = try tree(["bta-spinner", "animate-bouncer-long"])
        let out = path("out"), gold = path("gold")
        XCTAssertEqual(try batch([root.path, "-o", out, "--verify", gold, "--record"]).status, 0)
        let spinner = URL(fileURLWithPath: gold).appendingPathComponent("set/bta-spinner")
        try FileManager.default.copyItem(at: spinner.appendingPathComponent("spinner-0000.png"),
                                         to: spinner.appendingPathComponent("spin-0000.png"))
        var run = try batch([root.path, "-o", out, "--verify", gold])
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.stderr.contains("spin-0000.png: extra-golden: golden frame spin-0000.png belongs to no rendered clip"),
                      run.stderr)
        run = try batch([root.path, "-o", out, "--verify", gold, "--record"])
        XCTAssertTrue(run.stdout.contains("0 new, 0 updated, 1 removed"), run.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: spinner.appendingPathComponent("spin-0000.png").path))

        // A failing export that is then deleted: --prune takes its diff pictures with it.
        _ = try deface(URL(fileURLWithPath: gold).appendingPathComponent("set/animate-bouncer-long/bouncer-0002.png"), x: 0, y: 0)
        XCTAssertEqual(try batch([root.path, "-o", out, "--verify", gold]).status, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/set/verify/animate-bouncer-long/bouncer-0002.diff.png"))
        try FileManager.default.removeItem(at: root.appendingPathComponent("set/animate-bouncer-long"))
        run = try batch([root.path, "-o", out, "--verify", gold, "--prune"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/set/verify"), "pictures of a pruned export left")
        XCTAssertTrue(FileManager.default.fileExists(atPath: gold + "/set/animate-bouncer-long"), "goldens are never pruned")
    }

    /// Verification options without `--verify` are usage errors.
    func testVerificationOptionsNeedVerify() throws {
        let root = try tree(["bta-spinner"])
        for extra in [["--record"], ["--tolerance", "4"], ["--verify-html", path("v.html")]] {
            let run = try BatchCLI.run(["batch", root.path, "-o", path("out")] + extra)
            XCTAssertEqual(run.status, 2, "\(extra): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("needs --verify"), run.stderr)
        }
        let run = try BatchCLI.run(["batch", root.path, "-o", path("out"), "--size", "48x48"])
        XCTAssertEqual(run.status, 2, run.stderr)
        let bad = try BatchCLI.run(["batch", root.path, "-o", path("out"), "--verify", path("g"), "--size", "48"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--size 48: expected WIDTHxHEIGHT"), bad.stderr)
    }
}
