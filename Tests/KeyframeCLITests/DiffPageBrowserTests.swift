#if canImport(Glibc)  // ChromiumSession is Linux-only.
import Foundation
import KeyframePNG
import KeyframeRaster
import KeyframeTestSupport
import XCTest

/// `keyframe diff --html` pages driven in headless Chromium, on real exports edited as an animator would: the values
/// in the source's own terms, the changed channel's curves before and after with a hover readout, where a change
/// inside a nested symbol shows, and the frames scrubbed, zoomed with square pixels, blinked and swiped.
final class DiffPageBrowserTests: XCTestCase {
    /// The walker's arm instance, frame 0 of the main timeline: its `M3D` translation x is 4.
    static let arm = #""M3D":[1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,4.0,-84.0"#
    /// The arm's picture inside `walker_arm` (a nested symbol): its translation x is -6.
    static let armPicture = #""N":"0004","M3D":[1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,-6.0,-4.0"#

    nonisolated(unsafe) static var shared: ChromiumSession?

    override class func tearDown() {
        shared?.close()
        shared = nil
        super.tearDown()
    }

    func browser() throws -> ChromiumSession {
        guard let executable = ChromiumSession.executable() else {
            throw XCTSkip("chromium is not installed (Scripts/ensure-deps.sh installs it); the diff page's browser tests cannot run")
        }
        if let browser = Self.shared {
            try browser.openPage(width: 1200, height: 900)
            return browser
        }
        let browser = try ChromiumSession(executable: executable, width: 1200, height: 900)
        Self.shared = browser
        return browser
    }

