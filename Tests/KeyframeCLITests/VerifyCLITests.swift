import Foundation
import KeyframePNG
import KeyframeRaster
import KeyframeTestSupport
import XCTest

/// `keyframe verify` on real renders of the samples: golden sets recorded by `render` and by `--record`, changed,
/// corrupt, resized, missing and extra golden frames, reports and artefacts.
final class VerifyCLITests: XCTestCase {
    var walker: String { TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker").path }
    var spinner: String { TestPaths.packageRoot.appendingPathComponent("Samples/bta-spinner").path }

    /// Every file's name and bytes in a folder.
    func snapshot(_ folder: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            out[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return out
    }

    func testGoldenSetRecordedByRenderVerifiesAndAChangedPixelFailsWithADiff() throws {
        let root = try TestPaths.temporaryFolder("verify-cli")
        let golden = root.appendingPathComponent("golden")
        let render = try CLIRunner.run(["render", spinner, "-o", golden.path, "--size", "80x80", "--png", "compact"])
        XCTAssertEqual(render.status, 0, render.stderr)
        // The same options reproduce the set: render's bytes, so every frame matches.
        let same = try runInScratch(["verify", spinner, "--golden", golden.path, "--size", "80x80", "--jobs", "2"])
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertTrue(same.stdout.contains("ok: 24 of 24 frame(s) match"), same.stdout)

        // Paint a 3×2 block of golden frame 5 blue: that frame, and only it, fails, with the figures and a diff.
        let path = golden.appendingPathComponent("spinner-0005.png").path
        var frame = try PNGDecoder().decode(contentsOf: path)
        for y in 10..<12 { for x in 20..<23 { frame.setPixel(x: x, y: y, RGBAColor(r: 0, g: 0, b: 255).premultiplied) } }
        var encoder = PNGEncoder(options: .fast)
        try encoder.write(frame, to: path)
        let before = try snapshot(golden)
        let artifacts = root.appendingPathComponent("artifacts")
        let report = root.appendingPathComponent("report.json")
        let html = root.appendingPathComponent("report.html")
        let changed = try runInScratch(["verify", spinner, "--golden", golden.path, "--size", "80x80",
                                         "--artifacts", artifacts.path, "--report", report.path, "--html", html.path])
        XCTAssertEqual(changed.status, 1, changed.stderr)
        XCTAssertEqual(try snapshot(golden), before, "verify without --record must not touch the goldens")
        XCTAssertTrue(changed.stderr.contains("FAIL spinner-0005.png: 6 pixel(s)"), changed.stderr)
        XCTAssertTrue(changed.stderr.contains("changed area x 20 y 10 3×2"), changed.stderr)
        XCTAssertTrue(changed.stderr.contains("failed: 23 of 24 frame(s) match"), changed.stderr)
        let diff = try PNGDecoder().decode(contentsOf: artifacts.appendingPathComponent("spinner-0005.diff.png").path)
        XCTAssertEqual(diff.pixel(x: 21, y: 10), RGBAColor(r: 255, g: 0, b: 0).premultiplied)
        XCTAssertNotEqual(diff.pixel(x: 0, y: 0), RGBAColor(r: 255, g: 0, b: 0).premultiplied)
        let actual = try PNGDecoder().decode(contentsOf: artifacts.appendingPathComponent("spinner-0005.actual.png").path)
        XCTAssertEqual(actual.width, 80)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: artifacts.path).count, 2)

        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        XCTAssertEqual(json["passed"] as? Bool, false)
        let frames = try XCTUnwrap(json["frames"] as? [[String: Any]])
        let failing = frames.filter { $0["status"] as? String != "match" }
        XCTAssertEqual(failing.count, 1)
        XCTAssertEqual(failing.first?["differingPixels"] as? Int, 6)
        XCTAssertEqual(failing.first?["bounds"] as? [String: Int], ["x": 20, "y": 10, "width": 3, "height": 2])
        // The same verification with one worker writes the same report bytes.
        let report1 = root.appendingPathComponent("report1.json"), html1 = root.appendingPathComponent("report1.html")
        XCTAssertEqual(try runInScratch(["verify", spinner, "--golden", golden.path, "--size", "80x80", "--jobs", "1",
                                          "--artifacts", artifacts.path, "--report", report1.path,
                                          "--html", html1.path]).status, 1)
        XCTAssertEqual(try Data(contentsOf: report1), try Data(contentsOf: report))
        XCTAssertEqual(try Data(contentsOf: html1), try Data(contentsOf: html))
        let page = try String(contentsOf: html, encoding: .utf8)
        XCTAssertEqual(page.components(separatedBy: "data:image/png;base64,").count - 1, 4,
                       "expected | actual | heat map, and the heat map's scale")
        XCTAssertFalse(page.contains("src=\"http"))

        // A generous share lets the frame pass: 6 of 6400 pixels is under 0.1%.
        let lenient = try runInScratch(["verify", spinner, "--golden", golden.path, "--size", "80x80",
                                         "--max-differing", "0.1%", "--artifacts", artifacts.path])
        XCTAssertEqual(lenient.status, 0, lenient.stderr)

        // --record rewrites only frame 5.
        let recorded = try runInScratch(["verify", spinner, "--golden", golden.path, "--size", "80x80", "--record"])
        XCTAssertEqual(recorded.status, 0, recorded.stderr)
        XCTAssertTrue(recorded.stdout.contains("updated spinner-0005.png"), recorded.stdout)
        XCTAssertTrue(recorded.stdout.contains("recorded 0 new, 1 updated, 0 removed, 23 unchanged"), recorded.stdout)
        let after = try snapshot(golden)
        // Frame 5, and the framing the set now keeps (it was written by `render`, which keeps none).
        XCTAssertEqual(after.filter { before[$0.key] != $0.value }.map(\.key).sorted(),
                       ["golden-framing.json", "spinner-0005.png"])
        XCTAssertFalse(after.keys.contains { $0.hasPrefix(".") }, "temporary files left behind")
        XCTAssertEqual(try runInScratch(["verify", spinner, "--golden", golden.path, "--size", "80x80"]).status, 0)
    }

