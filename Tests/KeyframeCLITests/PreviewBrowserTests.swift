#if canImport(Glibc)  // ChromiumSession is Linux-only.
import Foundation
import KeyframePNG
import KeyframeRaster
import KeyframeTestSupport
import XCTest

/// `keyframe preview` pages opened from disk in a real headless Chromium: the frame on screen is `render`'s frame
/// pixel for pixel, the keyboard, step buttons, scrubber and `#frame=N&clip=NAME` land on the right frames, and the
/// page requests nothing from the network.
final class PreviewBrowserTests: XCTestCase {
    var walker: String { TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker").path }

    /// The class's one browser, started by its first test and closed after the last.
    nonisolated(unsafe) static var shared: ChromiumSession?

    override class func tearDown() {
        shared?.close()
        shared = nil
        super.tearDown()
    }

    /// A fresh page of `width` × `height` in the class's browser, or a skip that says why the test cannot run.
    func browser(width: Int = 1000, height: Int = 900) throws -> ChromiumSession {
        guard let executable = ChromiumSession.executable() else {
            throw XCTSkip("chromium is not installed (Scripts/ensure-deps.sh installs it: apt-get install chromium); "
                          + "the preview's browser tests cannot run")
        }
        if let browser = Self.shared {
            try browser.openPage(width: width, height: height)
            return browser
        }
        let browser = try ChromiumSession(executable: executable, width: width, height: height)
        Self.shared = browser
        return browser
    }

    /// Compares the canvas on screen, once the frame asked for is drawn, with a frame `render` wrote.
    func assertScreenShows(_ chromium: ChromiumSession, _ framePath: String, _ message: String,
                           file: StaticString = #filePath, line: UInt = #line) throws {
        try chromium.wait(for: "keyframePreview.isDrawn()")
        let rect = try chromium.rect(of: "view")
        let shot = try PNGDecoder().decode(chromium.screenshot(x: rect.x, y: rect.y, width: rect.width,
                                                              height: rect.height))
        // Fit enlarges small frames by whole factors: the screen then shows each frame pixel as a k × k square.
        let scale = try XCTUnwrap(Double(chromium.evaluate("document.getElementById('view').dataset.scale") as? String ?? "1"))
        let factor = Int(scale)
        XCTAssertEqual(Double(factor), scale, "\(message): an enlarged frame is enlarged by a whole factor", file: file, line: line)
        let expected = Self.magnified(try PNGDecoder().decode(contentsOf: framePath), by: max(1, factor))
        let comparison = BitmapComparison.compare(shot, expected, tolerance: 1)
        if !comparison.matches {
            var encoder = PNGEncoder(options: .fast)
            comparison.writeArtifacts(named: "preview-" + URL(fileURLWithPath: framePath).lastPathComponent,
                                      actual: shot, directory: BitmapComparison.artifactDirectory,
                                      encoder: { try encoder.encode($0) })
        }
        XCTAssertTrue(comparison.matches, "\(message): \(comparison.summary)", file: file, line: line)
    }

    /// `bitmap` with every pixel repeated as a `factor` × `factor` square (what crisp magnification shows).
    static func magnified(_ bitmap: Bitmap, by factor: Int) -> Bitmap {
        guard factor > 1 else { return bitmap }
        var out = Bitmap(width: bitmap.width * factor, height: bitmap.height * factor)
        for y in 0..<out.height {
            for x in 0..<out.width { out.setPixel(x: x, y: y, bitmap.pixel(x: x / factor, y: y / factor)) }
        }
        return out
    }

    func current(_ chromium: ChromiumSession) throws -> (clip: String, frame: Int) {
        let value = try chromium.evaluate("[keyframePreview.current().clip, keyframePreview.current().frame]") as? [Any]
        return (value?[0] as? String ?? "?", (value?[1] as? NSNumber)?.intValue ?? -1)
    }

    func testPageShowsRenderedFramesAndControlsLandOnTheRightFrame() throws {
        let chromium = try browser(width: 1000, height: 900)
        let root = try TestPaths.temporaryFolder("preview-browser")
        defer { try? FileManager.default.removeItem(at: root) }
        let frames = root.appendingPathComponent("frames")
        let page = root.appendingPathComponent("walker preview.html")  // a space: the file URL must be encoded
        // Opaque frames (a background colour), so the canvas on screen equals the PNG exactly.
        let options = ["--background", "#336699", "--jobs", "2", "--clip", "walk", "--clip", "wave"]
        let render = try CLIRunner.run(["render", walker, "-o", frames.path] + options)
        XCTAssertEqual(render.status, 0, render.stderr)
        let preview = try CLIRunner.run(["preview", walker, "-o", page.path] + options)
        XCTAssertEqual(preview.status, 0, preview.stderr)
        XCTAssertTrue(preview.stdout.contains("2 clip(s), 48 frame(s)"), preview.stdout)

        let url = page.absoluteURL.absoluteString
        try chromium.navigate(url + "#frame=5&clip=walk")
        try chromium.wait(for: "window.keyframePreview && keyframePreview.ready")
        XCTAssertEqual(try current(chromium).frame, 5)
        XCTAssertEqual(try current(chromium).clip, "walk")
        try assertScreenShows(chromium, frames.appendingPathComponent("walk-0005.png").path, "#frame=5")

        // Keyboard: → steps forward, End and Home jump.
        try chromium.press(key: "ArrowRight", code: "ArrowRight", keyCode: 39)
        XCTAssertEqual(try current(chromium).frame, 6)
        try assertScreenShows(chromium, frames.appendingPathComponent("walk-0006.png").path, "after →")
        try chromium.press(key: "End", code: "End", keyCode: 35)
        XCTAssertEqual(try current(chromium).frame, 23)
        try assertScreenShows(chromium, frames.appendingPathComponent("walk-0023.png").path, "after End")
        try chromium.press(key: "Home", code: "Home", keyCode: 36)
        XCTAssertEqual(try current(chromium).frame, 0)

        // The step buttons, clicked with the mouse.
        let forward = try chromium.rect(of: "forward")
        for _ in 0..<3 { try chromium.click(x: forward.x + forward.width / 2, y: forward.y + forward.height / 2) }
        let back = try chromium.rect(of: "back")
        try chromium.click(x: back.x + back.width / 2, y: back.y + back.height / 2)
        XCTAssertEqual(try current(chromium).frame, 2)
        try assertScreenShows(chromium, frames.appendingPathComponent("walk-0002.png").path, "after 3× next, 1× back")
        XCTAssertTrue(try chromium.evaluate("location.hash") as? String == "#frame=2&clip=walk")

        // The scrubber, clicked three quarters of the way along: a frame near 17 of 0…23, and the one shown.
        let scrubber = try chromium.rect(of: "scrubber")
        try chromium.click(x: scrubber.x + scrubber.width * 0.75, y: scrubber.y + scrubber.height / 2)
        let scrubbed = try current(chromium).frame
        XCTAssertTrue((15...19).contains(scrubbed), "scrubber at 75% shows frame \(scrubbed)")
        let label = String(format: "walk-%04d.png", scrubbed)
        try assertScreenShows(chromium, frames.appendingPathComponent(label).path, "after the scrubber")
        let readout = try chromium.evaluate("document.getElementById('readout').textContent") as? String ?? ""
        XCTAssertTrue(readout.hasPrefix("frame \(scrubbed) ("), readout)

        // Space plays; space again pauses on a later frame.
        try chromium.evaluate("keyframePreview.shown.length = 0")
        try chromium.press(key: " ", code: "Space", keyCode: 32)
        try chromium.wait(for: "keyframePreview.shown.length >= 3")
        try chromium.press(key: " ", code: "Space", keyCode: 32)
        XCTAssertEqual(try chromium.evaluate("keyframePreview.current().playing") as? Bool, false)

        // Onion skin at frame 5: frames 4 and 6 at 30 % over frame 5 (all opaque, so the blend is plain arithmetic).
        try chromium.evaluate("keyframePreview.show(5)")
        let onion = try chromium.rect(of: "onion")
        try chromium.click(x: onion.x + onion.width / 2, y: onion.y + onion.height / 2)
        let pictures = try (4...6).map {
            try PNGDecoder().decode(contentsOf: frames.appendingPathComponent(String(format: "walk-%04d.png", $0)).path)
        }
        var blended = pictures[1]
        for neighbour in [pictures[0], pictures[2]] {
            for i in blended.pixels.indices where i % 4 != 3 {
                blended.pixels[i] = UInt8((Double(blended.pixels[i]) * 0.7 + Double(neighbour.pixels[i]) * 0.3).rounded())
            }
        }
        try chromium.wait(for: "keyframePreview.isDrawn()")
        let rect = try chromium.rect(of: "view")
        let shot = try PNGDecoder().decode(chromium.screenshot(x: rect.x, y: rect.y, width: rect.width, height: rect.height))
        // The frame is enlarged by a whole factor (fit): each frame pixel a square on screen.
        let factor = max(1, Int(try XCTUnwrap(Double(chromium.evaluate("document.getElementById('view').dataset.scale") as? String ?? "1"))))
        let onionComparison = BitmapComparison.compare(shot, Self.magnified(blended, by: factor), tolerance: 3)
        XCTAssertTrue(onionComparison.matches, "onion skin: \(onionComparison.summary)")
        XCTAssertFalse(BitmapComparison.compare(shot, Self.magnified(pictures[1], by: factor), tolerance: 3).matches,
                       "onion skin changes nothing")
        try chromium.click(x: onion.x + onion.width / 2, y: onion.y + onion.height / 2)
        try assertScreenShows(chromium, frames.appendingPathComponent("walk-0005.png").path, "onion skin off")

        // Reverse without loop: plays back from frame 3 and stops on frame 0.
        try chromium.evaluate("keyframePreview.show(3); keyframePreview.shown.length = 0")
        for id in ["reverse", "loop"] {
            let box = try chromium.rect(of: id)
            try chromium.click(x: box.x + box.width / 2, y: box.y + box.height / 2)
        }
        let play = try chromium.rect(of: "play")
        try chromium.click(x: play.x + play.width / 2, y: play.y + play.height / 2)
        try chromium.wait(for: "!keyframePreview.current().playing")
        XCTAssertEqual(try current(chromium).frame, 0)
        XCTAssertEqual(try chromium.evaluate("keyframePreview.shown.map(s => s[1]).join()") as? String,
                       "3,2,1,0")
        try assertScreenShows(chromium, frames.appendingPathComponent("walk-0000.png").path, "reverse, no loop")

        // Another clip through the fragment.
        try chromium.evaluate("location.hash = '#frame=3&clip=wave'")
        try chromium.wait(for: "keyframePreview.current().clip === 'wave' && keyframePreview.current().frame === 3")
        try assertScreenShows(chromium, frames.appendingPathComponent("wave-0003.png").path, "#frame=3&clip=wave")

        // Curves are drawn for the selected node (SVG polylines with keyframe markers).
        let polylines = try chromium.evaluate("document.querySelectorAll('#curves polyline').length") as? Int ?? 0
        XCTAssertGreaterThan(polylines, 0)

        // A node inside a nested symbol: a timeline row under its instance, graphed as the instance plays it in
        // the clip, with a graph of the nested frame shown.
        let nested = try chromium.evaluate("""
            (() => {
              const data = keyframePreview.data.clips[keyframePreview.state.clip];
              const i = data.nodes.findIndex(n => n.nested && n.animated);
              if (i < 0) return 'no nested animated node';
              const row = document.getElementById('tl-row-' + i);
              row.querySelector('.tl-label').click();
              let header = row.previousElementSibling;
              while (header && !header.classList.contains('tl-group')) header = header.previousElementSibling;
              const titles = [...document.querySelectorAll('#curves svg')].map(g => g.querySelector('text').textContent);
              return [header.textContent, document.getElementById('curvesOf').textContent,
                      document.querySelectorAll('#curves polyline').length].concat(titles).join('|');
            })()
            """) as? String ?? ""
        let parts = nested.components(separatedBy: "|")
        XCTAssertGreaterThan(parts.count, 4, nested)
        XCTAssertTrue(parts[0].contains(" › walker_"), "grouped under its instance and composition: \(nested)")
        XCTAssertTrue(parts[1].contains("as it plays in this clip"), nested)
        XCTAssertGreaterThan(Int(parts.count > 2 ? parts[2] : "") ?? 0, 0, nested)
        XCTAssertTrue(parts.last?.hasPrefix("frame of ") ?? false, nested)

        // Only the page itself was loaded: no request left the file.
        let requests = chromium.requestedURLs
        XCTAssertFalse(requests.isEmpty, "the request monitor saw nothing at all")
        XCTAssertEqual(requests.filter { !$0.hasPrefix("file:") && !$0.hasPrefix("data:") }, [],
                       "the preview made network requests")
        XCTAssertEqual(try chromium.evaluate("""
            performance.getEntriesByType('resource').filter(e => !e.name.startsWith('data:')).length
            """) as? Int, 0)

        // The monitor does see network requests: a page without the policy that loads an image over HTTP.
        let probe = root.appendingPathComponent("probe.html")
        try Data("<img src=\"http://127.0.0.1:9/probe.png\">".utf8).write(to: probe)
        try chromium.navigate(probe.absoluteURL.absoluteString)
        XCTAssertTrue(chromium.requestedURLs.contains("http://127.0.0.1:9/probe.png"), "\(chromium.requestedURLs)")
    }

    /// Names that would end or comment out a script element (`</script>`, `<!--<script>`) and line separators in the
    /// clip names and the title: the player still loads, lists the clips by their exact names and shows `render`'s
    /// frames (before: `<!--<script>` in a name switched the parser into its escaped state, the page's own scripts
    /// were swallowed and no clip loaded).
    func testHostileNamesDoNotBreakThePlayer() throws {
        let chromium = try browser(width: 1000, height: 900)
        let root = try TestPaths.temporaryFolder("preview-browser-hostile")
        defer { try? FileManager.default.removeItem(at: root) }
        let document = root.appendingPathComponent("walker.json")
        XCTAssertEqual(try CLIRunner.run(["convert", walker, "-o", document.path]).status, 0)
        try FileManager.default.copyItem(atPath: walker + "/spritemap1.png",
                                         toPath: root.appendingPathComponent("spritemap1.png").path)
        let names = ["<!--<script>", "a</script><script>b\u{2028}", "c\u{2029}<!--"]
        let title = "</title><!--<script>alert(1)"
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: document)) as? [String: Any])
        var clips = try XCTUnwrap(object["clips"] as? [[String: Any]])
        for index in clips.indices { clips[index]["name"] = names[index] }
        object["clips"] = clips
        object["name"] = title
        try JSONSerialization.data(withJSONObject: object).write(to: document)

        let options = ["--background", "#336699", "--frames", "0..3"]
        let frames = root.appendingPathComponent("frames")
        XCTAssertEqual(try CLIRunner.run(["render", document.path, "-o", frames.path] + options).status, 0)
        let page = root.appendingPathComponent("page.html")
        let preview = try CLIRunner.run(["preview", document.path, "-o", page.path] + options)
        XCTAssertEqual(preview.status, 0, preview.stderr)

        try chromium.navigate(page.absoluteURL.absoluteString)
        try chromium.wait(for: "window.keyframePreview && keyframePreview.ready", timeout: 10)
        XCTAssertEqual(try chromium.evaluate("[...document.getElementById('clip').options].map(o => o.textContent)")
                        as? [String], names)
        XCTAssertEqual(try chromium.evaluate("document.title") as? String, title + " — Keyframe preview")
        XCTAssertEqual(try current(chromium).clip, names[0])
        try chromium.evaluate("keyframePreview.show(2)")
        try assertScreenShows(chromium, frames.appendingPathComponent("__--_script_-0002.png").path,
                              "a hostile clip's frame 2")
        // The page's own scripts (data block, player) and one picture block plus its arrival call per picture: no
        // script element more (a name that opened one) and none swallowed.
        let pictures = try XCTUnwrap(chromium.evaluate("document.querySelectorAll('script.kf-picture').length") as? Int)
        XCTAssertGreaterThan(pictures, 0)
        XCTAssertEqual(try chromium.evaluate("document.querySelectorAll('script').length") as? Int, 2 + 2 * pictures)
    }

    /// The timeline: a click on a node's row lands on the frame under the pointer, a drag along the ruler follows
    /// it, and the keyboard alone moves between nodes (↑/↓), frames (←/→) and the selected node's keyframes
    /// (Shift+←/→) — each time showing render's frame, with the curves' readouts at the playhead.
    func testTimelineSeeksByClickDragAndKeyboard() throws {
        let chromium = try browser(width: 1200, height: 1000)
        let root = try TestPaths.temporaryFolder("preview-browser-timeline")
        defer { try? FileManager.default.removeItem(at: root) }
        let spinner = TestPaths.packageRoot.appendingPathComponent("Samples/bta-spinner").path
        let frames = root.appendingPathComponent("frames")
        let page = root.appendingPathComponent("spinner.html")
        let options = ["--background", "#ffffff", "--quiet"]
        XCTAssertEqual(try CLIRunner.run(["render", spinner, "-o", frames.path] + options).status, 0)
        XCTAssertEqual(try CLIRunner.run(["preview", spinner, "-o", page.path] + options).status, 0)
        func frame(_ k: Int) -> String { frames.appendingPathComponent(String(format: "spinner-%04d.png", k)).path }
        try chromium.navigate(page.absoluteURL.absoluteString)
        try chromium.wait(for: "window.keyframePreview && keyframePreview.ready")
        // The frame at 1× (fit would enlarge it 3×), so every timeline row stays inside the window for the clicks.
        try chromium.evaluate("(() => { const z = document.getElementById('zoom'); z.value = '1'; z.dispatchEvent(new Event('change')); })()")

        // Where frame k's time falls (the middle of its 1/24 s) on a track: the row of node NAME, or the ruler.
        func point(_ track: String, frame k: Int) throws -> (x: Double, y: Double) {
            let value = try chromium.evaluate("""
                (() => {
                  const rows = [...document.querySelectorAll('.tl-row')];
                  const row = '\(track)' === 'ruler' ? document.querySelector('.tl-ruler')
                    : rows.find(r => r.querySelector('.tl-label').firstChild.textContent === '\(track)');
                  const r = row.querySelector('svg.tl-track').getBoundingClientRect();
                  const c = keyframePreview.data.clips[0];
                  const t = c.seconds[\(k)] + 0.5 / c.fps;
                  return [r.left + window.scrollX + t / keyframePreview.timeline.duration() * r.width,
                          r.top + window.scrollY + r.height / 2];
                })()
                """)
            let numbers = try XCTUnwrap(value as? [Double], "no track \(track)")
            return (numbers[0], numbers[1])
        }
        let rowOfWheel = try point("wheel #0", frame: 9)
        try chromium.click(x: rowOfWheel.x, y: rowOfWheel.y)
        XCTAssertEqual(try current(chromium).frame, 9)
        try assertScreenShows(chromium, frame(9), "timeline click at frame 9")
        XCTAssertEqual(try chromium.evaluate("document.getElementById('curvesOf').textContent") as? String, "wheel #0",
                       "the clicked row's node is selected")
        XCTAssertEqual(try chromium.evaluate("location.hash") as? String, "#frame=9&clip=spinner")
        try chromium.drag(from: try point("ruler", frame: 2), to: try point("ruler", frame: 14))
        XCTAssertEqual(try current(chromium).frame, 14)
        try assertScreenShows(chromium, frame(14), "dragged along the ruler to frame 14")

        // Keyboard only, from the selected row: Home, then the wheel's next keyframe (its tween ends at frame 16).
        func rotationReadout() throws -> Double {
            let text = try XCTUnwrap(chromium.evaluate("""
                [...document.querySelectorAll('#curves svg')].find(g => g.querySelector('text').textContent === 'rotation')
                  .querySelector('text.readout').textContent
                """) as? String)
            return try XCTUnwrap(Double(text.prefix { $0 != "°" }), text)
        }
        try chromium.evaluate("document.querySelector('.tl-row[aria-selected=true]').focus()")
        try chromium.press(key: "Home", code: "Home", keyCode: 36)
        XCTAssertEqual(try current(chromium).frame, 0)
        let start = try rotationReadout()
        try chromium.press(key: "ArrowRight", code: "ArrowRight", keyCode: 39, shift: true)
        XCTAssertEqual(try current(chromium).frame, 16, "Shift+→: the wheel's next keyframe")
        try assertScreenShows(chromium, frame(16), "the wheel's second keyframe")
        XCTAssertEqual(abs(try rotationReadout() - start), 450, accuracy: 1e-3, "the wheel turns 450° (Samples/README.md)")
        try chromium.press(key: "ArrowRight", code: "ArrowRight", keyCode: 39)
        XCTAssertEqual(try current(chromium).frame, 17, "→ steps one frame with the timeline focused")
        try chromium.press(key: "ArrowLeft", code: "ArrowLeft", keyCode: 37, shift: true)
        XCTAssertEqual(try current(chromium).frame, 16)
        try chromium.press(key: "ArrowLeft", code: "ArrowLeft", keyCode: 37, shift: true)
        XCTAssertEqual(try current(chromium).frame, 0)
        try assertScreenShows(chromium, frame(0), "back to the first keyframe")
        // ↑/↓ move the selection and the focus between rows; the curves follow.
        let selected = "[document.activeElement.id, document.querySelector('.tl-row[aria-selected=true]').id, "
            + "document.getElementById('curvesOf').textContent]"
        let before = try XCTUnwrap(chromium.evaluate(selected) as? [String])
        try chromium.press(key: "ArrowUp", code: "ArrowUp", keyCode: 38)
        let above = try XCTUnwrap(chromium.evaluate(selected) as? [String])
        XCTAssertEqual(above[0], above[1], "focus follows the selection")
        XCTAssertNotEqual(above[1], before[1])
        XCTAssertEqual(above[2], "wheel", "the wheel's layer is the row above its instance")
        try chromium.press(key: "ArrowDown", code: "ArrowDown", keyCode: 40)
        XCTAssertEqual(try XCTUnwrap(chromium.evaluate(selected) as? [String]), before)
    }

    /// Fit fills the window both ways: the walker (54 × 138) is enlarged by the largest whole factor that fits, its
    /// pixels square (the screen is render's frame with each pixel repeated). The spinner's curves read out under the
    /// pointer — value, frame and the tween's easing, named as the source defines it (Samples/README.md: a custom ease
    /// of two cubic segments) — carry a tick per frame, and switch to velocity.
    func testFitEnlargesAndCurvesReadUnderThePointer() throws {
        let chromium = try browser(width: 1000, height: 900)
        let root = try TestPaths.temporaryFolder("preview-browser-fit")
        defer { try? FileManager.default.removeItem(at: root) }
        let frames = root.appendingPathComponent("frames")
        let page = root.appendingPathComponent("walker.html")
        let options = ["--background", "#336699", "--clip", "walk", "--quiet"]
        XCTAssertEqual(try CLIRunner.run(["render", walker, "-o", frames.path] + options).status, 0)
        XCTAssertEqual(try CLIRunner.run(["preview", walker, "-o", page.path] + options).status, 0)
        try chromium.navigate(page.absoluteURL.absoluteString + "#frame=3")
        try chromium.wait(for: "window.keyframePreview && keyframePreview.ready")
        let fit = try XCTUnwrap(chromium.evaluate("""
            [Number(document.getElementById('view').dataset.scale), document.documentElement.clientWidth - 40,
             window.innerHeight * 0.62, keyframePreview.data.clips[0].width, keyframePreview.data.clips[0].height]
            """) as? [Double])
        let (scale, roomX, roomY, width, height) = (fit[0], fit[1], fit[2], fit[3], fit[4])
        XCTAssertEqual(scale, (min(roomX / width, roomY / height)).rounded(.down), "the largest whole factor that fits")
        XCTAssertGreaterThanOrEqual(scale, 3, "a 54 × 138 character in a 1000 × 900 window is not a thumbnail")
        try assertScreenShows(chromium, frames.appendingPathComponent("walk-0003.png").path, "walk frame 3 enlarged")
        if DocScreenshot.enabled {
            let stage = try chromium.rect(of: "stage")
            try DocScreenshot.save(chromium, "preview-fit", x: 0, y: 0, width: 1000, height: stage.y + stage.height + 90)
        }

        // The spinner's wheel: hover over its rotation graph at frame 8, inside the eased tween.
        let spinner = TestPaths.packageRoot.appendingPathComponent("Samples/bta-spinner").path
        let spinnerPage = root.appendingPathComponent("spinner.html")
        XCTAssertEqual(try CLIRunner.run(["preview", spinner, "-o", spinnerPage.path, "--quiet"]).status, 0)
        try chromium.navigate(spinnerPage.absoluteURL.absoluteString)
        try chromium.wait(for: "window.keyframePreview && keyframePreview.ready")
        let wheel = try XCTUnwrap(chromium.evaluate("""
            keyframePreview.data.clips[0].nodes.findIndex(n => n.curves.some(c => c.name === 'rotation' && c.keys.length > 1))
            """) as? Int)
        XCTAssertGreaterThanOrEqual(wheel, 0)
        try chromium.evaluate("keyframePreview.selectNode(\(wheel), false)")
        let fps = try XCTUnwrap(chromium.evaluate("keyframePreview.data.clips[0].fps") as? Double)
        let curve = "keyframePreview.data.clips[0].nodes[\(wheel)].curves.find(c => c.name === 'rotation')"
        func graph(_ title: String) -> String {
            "[...document.querySelectorAll('#curves svg')].find(g => g.querySelector('text').textContent === '\(title)')"
        }
        /// Moves the pointer over graph `title` at frame 8 and returns its readout.
        func readout(_ title: String) throws -> String {
            let value = try chromium.evaluate("""
                (() => { const g = \(graph(title)); g.scrollIntoView({ block: 'center' }); const r = g.getBoundingClientRect();
                         const d = keyframePreview.timeline.duration();
                         return [r.left + (56 + 8.5 / \(fps) / d * (640 - 66)) * r.width / 640, r.top + r.height / 2]; })()
                """)
            let point = try XCTUnwrap(value as? [Double], "no graph \(title)")
            _ = try chromium.send("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": point[0], "y": point[1]])
            return try XCTUnwrap(chromium.evaluate("\(graph(title)).querySelector('text.readout').textContent") as? String)
        }
        XCTAssertEqual(try chromium.evaluate("\(graph("rotation")).querySelectorAll('line.frame-tick').length") as? Int,
                       try chromium.evaluate("keyframePreview.data.clips[0].numbers.length") as? Int, "a tick per frame")
        let text = try readout("rotation")
        XCTAssertTrue(text.contains("° at frame 8, 0.35"), text)
        XCTAssertTrue(text.hasSuffix(" · custom ease (2 Bézier segments)"), text)
        XCTAssertEqual(try chromium.evaluate("""
            [...document.querySelectorAll('.tl-row[data-node="\(wheel)"] svg rect title')].map(t => t.textContent)
            """) as? [String], ["custom ease (2 Bézier segments)"], "the timeline's eased bar names its easing")
        if DocScreenshot.enabled {
            // For docs/cli.md: the rotation graph read under the pointer.
            let box = try XCTUnwrap(chromium.evaluate("""
                (() => { const r = \(graph("rotation")).getBoundingClientRect();
                         return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height]; })()
                """) as? [Double])
            try DocScreenshot.save(chromium, "preview-curve", x: box[0], y: box[1], width: box[2], height: box[3])
        }
        // The value read out is the curve's own samples (4 per frame) interpolated at the time under the pointer.
        let expectedValue = try XCTUnwrap(chromium.evaluate("""
            (() => { const c = \(curve), t = Number(\(graph("rotation")).dataset.hoverTime);
                     let k = 0; while (c.times[k + 1] <= t) k++;
                     return c.values[k] + (c.values[k + 1] - c.values[k]) * (t - c.times[k]) / (c.times[k + 1] - c.times[k]); })()
            """) as? Double)
        XCTAssertEqual(try XCTUnwrap(Double(text.prefix { $0 != "°" }), text), expectedValue, accuracy: 1e-3)

        // Velocity: the same place reads the change per second, from central differences of the samples.
        try chromium.evaluate("document.getElementById('velocity').click()")
        let speed = try readout("rotation velocity")
        let expectedSpeed = try XCTUnwrap(chromium.evaluate("""
            (() => { const c = \(curve), t = Number(\(graph("rotation velocity")).dataset.hoverTime);
                     const v = (i) => (c.values[i + 1] - c.values[i - 1]) / (c.times[i + 1] - c.times[i - 1]);
                     let k = 0; while (c.times[k + 1] <= t) k++;
                     return v(k) + (v(k + 1) - v(k)) * (t - c.times[k]) / (c.times[k + 1] - c.times[k]); })()
            """) as? Double)
        XCTAssertEqual(try XCTUnwrap(Double(speed.prefix { $0 != "°" }), speed), expectedSpeed, accuracy: 1e-2)
        XCTAssertTrue(speed.contains("°/s at frame 8"), speed)
    }

    /// A corpus character of 80 frames (DragonBones' dragon standing, at 220 × 268): on a virtual clock that runs only
    /// while nothing is being fetched, its first frame is on screen — render's frame 0, pixel for pixel — within the
    /// page's first second, drawn while most pictures are still undecoded, with the loading state gone. (The dragon
    /// breathes with its whole body, so its pictures are barely smaller than its distinct frames; they must not be
    /// larger.)
    func testCorpusExportShowsItsFirstFrameWithinOneSecond() throws {
        let dragon = try XCTUnwrap(try TestPaths.corpus("dragonbones").first { $0.lastPathComponent == "db2.3-dragon-flash" })
        let chromium = try browser(width: 1000, height: 900)
        let root = try TestPaths.temporaryFolder("preview-browser-corpus")
        defer { try? FileManager.default.removeItem(at: root) }
        let frames = root.appendingPathComponent("frames")
        let page = root.appendingPathComponent("dragon.html")
        let options = ["--clip", "dragonBoy/stand", "--background", "#2a2a2a", "--size", "220x268", "--quiet"]
        XCTAssertEqual(try CLIRunner.run(["render", dragon.path, "-o", frames.path] + options).status, 0)
        let preview = try CLIRunner.run(["preview", dragon.path, "-o", page.path] + options)
        XCTAssertEqual(preview.status, 0, preview.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: frames.path).filter { $0.hasSuffix(".png") }
        XCTAssertEqual(files.count, 80)
        // The page's pictures against its distinct frames whole (what it embedded before keys and patches).
        var distinct: [Data: Int] = [:]
        for name in files { let bytes = try Data(contentsOf: frames.appendingPathComponent(name)); distinct[bytes] = bytes.count }
        let whole = distinct.values.reduce(0, +)
        let html = try String(contentsOf: page, encoding: .utf8)
        let blocks = html.components(separatedBy: "<script type=\"text/plain\" class=\"kf-picture\">").dropFirst()
        let stored = blocks.map { Data(base64Encoded: String($0.prefix { $0 != "<" }))?.count ?? 0 }.reduce(0, +)
        XCTAssertGreaterThan(stored, 0)
        XCTAssertLessThanOrEqual(stored, whole, "pictures \(stored) bytes, the distinct frames alone \(whole)")

        try chromium.navigate(page.absoluteURL.absoluteString, virtualTimeBudget: 1000)
        let state = try XCTUnwrap(chromium.evaluate("""
            [keyframePreview.ready, keyframePreview.firstFrameAt, keyframePreview.decodedAtFirstFrame,
             keyframePreview.data.pictures, document.getElementById('loading').hidden, keyframePreview.current().frame]
            """) as? [Any])
        XCTAssertEqual(state[0] as? Bool, true, "no frame on screen after the first second: \(state)")
        XCTAssertLessThanOrEqual((state[1] as? NSNumber)?.doubleValue ?? .infinity, 1000)
        let pictures = (state[3] as? NSNumber)?.intValue ?? 0
        XCTAssertGreaterThan(pictures, 10)
        XCTAssertLessThan((state[2] as? NSNumber)?.intValue ?? .max, pictures / 2,
                          "the first frame waited for the other frames' pictures")
        XCTAssertEqual(state[4] as? Bool, true, "the loading state is still shown")
        XCTAssertEqual((state[5] as? NSNumber)?.intValue, 0)
        // The canvas holds render's frame 0 exactly (its own pixels, whatever the zoom), and it is what is on screen.
        let canvas = try XCTUnwrap(chromium.evaluate("document.getElementById('view').toDataURL('image/png')") as? String)
        let drawn = try PNGDecoder().decode([UInt8](try XCTUnwrap(Data(base64Encoded: String(canvas.dropFirst("data:image/png;base64,".count))))))
        let expected = try PNGDecoder().decode(contentsOf: frames.appendingPathComponent("dragonBoy_stand-0000.png").path)
        let comparison = BitmapComparison.compare(drawn, expected, tolerance: 0)
        XCTAssertTrue(comparison.matches, "canvas: \(comparison.summary)")
        try assertScreenShows(chromium, frames.appendingPathComponent("dragonBoy_stand-0000.png").path, "first frame")
    }

    /// With --frames-folder the page loads its frames from files beside it, still without any network request.
    func testFramesFolderPageLoadsItsFrames() throws {
        let chromium = try browser(width: 900, height: 800)
        let root = try TestPaths.temporaryFolder("preview-browser-folder")
        defer { try? FileManager.default.removeItem(at: root) }
        let page = root.appendingPathComponent("site/spinner.html")
        let frames = root.appendingPathComponent("site/frames")
        let result = try CLIRunner.run(["preview", TestPaths.packageRoot.appendingPathComponent("Samples/bta-spinner").path,
                                        "-o", page.path, "--frames-folder", frames.path, "--background", "#ffffff"])
        XCTAssertEqual(result.status, 0, result.stderr)
        try chromium.navigate(page.absoluteURL.absoluteString + "#frame=9")
        try chromium.wait(for: "window.keyframePreview && keyframePreview.decoded === keyframePreview.data.pictures")
        XCTAssertEqual(try chromium.evaluate(
            "keyframePreview.pictures.every(p => p.img.complete && p.img.naturalWidth === 160)") as? Bool, true,
            "every frame file loaded (the spinner's stage is 160×160)")
        try assertScreenShows(chromium, frames.appendingPathComponent("spinner-0009.png").path, "frames folder #frame=9")
        XCTAssertEqual(chromium.requestedURLs.filter { !$0.hasPrefix("file:") && !$0.hasPrefix("data:") }, [])
        XCTAssertTrue(chromium.requestedURLs.contains { $0.hasSuffix("/frames/spinner-0009.png") },
                      "\(chromium.requestedURLs)")
    }

    /// Benchmark (runs only with KEYFRAME_BENCH set): plays a 60 fps preview in headless Chromium for a few seconds
    /// and prints how many frames were shown, how many were skipped, and the spread of the times between them
    /// (requestAnimationFrame timestamps). Figures go into docs/performance.md.
    func testPlaybackFrameTimingBenchmark() throws {
        guard ProcessInfo.processInfo.environment["KEYFRAME_BENCH"] != nil else {
            throw XCTSkip("benchmark: set KEYFRAME_BENCH=1 to measure preview playback in Chromium")
        }
        let chromium = try browser(width: 1000, height: 900)
        let root = try TestPaths.temporaryFolder("preview-browser-bench")
        defer { try? FileManager.default.removeItem(at: root) }
        let page = root.appendingPathComponent("walker60.html")
        let size = ProcessInfo.processInfo.environment["KEYFRAME_BENCH_SIZE"] ?? "512x512"
        let result = try CLIRunner.run(["preview", walker, "-o", page.path, "--clip", "walk", "--fps", "60",
                                        "--size", size])
        XCTAssertEqual(result.status, 0, result.stderr)
        try chromium.navigate(page.absoluteURL.absoluteString)
        try chromium.wait(for: "window.keyframePreview && keyframePreview.decoded === keyframePreview.data.pictures")
        let seconds = 5.0
        try chromium.evaluate("""
            (async () => {
              const callbacks = []; let stop = false;
              const count = (t) => { callbacks.push(t); if (!stop) requestAnimationFrame(count); };
              requestAnimationFrame(count);
              keyframePreview.shown.length = 0; keyframePreview.play();
              await new Promise(r => setTimeout(r, \(Int(seconds * 1000))));
              keyframePreview.pause(); stop = true; window.rafCallbacks = callbacks; return callbacks.length;
            })()
            """)
        let shown = try XCTUnwrap(chromium.evaluate("keyframePreview.shown") as? [[Double]])
        let callbacks = try XCTUnwrap(chromium.evaluate("window.rafCallbacks") as? [Double])
        let frames = Double(try XCTUnwrap(chromium.evaluate("keyframePreview.data.clips[0].numbers.length") as? Int))
        XCTAssertGreaterThan(shown.count, 10)
        var skipped = 0, skippedOnTime = 0
        var gaps: [Double] = []
        for (previous, next) in zip(shown, shown.dropFirst()) {
            let step = Int((next[1] - previous[1] + frames).truncatingRemainder(dividingBy: frames))
            skipped += max(0, step - 1)
            // A skip although the display called back within 1.5 frame times is the page's fault, not the display's.
            if next[0] - previous[0] < 25 { skippedOnTime += max(0, step - 1) }
            gaps.append(next[0] - previous[0])
        }
        let elapsed = (shown.last![0] - shown.first![0]) / 1000
        gaps.sort()
        func percentile(_ p: Double) -> Double { gaps[min(gaps.count - 1, Int(Double(gaps.count) * p))] }
        let rafRate = Double(callbacks.count - 1) / ((callbacks.last! - callbacks.first!) / 1000)
        let figures: [CVarArg] = [size, elapsed, rafRate, shown.count - 1, elapsed * 60, skipped,
                                  100 * Double(skipped) / max(1, elapsed * 60), skippedOnTime, percentile(0.5),
                                  percentile(0.95), gaps.last ?? 0]
        print(String(format: "preview playback, walker walk at 60 fps (%@), %.2f s in headless Chromium: "
            + "display callbacks %.1f/s; frames shown %d of %.0f due, skipped %d (%.2f %%), of which %d with the "
            + "display on time; time between shown frames median %.2f ms, p95 %.2f ms, max %.2f ms",
            arguments: figures))
    }
}
#endif
