import Foundation
import KeyframeTestSupport
import XCTest

/// `keyframe diff` on a real export edited as an animator would: the report's text, JSON and exit status, and the
/// HTML page opened in headless Chromium without any network request.
final class DiffCLITests: XCTestCase {
    var walker: URL { TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker") }

    /// A copy of the walker whose body is 12 px further right on frame 7 only (Animation.json's `M3D` translation).
    func movedWalker(in root: URL) throws -> URL {
        let copy = root.appendingPathComponent("walker v2")
        try FileManager.default.copyItem(at: walker, to: copy)
        let file = copy.appendingPathComponent("Animation.json")
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var animation = try XCTUnwrap(json["AN"] as? [String: Any])
        var timeline = try XCTUnwrap(animation["TL"] as? [String: Any])
        var layers = try XCTUnwrap(timeline["L"] as? [[String: Any]])
        let body = try XCTUnwrap(layers.firstIndex { $0["LN"] as? String == "body" })
        var frames = try XCTUnwrap(layers[body]["FR"] as? [[String: Any]])
        let seven = try XCTUnwrap(frames.firstIndex { $0["I"] as? Int == 7 && $0["DU"] as? Int == 1 })
        var elements = try XCTUnwrap(frames[seven]["E"] as? [[String: Any]])
        var instance = try XCTUnwrap(elements[0]["ASI"] as? [String: Any])
        var matrix = try XCTUnwrap(instance["M3D"] as? [Double])
        matrix[12] += 12
        instance["M3D"] = matrix
        elements[0]["ASI"] = instance
        frames[seven]["E"] = elements
        layers[body]["FR"] = frames
        timeline["L"] = layers
        animation["TL"] = timeline
        json["AN"] = animation
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        return copy
    }

    func testMovedNodeIsReportedAsTextJSONAndAPageWithoutNetwork() throws {
        let root = try TestPaths.temporaryFolder("diff-cli")
        defer { try? FileManager.default.removeItem(at: root) }
        let moved = try movedWalker(in: root)
        let page = root.appendingPathComponent("report/diff.html")

        let text = try CLIRunner.run(["diff", walker.path, moved.path, "--html", page.path])
        XCTAssertEqual(text.status, 1, text.stderr)
        XCTAssertEqual(text.stderr, "")
        // (-20, -94.9) is the body's translation on frame 7 in the sample's Animation.json.
        XCTAssertTrue(text.stdout.contains("  walker › body › body #0\n    position  12 px at frame 7 (walk frame 7, 0.292 s; "
                                           + "walker frame 7, 0.292 s): (-20, -94.9) → (-8, -94.9); 1 frame(s) differ"),
                      text.stdout)
        XCTAssertTrue(text.stdout.hasSuffix("1 change(s): 0 structural, 1 node(s) with changed motion\n"), text.stdout)

        let json = try CLIRunner.run(["diff", walker.path, moved.path, "--json"])
        XCTAssertEqual(json.status, 1)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["format"] as? String, "keyframe-diff")
        XCTAssertEqual(report["changed"] as? Bool, true)
        let motion = try XCTUnwrap(report["motion"] as? [[String: Any]])
        XCTAssertEqual(motion.count, 1)
        XCTAssertEqual(motion[0]["path"] as? [String], ["body", "body #0"])
        let channel = try XCTUnwrap((motion[0]["channels"] as? [[String: Any]])?.first)
        XCTAssertEqual(channel["channel"] as? String, "position")
        XCTAssertEqual(channel["largest"] as? Double, 12)
        XCTAssertEqual(channel["frame"] as? Int, 7)
        XCTAssertEqual(channel["differingFrames"] as? Int, 1)
        XCTAssertEqual((channel["clips"] as? [[String: Any]])?.compactMap { $0["clip"] as? String }, ["walk", "walker"])

        // A tolerance above the move: no change, exit 0. The same export twice: no change.
        let tolerant = try CLIRunner.run(["diff", walker.path, moved.path, "--tolerance", "12"])
        XCTAssertEqual(tolerant.status, 0, tolerant.stdout)
        XCTAssertTrue(tolerant.stdout.hasSuffix("no change (tolerance 12 px, °, %)\n"), tolerant.stdout)
        let same = try CLIRunner.run(["diff", walker.path, walker.path])
        XCTAssertEqual(same.status, 0)
        XCTAssertEqual(same.stdout, "keyframe diff: \(walker.path) → \(walker.path)\nno change (tolerance 0.01 px, °, %)\n")

        // The export against its own normalized JSON (images from the export): the same document, no change.
        let normalized = root.appendingPathComponent("walker.json")
        XCTAssertEqual(try CLIRunner.run(["convert", walker.path, "-o", normalized.path]).status, 0)
        let converted = try CLIRunner.run(["diff", walker.path, normalized.path, "--assets-b", walker.path])
        XCTAssertEqual(converted.status, 0, converted.stdout)
        // Without its images the JSON is still compared, and the report says what it could not do.
        let withoutImages = try CLIRunner.run(["diff", walker.path, normalized.path])
        XCTAssertEqual(withoutImages.status, 0, withoutImages.stdout)
        XCTAssertTrue(withoutImages.stdout.contains("note: \(normalized.path): images not read"), withoutImages.stdout)

        // The page: self-contained, the frame the move shows side by side, nothing requested from the network.
        let html = try String(contentsOf: page, encoding: .utf8)
        XCTAssertTrue(html.contains("Content-Security-Policy\" content=\"default-src 'none'"))
        XCTAssertTrue(html.contains("walk: 1 of 24 frame(s) differ"), "only frame 7 of walk differs")
        guard let chromium = ChromiumSession.executable() else {
            throw XCTSkip("chromium is not installed (Scripts/ensure-deps.sh installs it); the diff page's browser check cannot run")
        }
        let browser = try ChromiumSession(executable: chromium, width: 1100, height: 900)
        defer { browser.close() }
        try browser.navigate(page.absoluteURL.absoluteString)
        XCTAssertEqual(try browser.evaluate("""
            [...document.images].every(i => i.complete && i.naturalWidth > 0) && document.images.length
            """) as? Int, 6, "before, after and overlay for frame 7 of walk and of walker")
        XCTAssertEqual(try browser.evaluate("document.querySelector('.verdict').textContent") as? String,
                       "1 change(s): 0 structural, 1 node(s) with changed motion")
        let requests = browser.requestedURLs
        XCTAssertFalse(requests.isEmpty, "the request monitor saw nothing at all")
        XCTAssertEqual(requests.filter { !$0.hasPrefix("file:") && !$0.hasPrefix("data:") }, [])
    }

    func testBadOptionsAndInputs() throws {
        XCTAssertEqual(try CLIRunner.run(["diff", walker.path, walker.path, "--tolerance", "-1"]).status, 2)
        XCTAssertEqual(try CLIRunner.run(["diff", walker.path, walker.path, "--tolerance", "nan"]).status, 2)
        XCTAssertEqual(try CLIRunner.run(["diff", walker.path]).status, 2)
        let missing = try CLIRunner.run(["diff", walker.path, "/nonexistent/export"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.hasPrefix("keyframe: error: "), missing.stderr)
        XCTAssertEqual(missing.stdout, "")
    }
}
