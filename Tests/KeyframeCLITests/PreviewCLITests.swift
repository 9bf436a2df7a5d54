import Foundation
import KeyframePNG
import KeyframeRaster
import KeyframeTestSupport
import XCTest

/// `keyframe preview` pages read as files: self-contained, identical frames stored once, curves and script graphs
/// that agree with what the samples were authored to do.
final class PreviewCLITests: XCTestCase {
    func sample(_ name: String) -> String { TestPaths.packageRoot.appendingPathComponent("Samples/\(name)").path }

    /// The page's JSON data block, with its embedded pictures (the `kf-picture` blocks, in order) under
    /// `embedded` as PNG bytes.
    func pageData(_ url: URL) throws -> [String: Any] {
        let html = try String(contentsOf: url, encoding: .utf8)
        let start = try XCTUnwrap(html.range(of: "<script type=\"application/json\" id=\"kf-data\">"))
        let end = try XCTUnwrap(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        XCTAssertFalse(html[start.upperBound..<end.lowerBound].contains("<"), "no < inside the data block")
        var data = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8))
                                 as? [String: Any])
        var pictures: [Data] = []
        let open = "<script type=\"text/plain\" class=\"kf-picture\">"
        var cursor = end.upperBound
        while let block = html.range(of: open, range: cursor..<html.endIndex) {
            let close = try XCTUnwrap(html.range(of: "</script>", range: block.upperBound..<html.endIndex))
            pictures.append(try XCTUnwrap(Data(base64Encoded: String(html[block.upperBound..<close.lowerBound]))))
            cursor = close.upperBound
        }
        data["embedded"] = pictures
        return data
    }

    /// Every frame rebuilt from the page's pictures is render's frame, pixel for pixel; identical pictures are stored
    /// once, and there are fewer pictures than frames (hopbot holds poses).
    func testSelfContainedPageRebuildsEveryRenderedFrame() throws {
        let root = try TestPaths.temporaryFolder("preview-cli")
        defer { try? FileManager.default.removeItem(at: root) }
        let frames = root.appendingPathComponent("frames")
        let page = root.appendingPathComponent("hopbot.html")
        XCTAssertEqual(try CLIRunner.run(["render", sample("flump-hopbot"), "-o", frames.path]).status, 0)
        let result = try CLIRunner.run(["preview", sample("flump-hopbot"), "-o", page.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let html = try String(contentsOf: page, encoding: .utf8)
        XCTAssertTrue(html.contains("http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'"))
        for external in ["src=\"http", "href=\"http", "src=\"//", "@import", "url(http"] {
            XCTAssertFalse(html.contains(external), "the page refers to something outside itself: \(external)")
        }
        let data = try pageData(page)
        let pictures = try XCTUnwrap(data["embedded"] as? [Data])
        XCTAssertEqual(data["pictures"] as? Int, pictures.count)
        XCTAssertNil(data["sources"])
        XCTAssertEqual(Set(pictures).count, pictures.count, "a picture is stored twice")
        let clips = try XCTUnwrap(data["clips"] as? [[String: Any]])
        var total = 0
        for clip in clips {
            let name = try XCTUnwrap(clip["name"] as? String)
            let numbers = try XCTUnwrap(clip["numbers"] as? [Int])
            let layers = try XCTUnwrap(clip["layers"] as? [[[Int]]])
            let width = try XCTUnwrap(clip["width"] as? Int), height = try XCTUnwrap(clip["height"] as? Int)
            total += numbers.count
            for (number, frameLayers) in zip(numbers, layers) {
                let stem = name.replacingOccurrences(of: ":", with: "_")
                let path = frames.appendingPathComponent(String(format: "%@-%04d.png", stem, number)).path
                let rebuilt = try PreviewComposition.compose(frameLayers, pictures: pictures.map { [UInt8]($0) },
                                                             width: width, height: height)
                let comparison = BitmapComparison.compare(rebuilt, try PNGDecoder().decode(contentsOf: path), tolerance: 0)
                XCTAssertTrue(comparison.matches, "\(name) frame \(number): \(comparison.summary)")
            }
        }
        XCTAssertLessThan(pictures.count, total, "hopbot holds poses, so some frames repeat")
        XCTAssertTrue(result.stdout.contains("\(total) frame(s), \(pictures.count) picture(s)"), result.stdout)

        // Deterministic: the same command writes the same bytes.
        let again = root.appendingPathComponent("again.html")
        XCTAssertEqual(try CLIRunner.run(["preview", sample("flump-hopbot"), "-o", again.path, "--jobs", "1"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: again), try Data(contentsOf: page))
    }

    /// bta-spinner's wheel turns 450° clockwise and grows to 1.2× from frame 0 to 16, then holds to frame 24
    /// (Samples/README.md); the curves must show exactly that, with the keyframes marked.
    func testCurvesFollowTheSpinnersTween() throws {
        let root = try TestPaths.temporaryFolder("preview-cli-curves")
        defer { try? FileManager.default.removeItem(at: root) }
        let page = root.appendingPathComponent("spinner.html")
        let result = try CLIRunner.run(["preview", sample("bta-spinner"), "-o", page.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let clip = try XCTUnwrap((try pageData(page)["clips"] as? [[String: Any]])?.first)
        let nodes = try XCTUnwrap(clip["nodes"] as? [[String: Any]])
        let animated = nodes.filter { $0["animated"] as? Bool == true }
        XCTAssertEqual(animated.count, 1, "only the wheel moves: \(nodes.map { $0["name"] ?? "?" })")
        let curves = try XCTUnwrap(animated.first?["curves"] as? [[String: Any]])
        // A key is [seconds, value, segment, the easing's name].
        func curve(_ name: String) throws -> (times: [Double], values: [Double], keys: [[Double]], easings: [String]) {
            let found = try XCTUnwrap(curves.first { $0["name"] as? String == name }, "no \(name) curve")
            let keys = found["keys"] as? [[Any]] ?? []
            return (found["times"] as? [Double] ?? [], found["values"] as? [Double] ?? [],
                    keys.map { $0.compactMap { ($0 as? NSNumber)?.doubleValue } }, keys.compactMap { $0.last as? String })
        }
        let rotation = try curve("rotation")
        XCTAssertEqual(rotation.easings, ["custom ease (2 Bézier segments)", "hold (last keyframe)"],
                       "the tween's CV custom ease (Samples/README.md), then the held last key")
        let turned = try XCTUnwrap(rotation.values.last) - rotation.values[0]
        XCTAssertEqual(abs(turned), 450, accuracy: 1e-6)
        XCTAssertEqual(rotation.times.last ?? 0, 1.0, accuracy: 1e-9, "24 frames at 24 fps")
        // Keyframes at 0 and 16/24 s (the page rounds times to six decimals).
        XCTAssertEqual(rotation.keys.count, 2, "\(rotation.keys)")
        XCTAssertEqual(rotation.keys.first?[0] ?? -1, 0, accuracy: 1e-6)
        XCTAssertEqual(rotation.keys.last?[0] ?? -1, 16.0 / 24, accuracy: 1e-6)
        // Held after frame 16: every sample from 16/24 s on has the final angle.
        for (t, v) in zip(rotation.times, rotation.values) where t >= 16.0 / 24 + 1e-5 {
            XCTAssertEqual(v, rotation.values.last!, accuracy: 1e-9)
        }
        // The custom ease is not linear: half-way through the tween the angle is visibly away from the linear 225°.
        let half = try XCTUnwrap(zip(rotation.times, rotation.values).first { abs($0.0 - 8.0 / 24) < 1e-5 })
        XCTAssertGreaterThan(abs(abs(half.1 - rotation.values[0]) - 225), 5)
        let scale = try curve("scale.x")
        XCTAssertEqual(scale.values.last! / scale.values[0], 1.2, accuracy: 1e-6)
    }

    /// walker-interaction.json: a group of two animators with eight steps; the page graphs both and marks each
    /// step at its time.
    func testScriptGraphMarksEveryStep() throws {
        let root = try TestPaths.temporaryFolder("preview-cli-script")
        defer { try? FileManager.default.removeItem(at: root) }
        let page = root.appendingPathComponent("script.html")
        let script = TestPaths.packageRoot.appendingPathComponent("Samples/scripts/walker-interaction.json").path
        let result = try CLIRunner.run(["preview", sample("animate-walker"), "--script", script, "-o", page.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let clip = try XCTUnwrap((try pageData(page)["clips"] as? [[String: Any]])?.first)
        XCTAssertEqual(clip["name"] as? String, "walker-interaction")
        let graph = try XCTUnwrap(clip["script"] as? [String: Any])
        let lines = try XCTUnwrap(graph["lines"] as? [[String: Any]])
        XCTAssertEqual(lines.compactMap { $0["name"] as? String }.sorted(), ["shade", "walker"])
        let marks = try XCTUnwrap(graph["marks"] as? [[String: Any]])
        XCTAssertEqual(marks.compactMap { $0["t"] as? Double }, [0, 0.25, 0.375, 0.5, 0.5, 0.625, 0.625, 0.75])
        XCTAssertEqual(marks.compactMap { $0["label"] as? String }[2], "card: scrub")
        // Paused from 0.25 s to 0.375 s: the walker's fraction does not move between those ticks.
        let walker = try XCTUnwrap(lines.first { $0["name"] as? String == "walker" })
        let times = walker["times"] as? [Double] ?? [], fractions = walker["fractions"] as? [Double] ?? []
        let paused = zip(times, fractions).filter { $0.0 >= 0.26 && $0.0 <= 0.37 }.map(\.1)
        XCTAssertGreaterThan(paused.count, 1)
        XCTAssertEqual(Set(paused).count, 1, "\(paused)")
        // Scrubbed to 0.5 at 0.375 s.
        let scrubbed = try XCTUnwrap(zip(times, fractions).first { abs($0.0 - 0.375) < 1e-9 })
        XCTAssertEqual(scrubbed.1, 0.5, accuracy: 1e-9)
        XCTAssertEqual(try CLIRunner.run(["preview", sample("animate-walker"), "--script", script, "--clip", "walk",
                                          "-o", page.path]).status, 1)
    }

    func testFramesFolderKeepsFramesBesideThePage() throws {
        let root = try TestPaths.temporaryFolder("preview-cli-folder")
        defer { try? FileManager.default.removeItem(at: root) }
        let page = root.appendingPathComponent("site/walker.html")
        let folder = root.appendingPathComponent("site/frames")
        let result = try CLIRunner.run(["preview", sample("animate-walker"), "-o", page.path, "--clip", "walk",
                                        "--frames-folder", folder.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let data = try pageData(page)
        XCTAssertEqual((data["embedded"] as? [Data])?.count, 0, "nothing embedded")
        let images = try XCTUnwrap(data["sources"] as? [String])
        XCTAssertEqual(data["pictures"] as? Int, images.count)
        XCTAssertFalse(images.isEmpty)
        for image in images {
            XCTAssertTrue(image.hasPrefix("frames/walk-"), image)
            XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("site/" + image).path))
        }
        // Curves of the nested symbols' nodes make about 85 KB of data; embedded frames would add over 200 KB.
        XCTAssertLessThan(try Data(contentsOf: page).count, 120_000, "frames are not embedded")
        XCTAssertEqual(result.stderr, "")

        // The size warning names the page's size, the limit and the way out.
        let embedded = root.appendingPathComponent("embedded.html")
        let big = try CLIRunner.run(["preview", sample("animate-walker"), "--clip", "walk", "--clip", "wave",
                                     "-o", embedded.path, "--size-warning", "0.05"])
        XCTAssertEqual(big.status, 0, big.stderr)
        let size = Double(try Data(contentsOf: embedded).count) / 1_048_576
        XCTAssertGreaterThan(size, 0.1)  // the walker's page: its pictures, and curves down the nested symbols
        XCTAssertTrue(big.stderr.hasPrefix("keyframe: warning: \(embedded.path) is \(String(format: "%.1f", size)) MB, "
                                           + "more than 0.05 MB;"), big.stderr)
        XCTAssertEqual(try CLIRunner.run(["preview", sample("animate-walker"), "-o", embedded.path]).stderr, "")
        XCTAssertTrue(big.stderr.contains("--frames-folder"), big.stderr)
    }

    /// Names that look like markup stay text: the data block is not cut short and the title is escaped.
    func testMarkupInNamesCannotBreakThePage() throws {
        let root = try TestPaths.temporaryFolder("preview-cli-names")
        defer { try? FileManager.default.removeItem(at: root) }
        let json = root.appendingPathComponent("walker.json")
        XCTAssertEqual(try CLIRunner.run(["convert", sample("animate-walker"), "-o", json.path]).status, 0)
        var document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        var clips = try XCTUnwrap(document["clips"] as? [[String: Any]])
        let evil = "</script><script>alert(1)</script>\"&'"
        clips[0]["name"] = evil
        document["clips"] = clips
        document["name"] = "<i>walker</i>"
        try JSONSerialization.data(withJSONObject: document).write(to: json)
        let page = root.appendingPathComponent("page.html")
        let result = try CLIRunner.run(["preview", json.path, "--assets", sample("animate-walker"), "-o", page.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let html = try String(contentsOf: page, encoding: .utf8)
        let pictures = try XCTUnwrap(try pageData(page)["embedded"] as? [Data]).count
        XCTAssertEqual(html.components(separatedBy: "</script>").count - 1, 2 + 2 * pictures,
                       "exactly the page's scripts: data, player, and per picture its block and its announcement")
        XCTAssertTrue(html.contains("<title>&lt;i&gt;walker&lt;/i&gt; — Keyframe preview</title>"))
        let names = try XCTUnwrap(try pageData(page)["clips"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        XCTAssertEqual(names.first, evil)
    }
}
