import Foundation
import KeyframeTestSupport
import XCTest

/// `keyframe render` as a user runs it: files on disk, exit codes, messages.
final class RenderCLITests: XCTestCase {
    func run(_ arguments: [String]) throws -> CLIRun { try CLIRunner.run(arguments) }

    var walker: String { TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker").path }
    var spinner: String { TestPaths.packageRoot.appendingPathComponent("Samples/bta-spinner").path }

    /// Width and height from a PNG's IHDR.
    func pngSize(_ path: String) throws -> (Int, Int) {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(Array(data.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(path) is not a PNG")
        func be32(_ at: Int) -> Int { data[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    func testRendersEveryClipWithNumberedFilesAndAContactSheet() throws {
        let out = try TestPaths.temporaryFolder("render-cli")
        let sheet = out.appendingPathComponent("sheet.png").path
        let result = try run(["render", walker, "-o", out.path, "--contact-sheet", sheet, "--jobs", "2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        // The walker has two labelled clips of 24 frames each (make-samples.py).
        XCTAssertEqual(files.filter { $0.hasPrefix("walk-") }.count, 24)
        XCTAssertEqual(files.filter { $0.hasPrefix("wave-") }.count, 24)
        XCTAssertTrue(files.contains("walk-0000.png") && files.contains("walk-0023.png"), "\(files)")
        XCTAssertFalse(files.contains { $0.hasPrefix(".") }, "temporary files left behind: \(files)")
        let (w, h) = try pngSize(sheet)
        XCTAssertGreaterThan(w, 200)
        XCTAssertGreaterThan(h, 200)
        XCTAssertTrue(result.stdout.contains("walk: 24 frame(s)"), result.stdout)
        XCTAssertEqual(result.stderr, "", "no progress bar when standard error is not a terminal")
    }

    func testSizeFramesAndFitOptions() throws {
        let out = try TestPaths.temporaryFolder("render-cli-size")
        let result = try run(["render", spinner, "-o", out.path, "--size", "64x32", "--frames", "2..4",
                              "--background", "#102030"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        XCTAssertEqual(files, ["spinner-0002.png", "spinner-0003.png", "spinner-0004.png"])
        let (w, h) = try pngSize(out.appendingPathComponent("spinner-0002.png").path)
        XCTAssertEqual(w, 64)
        XCTAssertEqual(h, 32)
    }

    /// With several clips, `--frames` gives each clip the part of the range it has. flump-hopbot's clips last 48,
    /// 24, 24, 12 and 9 frames (make-flump-sample.py).
    func testFrameRangeOverSeveralClipsKeepsWhatEachHas() throws {
        let hopbot = TestPaths.packageRoot.appendingPathComponent("Samples/flump-hopbot").path
        let out = try TestPaths.temporaryFolder("render-cli-range")
        let result = try run(["render", hopbot, "-o", out.path, "--frames", "10..30"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path)
        func count(_ prefix: String) -> Int { files.filter { $0.hasPrefix(prefix + "-") }.count }
        XCTAssertEqual(count("robot"), 21)
        XCTAssertEqual(count("robot_hop"), 14)
        XCTAssertEqual(count("robot_wave"), 14)
        XCTAssertEqual(count("blink"), 2)
        XCTAssertEqual(count("antenna"), 0)
        let none = try run(["render", hopbot, "-o", out.appendingPathComponent("none").path, "--frames", "60..70"])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("outside every clip") && none.stderr.contains("0..47"), none.stderr)
    }

    /// One rule for one clip and for several: a single-clip export shorter than the range renders the frames it
    /// has and says what lay beyond it, as each clip of a several-clip export does; only a range no clip reaches
    /// fails.
    func testFrameRangeBeyondASingleClipRendersWhatItHas() throws {
        let out = try TestPaths.temporaryFolder("render-cli-range-one")
        func object(_ text: String) throws -> [String: Any] {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
        }
        let info = try run(["inspect", spinner, "--json"])
        XCTAssertEqual(info.status, 0, info.stderr)
        XCTAssertEqual((try object(info.stdout)["clips"] as? [Any])?.count, 1, "the spinner is a single-clip export")
        let result = try run(["render", spinner, "-o", out.path, "--frames", "0..119", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let clip = try XCTUnwrap((try object(result.stdout)["clips"] as? [[String: Any]])?.first)
        let frames = try XCTUnwrap(clip["frames"] as? Int)
        XCTAssertLessThan(frames, 120)
        XCTAssertGreaterThan(frames, 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".png") }
        XCTAssertEqual(files.count, frames)
        let last = frames - 1
        let note = try XCTUnwrap(clip["selectionNote"] as? String)
        XCTAssertTrue(note.contains("rendered 0..\(last)") && note.contains("frames 0..\(last)"), note)
        // The summary line says the same; a range inside the clip has no note.
        let text = try run(["render", spinner, "-o", out.path, "--frames", "0..119"])
        XCTAssertTrue(text.stdout.contains("note: --frames 0..119 reaches beyond the clip: rendered 0..\(last)"),
                      text.stdout)
        let inside = try run(["render", spinner, "-o", out.path, "--frames", "0..\(last)", "--json"])
        XCTAssertNil((try object(inside.stdout)["clips"] as? [[String: Any]])?.first?["selectionNote"])
        // Past the end entirely: an error naming the clip's frames, as before.
        let none = try run(["render", spinner, "-o", out.path, "--frames", "\(last + 1)..\(last + 5)"])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("is outside clip") && none.stderr.contains("0..\(last)"), none.stderr)
    }

    func testAtTimesAreNumberedByTheFrameTheyFallIn() throws {
        let out = try TestPaths.temporaryFolder("render-cli-at")
        let result = try run(["render", spinner, "-o", out.path, "--at", "0", "0.5", "--fps", "10"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        XCTAssertEqual(files, ["spinner-0000.png", "spinner-0005.png"])
    }

    func testJobsDoNotChangeTheBytes() throws {
        let one = try TestPaths.temporaryFolder("render-cli-j1")
        let two = try TestPaths.temporaryFolder("render-cli-j2")
        XCTAssertEqual(try run(["render", walker, "-o", one.path, "--jobs", "1", "--clip", "walk"]).status, 0)
        XCTAssertEqual(try run(["render", walker, "-o", two.path, "--jobs", "2", "--clip", "walk"]).status, 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: one.path).sorted()
        XCTAssertEqual(files.count, 24)
        for file in files {
            XCTAssertEqual(try Data(contentsOf: one.appendingPathComponent(file)),
                           try Data(contentsOf: two.appendingPathComponent(file)), file)
        }
    }

    func testNormalizedJSONRendersWithAssetsFolder() throws {
        let out = try TestPaths.temporaryFolder("render-cli-json")
        let json = out.appendingPathComponent("spinner.json").path
        XCTAssertEqual(try run(["convert", spinner, "-o", json]).status, 0)
        let missing = try run(["render", json, "-o", out.appendingPathComponent("a").path])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("not found") && missing.stderr.contains("--assets"), missing.stderr)
        let ok = try run(["render", json, "--assets", spinner, "-o", out.appendingPathComponent("b").path,
                          "--frames", "0"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("b/spinner-0000.png").path))
    }

    func testBadOptionsAreUsageErrors() throws {
        for arguments in [["--size", "12"], ["--background", "red"], ["--frames", "5..2"], ["--jobs", "0"],
                          ["--frames", "1..2", "--at", "0.5"], ["--fit", "page"], ["--png", "tiny"]] {
            let result = try run(["render", spinner] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
        }
    }

    func testInputErrorsExitOneAndWriteNothing() throws {
        let out = try TestPaths.temporaryFolder("render-cli-errors")
        let unknownClip = try run(["render", walker, "--clip", "run", "-o", out.path])
        XCTAssertEqual(unknownClip.status, 1)
        XCTAssertTrue(unknownClip.stderr.contains("\"walk\"") && unknownClip.stderr.contains("\"wave\""),
                      unknownClip.stderr)
        let outOfRange = try run(["render", spinner, "--frames", "30..500", "-o", out.path])
        XCTAssertEqual(outOfRange.status, 1)
        XCTAssertTrue(outOfRange.stderr.contains("0..23"), outOfRange.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), [])

        // An export whose atlas image is missing names the image.
        let broken = try TestPaths.temporaryFolder("render-cli-broken")
        for file in try FileManager.default.contentsOfDirectory(atPath: spinner) where file.hasSuffix(".json") {
            try FileManager.default.copyItem(atPath: "\(spinner)/\(file)", toPath: broken.appendingPathComponent(file).path)
        }
        let result = try run(["render", broken.path, "-o", out.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains(".png"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), [])
    }
}

extension RenderCLITests {
    /// Requests that would run for hours or need gigabytes stop before anything is drawn, with advice.
    func testHugeFrameCountsAreRefusedUpFront() throws {
        let out = try TestPaths.temporaryFolder("render-cli-huge")
        let scratch = try TestPaths.temporaryFolder("render-cli-huge-input")
        // The walker slowed down (its 24-frame clip at `rate` fps), since --fps stops at 1000.
        func slowWalker(_ rate: Double) throws -> String {
            let json = scratch.appendingPathComponent("walker-\(rate).json")
            XCTAssertEqual(try run(["convert", walker, "-o", json.path]).status, 0)
            var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
            object["frameRate"] = rate
            try JSONSerialization.data(withJSONObject: object).write(to: json)
            return json.path
        }
        // 240 s at 1000 fps: more frames than one clip may render unselected.
        let tooMany = try run(["render", try slowWalker(0.1), "--assets", walker, "--clip", "walk", "--fps", "1000",
                               "-o", out.path])
        XCTAssertEqual(tooMany.status, 1)
        XCTAssertTrue(tooMany.stderr.contains("--frames"), tooMany.stderr)
        // 50 s at 1000 fps with a contact sheet: 50,000 captions do not fit one sheet.
        let sheet = out.appendingPathComponent("sheet.png").path
        let tooBig = try run(["render", try slowWalker(0.48), "--assets", walker, "--clip", "walk", "--fps", "1000",
                              "-o", out.path, "--contact-sheet", sheet])
        XCTAssertEqual(tooBig.status, 1)
        XCTAssertTrue(tooBig.stderr.contains("contact sheet"), tooBig.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), [])
    }

    /// A normalized document with absurd numbers (a hand-edited or damaged file) renders or fails with an
    /// error; it never traps. Found by mutating the samples' documents: each case once crashed `render`.
    func testAbsurdNumbersInANormalizedDocumentDoNotCrash() throws {
        let source = try TestPaths.temporaryFolder("render-cli-absurd")
        let converted = source.appendingPathComponent("spinner.json").path
        XCTAssertEqual(try run(["convert", spinner, "-o", converted]).status, 0)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: converted))) as? [String: Any])
        func mutated(_ change: (inout [String: Any]) -> Void) throws -> String {
            var copy = document
            change(&copy)
            let path = source.appendingPathComponent("mutated.json").path
            try JSONSerialization.data(withJSONObject: copy).write(to: URL(fileURLWithPath: path))
            return path
        }
        func setFirstSprite(_ key: String, _ value: Double) -> (inout [String: Any]) -> Void {
            return { doc in
                var assets = doc["assets"] as! [String: Any]
                var sprites = assets["sprites"] as! [[String: Any]]
                var region = sprites[0]["region"] as! [String: Any]
                region[key] = value
                sprites[0]["region"] = region
                assets["sprites"] = sprites
                doc["assets"] = assets
            }
        }
        let cases: [(String, (inout [String: Any]) -> Void)] = [
            ("region height 1e308", setFirstSprite("height", 1e308)),
            ("region width 1e-308", setFirstSprite("width", 1e-308)),
            ("frame rate 1e-308", { $0["frameRate"] = 1e-308 }),
            ("stage x -1e308", { doc in
                var stage = doc["stage"] as! [String: Any]
                stage["x"] = -1e308
                doc["stage"] = stage
            }),
        ]
        for (name, change) in cases {
            let path = try mutated(change)
            for options in [["--frames", "0..2"], ["--fit", "content", "--frames", "0..2"], ["--size", "64x64"]] {
                let out = try TestPaths.temporaryFolder("render-cli-absurd-out")
                let result = try run(["render", path, "--assets", spinner, "-o", out.path, "--quiet"] + options)
                XCTAssertTrue(result.status == 0 || result.status == 1,
                              "\(name) \(options): exit \(result.status)\n\(result.stderr.prefix(400))")
            }
        }
    }
}

/// `keyframe render --script`: an interaction rendered tick by tick.
final class RenderScriptCLITests: XCTestCase {
    func testScriptFramesFollowTheAnimatorsTimeline() throws {
        let script = TestPaths.packageRoot.appendingPathComponent("Samples/scripts/walker-interaction.json").path
        let walker = TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker").path
        let out = try TestPaths.temporaryFolder("render-script")
        let played = try CLIRunner.run(["play", script, "--fps", "12", "--json"])
        XCTAssertEqual(played.status, 0, played.stderr)
        let ticks = played.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        XCTAssertGreaterThan(ticks.count, 5)
        let result = try CLIRunner.run(["render", walker, "--script", script, "--fps", "12", "--fit", "content",
                                  "-o", out.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        XCTAssertEqual(files.count, ticks.count, "one frame per tick of `keyframe play`")

        // Where the walker's clip time is equal on two ticks (paused), the frames are identical; where it moved,
        // they differ.
        func clipFrame(_ tick: [String: Any]) -> Double? {
            let animators = tick["animators"] as? [[String: Any]] ?? []
            let walker = animators.first { $0["name"] as? String == "walker" }
            return ((walker?["clip"] as? [String: Any])?["frames"] as? NSNumber)?.doubleValue
        }
        var same = 0, moved = 0
        for k in 1..<ticks.count {
            guard let a = clipFrame(ticks[k - 1]), let b = clipFrame(ticks[k]) else { continue }
            let left = try Data(contentsOf: out.appendingPathComponent(files[k - 1]))
            let right = try Data(contentsOf: out.appendingPathComponent(files[k]))
            if abs(a - b) < 1e-9 {
                XCTAssertEqual(left, right, "ticks \(k - 1) and \(k) show clip frame \(a) but differ")
                same += 1
            } else if min(Int(a), 23) != min(Int(b), 23) {  // the walk clip's last frame is 23; its end shows it
                XCTAssertNotEqual(left, right, "ticks \(k - 1) and \(k) show frames \(a) and \(b) but look alike")
                moved += 1
            }
        }
        XCTAssertGreaterThan(same, 0, "the script pauses, so some ticks repeat a frame")
        XCTAssertGreaterThan(moved, 0)
    }
}