    func testBadGoldenFramesGetPerFrameMessagesAndRecordRepairsThem() throws {
        let root = try TestPaths.temporaryFolder("verify-cli-bad")
        let golden = root.appendingPathComponent("golden")
        let artifacts = root.appendingPathComponent("artifacts").path
        // No golden folder: one clear error.
        let none = try runInScratch(["verify", spinner, "--golden", golden.path])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("keyframe: error: \(golden.path): the golden folder does not exist"),
                      none.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: golden.path))

        let first = try runInScratch(["verify", spinner, "--golden", golden.path, "--record"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("recorded 24 new, 0 updated, 0 removed, 0 unchanged"), first.stdout)

        // Corrupt frame 3, replace frame 4 by a smaller picture, delete frame 6, add a stray frame 30.
        try Data("PNG? no".utf8).write(to: golden.appendingPathComponent("spinner-0003.png"))
        var encoder = PNGEncoder(options: .fast)
        try encoder.write(Bitmap(width: 5, height: 5), to: golden.appendingPathComponent("spinner-0004.png").path)
        try FileManager.default.removeItem(at: golden.appendingPathComponent("spinner-0006.png"))
        try FileManager.default.copyItem(at: golden.appendingPathComponent("spinner-0000.png"),
                                         to: golden.appendingPathComponent("spinner-0030.png"))
        let bad = try runInScratch(["verify", spinner, "--golden", golden.path,
                                     "--artifacts", artifacts])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("FAIL spinner-0003.png: golden frame spinner-0003.png is not a readable PNG"),
                      bad.stderr)
        XCTAssertTrue(bad.stderr.contains("FAIL spinner-0004.png: golden frame spinner-0004.png is 5×5 but the render is"),
                      bad.stderr)
        XCTAssertTrue(bad.stderr.contains("FAIL spinner-0006.png: no golden frame spinner-0006.png"), bad.stderr)
        XCTAssertTrue(bad.stderr.contains("FAIL spinner-0030.png: golden frame spinner-0030.png has no rendered frame"),
                      bad.stderr)
        XCTAssertTrue(bad.stderr.contains("21 of 24 frame(s) match"), bad.stderr)

        // A partial render checks only its frames: the stray frame 30 is not its business. (The spinner has a
        // stage, so its framing does not depend on which frames are rendered.)
        let partial = try runInScratch(["verify", spinner, "--golden", golden.path, "--frames",
                                         "7..9"])
        XCTAssertEqual(partial.status, 0, partial.stderr)
        XCTAssertTrue(partial.stdout.contains("3 of 3 frame(s) match"), partial.stdout)

        let fixed = try runInScratch(["verify", spinner, "--golden", golden.path, "--record"])
        XCTAssertEqual(fixed.status, 0, fixed.stderr)
        XCTAssertTrue(fixed.stdout.contains("recorded 1 new, 2 updated, 1 removed, 21 unchanged"), fixed.stdout)
        XCTAssertEqual(try runInScratch(["verify", spinner, "--golden", golden.path]).status, 0)
    }

    func testUsageErrors() throws {
        let bad = try runInScratch(["verify", walker, "--golden", "/tmp", "--max-differing", "150%"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--max-differing 150%"), bad.stderr)
        XCTAssertEqual(try runInScratch(["verify", walker, "--golden", "/tmp", "--tolerance", "300"]).status, 2)
    }
}

/// Runs `keyframe` in a scratch folder, so that a verify run without `--artifacts` writes its default
/// `keyframe-verify-artifacts/` there and never into the package.
private func runInScratch(_ arguments: [String]) throws -> CLIRun {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keyframe-verify-cwd-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return try CLIRunner.run(arguments, directory: folder)
}
