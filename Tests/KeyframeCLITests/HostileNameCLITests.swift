import Foundation
import KeyframeTestSupport
import XCTest

/// Names from an export reach file names and HTML pages (issue 23, defects 4 and 5): every command names files by
/// one rule (letters, marks, digits, `.`, `-`, `_`, `~`; anything else `_`), so no name with a newline, `/`, `..`
/// or NUL leaves its folder or splits a line, collisions are still refused, and every page the tool writes keeps a
/// name like `</script><!--<script>` as text.
final class HostileNameCLITests: XCTestCase {
    var work: URL!
    var walker: String { TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker").path }

    override func setUpWithError() throws {
        work = try TestPaths.temporaryFolder("hostile-names")
    }

    override func tearDownWithError() throws {
        if let work { try? FileManager.default.removeItem(at: work) }
    }

    /// The walker as a normalized document in `folder` (beside a copy of its atlas) whose clips are `names` and whose
    /// document is `title`; returns the document's path.
    func walker(clips names: [String], title: String = "walker", in folder: String, file: String = "walker.json")
        throws -> String
    {
        let directory = work.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let document = directory.appendingPathComponent(file)
        XCTAssertEqual(try CLIRunner.run(["convert", walker, "-o", document.path]).status, 0)
        try FileManager.default.copyItem(atPath: walker + "/spritemap1.png",
                                         toPath: directory.appendingPathComponent("spritemap1.png").path)
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: document)) as? [String: Any])
        var clips = try XCTUnwrap(object["clips"] as? [[String: Any]])
        clips = Array(clips.prefix(names.count))
        for index in clips.indices { clips[index]["name"] = names[index] }
        object["clips"] = clips
        object["name"] = title
        try JSONSerialization.data(withJSONObject: object).write(to: document)
        return document.path
    }

    /// Every path under `folder`, relative, files and folders.
    func entries(under folder: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found: [String] = []
        while let item = enumerator.nextObject() as? String { found.append(item) }
        return found.sorted()
    }

    /// Whether `name` is made only of what the naming rule keeps.
    func isSafe(_ name: String) -> Bool {
        name.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark,
                 .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber: return true
            default: return "._-~".unicodeScalars.contains(scalar)
            }
        } && !name.hasPrefix(".") && !name.hasPrefix("-")
    }

    static let hostile = ["line1\nline2", "../../up/and/away", "nul\u{0}byte", "<!--<script>", "CON",
                          "\u{202E}gnp.exe", "tab\there", "歩く"]

    /// Render, preview `--frames-folder`, both exporters and batch name every file by the same rule (before:
    /// `export` and `batch` wrote `line1\nline2.json`, and `render` another name than `export`).
    func testEveryCommandNamesFilesByTheOneRule() throws {
        let names = Array(Self.hostile.prefix(3))
        let document = try walker(clips: names, in: "in")
        let stems = ["line1_line2", "clip.._.._up_and_away", "nul_byte"]
        let out = work.appendingPathComponent("out")
        let runs: [[String]] = [
            ["render", document, "-o", out.appendingPathComponent("render").path, "--frames", "0"],
            ["preview", document, "-o", out.appendingPathComponent("preview/page.html").path, "--frames", "0",
             "--frames-folder", out.appendingPathComponent("preview/frames").path],
            ["export", document, "--to", "lottie", "-o", out.appendingPathComponent("lottie").path + "/"],
            ["export", document, "--to", "core-animation", "-o", out.appendingPathComponent("ca").path + "/"],
            ["batch", work.appendingPathComponent("in").path, "-o", out.appendingPathComponent("batch").path,
             "--to", "lottie", "--to", "core-animation"],
        ]
        for arguments in runs {
            let run = try CLIRunner.run(arguments)
            XCTAssertEqual(run.status, 0, "\(arguments[0]): \(run.stderr)")
        }
        for entry in entries(under: out) {
            for component in entry.split(separator: "/", omittingEmptySubsequences: false) {
                XCTAssertTrue(isSafe(String(component)) || component.hasPrefix(".keyframe"), "unsafe name \(entry.debugDescription)")
            }
        }
        let written = Set(entries(under: out))
        for stem in stems {
            for expected in ["render/\(stem)-0000.png", "preview/frames/\(stem)-0000.png", "lottie/\(stem).json",
                             "ca/\(stem).json", "batch/walker.lottie/\(stem).json", "batch/walker.ca/\(stem).json"] {
                XCTAssertTrue(written.contains(expected), "\(expected) missing; written: \(written.sorted())")
            }
        }
        // Nothing was written beside OUT (a name that climbs out would have).
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work.path).sorted(), ["in", "out"])
    }

    /// Names that come out the same are refused by every command, before anything is written.
    func testNamesThatComeOutTheSameAreStillRefused() throws {
        let document = try walker(clips: ["line1\nline2", "line1 line2"], in: "in")
        let out = work.appendingPathComponent("out")
        let render = try CLIRunner.run(["render", document, "-o", out.appendingPathComponent("r").path, "--frames", "0"])
        XCTAssertEqual(render.status, 1)
        XCTAssertTrue(render.stderr.contains("would both be written as line1_line2-NNNN.png"), render.stderr)
        for format in ["lottie", "core-animation"] {
            let export = try CLIRunner.run(["export", document, "--to", format, "-o", out.appendingPathComponent(format).path + "/"])
            XCTAssertEqual(export.status, 1, export.stderr)
            XCTAssertTrue(export.stderr.contains("would both write"), export.stderr)
        }
        let batch = try CLIRunner.run(["batch", work.appendingPathComponent("in").path, "-o",
                                       out.appendingPathComponent("batch").path, "--to", "lottie"])
        XCTAssertEqual(batch.status, 1)
        XCTAssertTrue(batch.stderr.contains("two different files are named line1_line2.json"), batch.stderr)
        XCTAssertEqual(entries(under: out).filter { $0.hasSuffix(".json") || $0.hasSuffix(".png") }, [])
    }

    /// A name with `<!--<script>`, `</script>` and U+2028 in the preview page (the name of a clip and the title):
    /// the data block holds no `<` at all, and the names read back exactly (before: `<!--` was written as is).
    func testThePreviewPageKeepsHostileNamesAsData() throws {
        let names = ["a</script><!--<script>b", "c\u{2028}d\u{2029}e", "<!--<script>alert(1)</script>-->"]
        let title = "t</title><!--<script>"
        let document = try walker(clips: names, title: title, in: "in")
        let page = work.appendingPathComponent("page.html")
        let run = try CLIRunner.run(["preview", document, "-o", page.path, "--frames", "0"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let html = try String(contentsOf: page, encoding: .utf8)
        // Exactly the page's own script elements (the data block, the player, and one picture block plus its arrival
        // call per picture), and no comment opener anywhere.
        let pictures = html.components(separatedBy: "<script type=\"text/plain\" class=\"kf-picture\">").count - 1
        XCTAssertGreaterThan(pictures, 0)
        XCTAssertEqual(html.components(separatedBy: "<script").count - 1, 2 + 2 * pictures)
        XCTAssertFalse(html.contains("<!--"))
        XCTAssertFalse(html.contains("\u{2028}") || html.contains("\u{2029}"))
        let data = try XCTUnwrap(html.range(of: "<script type=\"application/json\" id=\"kf-data\">"))
        let end = try XCTUnwrap(html.range(of: "</script>", range: data.upperBound..<html.endIndex))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(html[data.upperBound..<end.lowerBound].utf8))
                                 as? [String: Any])
        XCTAssertEqual(json["title"] as? String, title)
        XCTAssertEqual((json["clips"] as? [[String: Any]])?.compactMap { $0["name"] as? String }, names)
        XCTAssertTrue(html.contains("<title>t&lt;/title&gt;&lt;!--&lt;script&gt; — Keyframe preview</title>"))
    }

    /// The verify report (`verify --html`) and the batch report (`batch --verify-html`) show hostile names as text.
    func testVerifyReportsKeepHostileNamesAsText() throws {
        let hostile = "x<!--<script>alert(1)"  // no `/`: it is also a file name
        let document = try walker(clips: ["walk"], title: hostile, in: "in", file: hostile + ".json")
        let golden = work.appendingPathComponent("golden \(hostile)")
        let report = work.appendingPathComponent("verify.html")
        let verify = try CLIRunner.run(["verify", document, "--golden", golden.path, "--record", "--frames", "0..1"])
        XCTAssertEqual(verify.status, 0, verify.stderr)
        // Deface a golden frame so the report has a failure to show, with the golden folder's name.
        try FileManager.default.removeItem(at: golden.appendingPathComponent("walk-0001.png"))
        let failing = try CLIRunner.run(["verify", document, "--golden", golden.path, "--frames", "0..1",
                                         "--html", report.path, "--artifacts", work.appendingPathComponent("art").path])
        XCTAssertEqual(failing.status, 1, failing.stderr)
        let batchReport = work.appendingPathComponent("batch.html")
        let batch = try CLIRunner.run(["batch", work.appendingPathComponent("in").path, "-o",
                                       work.appendingPathComponent("out").path, "--verify",
                                       work.appendingPathComponent("no goldens").path, "--record"])
        XCTAssertEqual(batch.status, 0, batch.stderr)
        try FileManager.default.removeItem(at: work.appendingPathComponent("no goldens/\(hostile)/walk-0000.png"))
        let batchFailing = try CLIRunner.run(["batch", work.appendingPathComponent("in").path, "-o",
                                              work.appendingPathComponent("out").path, "--verify",
                                              work.appendingPathComponent("no goldens").path,
                                              "--verify-html", batchReport.path])
        XCTAssertEqual(batchFailing.status, 1, batchFailing.stderr)
        for page in [report, batchReport] {
            let html = try String(contentsOf: page, encoding: .utf8)
            // The report's own script (swipe, blink, zoom) and no other.
            XCTAssertEqual(html.components(separatedBy: "<script").count - 1, 1, page.lastPathComponent)
            XCTAssertTrue(html.contains("\n<script>"), page.lastPathComponent)
            XCTAssertFalse(html.contains("<!--"), page.lastPathComponent)
            XCTAssertTrue(html.contains("x&lt;!--&lt;script&gt;alert(1)"), page.lastPathComponent)
        }
    }
}