    /// The walker with one edit in its Animation.json (the first occurrence of `find`).
    func walker(_ root: URL, _ name: String, _ find: String, _ replace: String) throws -> URL {
        let folder = root.appendingPathComponent(name)
        let original = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker/Animation.json"),
                                  encoding: .utf8)
        XCTAssertTrue(original.contains(find), "the sample no longer contains \(find)")
        try SampleEdit.copy("animate-walker", to: folder, file: "Animation.json", find, replace)
        return folder
    }

    func json(_ arguments: [String]) throws -> [String: Any] {
        let result = try CLIRunner.run(arguments + ["--json"])
        XCTAssertEqual(result.status, 1, result.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// Moves the pointer over the middle of `selector`'s box at `fraction` of its width (scrolled into view first).
    func hover(_ chromium: ChromiumSession, _ selector: String, atFraction fraction: Double) throws {
        let value = try chromium.evaluate("""
            (() => { const e = document.querySelector(`\(selector)`); e.scrollIntoView({ block: "center" });
                     const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()
            """)
        let r = try XCTUnwrap(value as? [Double], "no element \(selector)")
        _ = try chromium.send("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": r[0] + r[2] * fraction,
                                                           "y": r[1] + r[3] / 2])
    }

    /// Where the first curve's plot lies across its SVG: left edge and width, as fractions of the SVG's width.
    func plotArea(_ chromium: ChromiumSession) throws -> (left: Double, width: Double) {
        let value = try XCTUnwrap(chromium.evaluate("""
            (() => { const f = document.querySelector('figure.curve'), v = JSON.parse(f.dataset.values);
                     const w = f.querySelector('svg').viewBox.baseVal.width; return [v.left / w, v.plot / w]; })()
            """) as? [Double])
        return (value[0], value[1])
    }

    /// The screenshot of an element, decoded.
    func shot(_ chromium: ChromiumSession, _ selector: String) throws -> Bitmap {
        let value = try chromium.evaluate("""
            (() => { const e = document.querySelector(`\(selector)`); e.scrollIntoView({ block: "start" });
                     const r = e.getBoundingClientRect();
                     return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height]; })()
            """)
        let r = try XCTUnwrap(value as? [Double], "no element \(selector)")
        return try PNGDecoder().decode(chromium.screenshot(x: r[0], y: r[1], width: r[2], height: r[3]))
    }

    /// A picture of the page's data, decoded: clip `clip`'s picture `index`.
    func picture(_ chromium: ChromiumSession, clip: Int, index: String) throws -> Bitmap {
        let text = try XCTUnwrap(chromium.evaluate("""
            JSON.parse(document.getElementById('diff-frames').textContent)[\(clip)].pictures[\(index)]
            """) as? String)
        return try PNGDecoder().decode([UInt8](try XCTUnwrap(Data(base64Encoded: text))))
    }

    /// The arm moved 30 px right on the walker's first frame (`M3D` tx 4 → 34): the report says so in the matrix's
    /// own terms; the page's curve shows both versions with frame 0 marked and reads them under the pointer; the
    /// frames scrub, zoom to square pixels, blink and swipe.
    func testMovedArmReadsInMatrixTermsAndThePageCompares() throws {
        let root = try TestPaths.temporaryFolder("diff-page-browser")
        defer { try? FileManager.default.removeItem(at: root) }
        let original = TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker")
        let edited = try walker(root, "walker-arm", Self.arm, Self.arm.replacingOccurrences(of: ",4.0,-84.0", with: ",34.0,-84.0"))
        let page = root.appendingPathComponent("diff.html")

        let text = try CLIRunner.run(["diff", original.path, edited.path, "--html", page.path])
        XCTAssertEqual(text.status, 1, text.stderr)
        let again = root.appendingPathComponent("again.html")
        XCTAssertEqual(try CLIRunner.run(["diff", original.path, edited.path, "--html", again.path]).status, 1)
        XCTAssertEqual(try Data(contentsOf: page), try Data(contentsOf: again), "the page is the same bytes on every run")
        XCTAssertTrue(text.stdout.contains("      Animate matrix: tx 4 → 34\n"), text.stdout)
        let report = try json(["diff", original.path, edited.path])
        let motion = try XCTUnwrap(report["motion"] as? [[String: Any]])
        XCTAssertEqual(motion.count, 1, "\(motion)")
        let channel = try XCTUnwrap((motion[0]["channels"] as? [[String: Any]])?.first)
        XCTAssertEqual(channel["channel"] as? String, "position")
        XCTAssertEqual(channel["frame"] as? Int, 0)
        XCTAssertEqual(channel["largest"] as? Double, 30)
        let source = try XCTUnwrap(channel["source"] as? [String: Any])
        XCTAssertEqual(source["terms"] as? String, "Animate matrix")
        XCTAssertEqual(source["names"] as? [String], ["a", "b", "c", "d", "tx", "ty"])
        XCTAssertEqual(source["before"] as? [Double], [1, 0, 0, 1, 4, -84], "the M3D the sample writes")
        XCTAssertEqual(source["after"] as? [Double], [1, 0, 0, 1, 34, -84])
        let normalizedBefore = try XCTUnwrap(channel["before"] as? [Double])
        let normalizedAfter = try XCTUnwrap(channel["after"] as? [Double])

        let chromium = try browser()
        try chromium.navigate(page.absoluteURL.absoluteString)
        try chromium.wait(for: "window.keyframeDiffPage && keyframeDiffPage.ready")
        XCTAssertEqual(try chromium.evaluate("document.querySelector('td.source').textContent") as? String,
                       "Animate matrix: tx 4 → 34")

        // The curve: both versions, the differing frame marked under the plot, the readout at the pointer.
        XCTAssertEqual(try chromium.evaluate("document.querySelectorAll('figure.curve').length") as? Int, 1)
        XCTAssertEqual(try chromium.evaluate("document.querySelector('figure.curve').dataset.channel") as? String, "position")
        XCTAssertEqual(try chromium.evaluate("document.querySelectorAll('figure.curve polyline.before').length") as? Int, 2)
        XCTAssertEqual(try chromium.evaluate("document.querySelectorAll('figure.curve polyline.after').length") as? Int, 2)
        XCTAssertEqual(try chromium.evaluate("JSON.parse(document.querySelector('figure.curve').dataset.values).differing")
                       as? [Int], [0])
        XCTAssertEqual(try chromium.evaluate("document.querySelectorAll('figure.curve rect.differs').length") as? Int, 1)
        // Over the plot's left edge (frame 0) and then further along (a frame where both agree).
        let (plotLeft, plotWidth) = try plotArea(chromium)
        try hover(chromium, "figure.curve svg", atFraction: plotLeft + 0.002)
        let n = { (v: Double) in v == v.rounded() ? String(Int(v)) : String(v) }
        XCTAssertEqual(try chromium.evaluate("document.querySelector('figure.curve text.readout').textContent") as? String,
                       "frame 0: x \(n(normalizedBefore[0])) → \(n(normalizedAfter[0])) px · y \(n(normalizedBefore[1])) → "
                       + "\(n(normalizedAfter[1])) px (differs)")
        let frames = try XCTUnwrap(chromium.evaluate("JSON.parse(document.querySelector('figure.curve').dataset.values).span")
                                   as? Int)
        try hover(chromium, "figure.curve svg", atFraction: plotLeft + plotWidth * 10 / Double(frames))
        XCTAssertEqual(try chromium.evaluate("document.querySelector('figure.curve').dataset.hoverFrame") as? String, "10")
        let tenth = try XCTUnwrap(chromium.evaluate("document.querySelector('figure.curve text.readout').textContent") as? String)
        XCTAssertTrue(tenth.hasPrefix("frame 10: x "), tenth)
        XCTAssertFalse(tenth.contains("differs"), tenth)
        // A click there scrubs the walk clip (which plays the curve's composition from its frame 0) to frame 10.
        try chromium.evaluate("document.querySelector('figure.curve svg').dispatchEvent(new MouseEvent('click'))")
        XCTAssertEqual(try chromium.evaluate("document.querySelectorAll('section.clip')[0].dataset.frame") as? String, "10")
        try chromium.evaluate("keyframeDiffPage.clips[0].show(0)")
        if DocScreenshot.enabled {
            // For docs/cli.md: the curve read at frame 0 above the first clip's frames at 2×.
            try chromium.evaluate("""
                (() => { const z = document.querySelector('section.clip select.zoom'); z.value = '2'; z.dispatchEvent(new Event('change')); })()
                """)
            try hover(chromium, "figure.curve svg", atFraction: plotLeft + 0.002)
            let box = try XCTUnwrap(chromium.evaluate("""
                (() => { const f = document.querySelector('figure.curve');
                         window.scrollTo(0, f.getBoundingClientRect().top + window.scrollY - 10);
                         const a = f.getBoundingClientRect();
                         const b = document.querySelector('section.clip .row.side').getBoundingClientRect();
                         return [a.top + window.scrollY - 8, b.bottom + window.scrollY + 8]; })()
                """) as? [Double])
            try DocScreenshot.save(chromium, "diff-page", x: 16, y: box[0], width: 1000, height: min(880, box[1] - box[0]))
        }

        // The clip "walk": opened on its differing frame 0; scrubbing with → shows frame 1, where both agree.
        let clips = try XCTUnwrap(chromium.evaluate("keyframeDiffPage.clips.length") as? Int)
        XCTAssertGreaterThanOrEqual(clips, 2)
        let walk = "document.querySelectorAll('section.clip')[0]"
        XCTAssertEqual(try chromium.evaluate("\(walk).querySelector('h3').textContent") as? String,
                       "walk: 1 of 24 frame(s) differ")
        XCTAssertEqual(try chromium.evaluate("\(walk).dataset.frame") as? String, "0")
        XCTAssertEqual(try chromium.evaluate("document.querySelector('figure.curve line.playhead').getAttribute('visibility')")
                       as? String, "visible", "the walk clip plays the curve's composition: its frame is on the curve")
        try chromium.evaluate("\(walk).querySelector('input.scrub').focus()")
        try chromium.press(key: "ArrowRight", code: "ArrowRight", keyCode: 39)
        XCTAssertEqual(try chromium.evaluate("\(walk).dataset.frame") as? String, "1")
        XCTAssertEqual(try chromium.evaluate("\(walk).querySelector('.caption').textContent") as? String,
                       "frame 1 (0.042 s): both versions draw alike")
        XCTAssertEqual(try chromium.evaluate("(() => { const i = \(walk).querySelectorAll('img'); return i[0].src === i[1].src; })()")
                       as? Bool, true, "frame 1 is the same picture in both versions")
        try chromium.press(key: "ArrowLeft", code: "ArrowLeft", keyCode: 37)
        XCTAssertEqual(try chromium.evaluate("\(walk).dataset.frame") as? String, "0")

        // Zoom 4×: the after picture on screen is the page's picture with every pixel a 4 × 4 square.
        try chromium.evaluate("""
            (() => { const z = \(walk).querySelector('select.zoom'); z.value = '4'; z.dispatchEvent(new Event('change')); })()
            """)
        let moment = try XCTUnwrap(chromium.evaluate("keyframeDiffPage.clips[0].moments[keyframeDiffPage.clips[0].state.index]")
                                   as? [Any])
        let afterPicture = try picture(chromium, clip: 0, index: "\(moment[3])")
        let beforePicture = try picture(chromium, clip: 0, index: "\(moment[2])")
        try chromium.evaluate("window.scrollTo(0, 0)")
        let zoomed = try shot(chromium, "section.clip img[alt=after]")
        XCTAssertEqual(zoomed.width, afterPicture.width * 4 + 2, "4× plus the 1 px border on each side")
        let inner = zoomed.cropped(to: PixelRect(x: 1, y: 1, width: afterPicture.width * 4, height: afterPicture.height * 4))
        // Square pixels: each 4 × 4 block of the screenshot is one colour.
        var uneven = 0
        for by in 0..<afterPicture.height {
            for bx in 0..<afterPicture.width {
                let p = inner.pixel(x: bx * 4, y: by * 4)
                for dy in 0..<4 { for dx in 0..<4 where inner.pixel(x: bx * 4 + dx, y: by * 4 + dy) != p { uneven += 1 } }
            }
        }
        XCTAssertEqual(uneven, 0, "magnified pixels stay square")

        // Blink: the canvas shows after, then before; swipe at 50 %: before left of the line, after right of it.
        try chromium.evaluate("keyframeDiffPage.clips[0].setMode('blink')")
        try chromium.wait(for: "keyframeDiffPage.clips[0].state.mode === 'blink'")
        func canvas() throws -> Bitmap {
            let url = try XCTUnwrap(chromium.evaluate("\(walk).querySelector('canvas.compare').toDataURL('image/png')") as? String)
            return try PNGDecoder().decode([UInt8](try XCTUnwrap(Data(base64Encoded: String(url.dropFirst("data:image/png;base64,".count))))))
        }
        try chromium.wait(for: "keyframeDiffPage.clips[0].state.painted === 'after'")
        // A click stops the blinking and flips by hand: each side in turn.
        for _ in 0..<2 {
            try chromium.evaluate("\(walk).querySelector('canvas.compare').click()")
            try chromium.wait(for: "keyframeDiffPage.clips[0].state.timer === null && keyframeDiffPage.clips[0].state.painted "
                              + "=== (keyframeDiffPage.clips[0].state.showingAfter ? 'after' : 'before')")
            let showing = try XCTUnwrap(chromium.evaluate("keyframeDiffPage.clips[0].state.painted") as? String)
            XCTAssertTrue(BitmapComparison.compare(try canvas(), showing == "after" ? afterPicture : beforePicture,
                                                   tolerance: 2).matches, "blink shows \(showing)")
        }
        try chromium.evaluate("keyframeDiffPage.clips[0].setMode('swipe')")
        try chromium.wait(for: "keyframeDiffPage.clips[0].state.painted === 'swipe 50'")
        let swiped = try canvas()
        let cut = Int((Double(afterPicture.width) * 0.5).rounded())
        XCTAssertTrue(BitmapComparison.compare(swiped.cropped(to: PixelRect(x: 0, y: 0, width: cut, height: swiped.height)),
                                               beforePicture.cropped(to: PixelRect(x: 0, y: 0, width: cut, height: swiped.height)),
                                               tolerance: 2).matches, "before left of the line")
        let right = afterPicture.width - cut - 1
        XCTAssertTrue(BitmapComparison.compare(swiped.cropped(to: PixelRect(x: cut + 1, y: 0, width: right, height: swiped.height)),
                                               afterPicture.cropped(to: PixelRect(x: cut + 1, y: 0, width: right, height: swiped.height)),
                                               tolerance: 2).matches, "after right of the line")
        XCTAssertFalse(BitmapComparison.compare(beforePicture, afterPicture, tolerance: 0).matches,
                       "the frame differs, so the checks above tell the versions apart")
        let requests = chromium.requestedURLs
        XCTAssertEqual(requests.filter { !$0.hasPrefix("file:") && !$0.hasPrefix("data:") }, [])
    }

    /// The arm's picture moved inside the nested symbol `walker_arm` (`M3D` tx -6 → 4): the change is on the node
    /// of `walker_arm`, and the report names the clips and frames where it shows, through the instance that shows it.
    func testNestedChangeNamesTheClipsAndFramesWhereItShows() throws {
        let root = try TestPaths.temporaryFolder("diff-page-nested")
        defer { try? FileManager.default.removeItem(at: root) }
        let original = TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker")
        let edited = try walker(root, "walker-hand", Self.armPicture,
                                Self.armPicture.replacingOccurrences(of: "-6.0,-4.0", with: "4.0,-4.0"))
        let page = root.appendingPathComponent("nested.html")
        let report = try json(["diff", original.path, edited.path])
        let motion = try XCTUnwrap(report["motion"] as? [[String: Any]])
        XCTAssertEqual(motion.map { $0["composition"] as? String }, ["walker_arm"], "\(motion)")
        let channel = try XCTUnwrap((motion[0]["channels"] as? [[String: Any]])?.first)
        XCTAssertEqual((channel["source"] as? [String: Any])?["before"] as? [Double], [1, 0, 0, 1, -6, -4])
        XCTAssertEqual((channel["source"] as? [String: Any])?["after"] as? [Double], [1, 0, 0, 1, 4, -4])
        // walker_arm's frame 0 shows through the arm instance on every frame of walk (single frame, `SF`), on the
        // first frame of wave (played once from frame 0, `PO`), and so on 24 + 1 frames of the whole timeline.
        let clips = try XCTUnwrap(channel["clips"] as? [[String: Any]])
        XCTAssertEqual(clips.map { $0["clip"] as? String }, ["walk", "wave", "walker"], "\(clips)")
        XCTAssertEqual(clips.map { $0["frame"] as? Int }, [0, 0, 0])
        XCTAssertEqual(clips.map { $0["count"] as? Int }, [24, 1, 25])
        for clip in clips { XCTAssertEqual(clip["through"] as? [String], ["arm #0"], "\(clip)") }

        XCTAssertEqual(try CLIRunner.run(["diff", original.path, edited.path, "--html", page.path]).status, 1)
        let chromium = try browser()
        try chromium.navigate(page.absoluteURL.absoluteString)
        try chromium.wait(for: "window.keyframeDiffPage && keyframeDiffPage.ready")
        let inClips = try XCTUnwrap(chromium.evaluate("document.querySelector('td.clips').textContent") as? String)
        XCTAssertEqual(inClips, "walk frame 0 (0 s) in arm #0, on 24 frame(s); wave frame 0 (0 s) in arm #0, on 1 frame(s); "
                       + "walker frame 0 (0 s) in arm #0, on 25 frame(s)")
    }

    /// A DragonBones bone edit: `body`'s translate key at frame 12 of `idle` from y -3 to -13. The report gives the
    /// bone's parent-local values — the setup pose (y -20, skX = skY = -90) plus the key — before and after.
    func testDragonBonesBoneEditReadsInBoneLocalTerms() throws {
        let root = try TestPaths.temporaryFolder("diff-page-dragonbones")
        defer { try? FileManager.default.removeItem(at: root) }
        let original = TestPaths.packageRoot.appendingPathComponent("Samples/dragonbones-waver")
        let edited = root.appendingPathComponent("waver")
        try SampleEdit.copy("dragonbones-waver", to: edited, file: "waver_ske.json", "\"y\": -3\n", "\"y\": -13\n")
        let page = root.appendingPathComponent("waver.html")
        let report = try json(["diff", original.path, edited.path])
        let motion = try XCTUnwrap(report["motion"] as? [[String: Any]])
        let body = try XCTUnwrap(motion.first { ($0["path"] as? [String])?.last == "body" }, "\(motion)")
        let channel = try XCTUnwrap((body["channels"] as? [[String: Any]])?.first { $0["channel"] as? String == "position" })
        XCTAssertEqual(channel["frame"] as? Int, 12)
        XCTAssertEqual(channel["largest"] as? Double, 10)
        let source = try XCTUnwrap(channel["source"] as? [String: Any])
        XCTAssertEqual(source["terms"] as? String, "DragonBones bone (parent-local)")
        XCTAssertEqual(source["names"] as? [String], ["x", "y", "skX", "skY", "scX", "scY"])
        XCTAssertEqual(source["before"] as? [Double], [0, -23, -90, -90, 1, 1])
        XCTAssertEqual(source["after"] as? [Double], [0, -33, -90, -90, 1, 1])

        XCTAssertEqual(try CLIRunner.run(["diff", original.path, edited.path, "--html", page.path]).status, 1)
        let chromium = try browser()
        try chromium.navigate(page.absoluteURL.absoluteString)
        try chromium.wait(for: "window.keyframeDiffPage && keyframeDiffPage.ready")
        XCTAssertEqual(try chromium.evaluate("document.querySelector('td.source').textContent") as? String,
                       "DragonBones bone (parent-local): y -23 → -33")
        // The curve's readout at frame 12, where the key is.
        let span = try XCTUnwrap(chromium.evaluate("JSON.parse(document.querySelector('figure.curve').dataset.values).span")
                                 as? Int)
        let (plotLeft, plotWidth) = try plotArea(chromium)
        try hover(chromium, "figure.curve svg", atFraction: plotLeft + plotWidth * 12 / Double(span))
        let readout = try XCTUnwrap(chromium.evaluate("document.querySelector('figure.curve text.readout').textContent") as? String)
        XCTAssertTrue(readout.hasPrefix("frame 12: x 0 → 0 px · y -23 → -33 px"), readout)
    }
}
#endif
