import Foundation
import KeyframeTestSupport
import XCTest

/// `keyframe play` and `keyframe bench engine` run as a user would: outputs, exit codes, options.
final class PlayCLITests: XCTestCase {
    /// The checkout's `Samples/` folder.
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples")

    func run(_ arguments: [String]) throws -> CLIRun { try CLIRunner.run(arguments) }

    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("keyframe-play-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    private let linear = """
    {"animators": [{"name": "a", "duration": 1, "timing": "linear", "target": {"from": 0, "to": 100}},
                   {"name": "b", "duration": 0.5, "timing": "easeIn", "target": {"from": 1, "to": 0}}],
     "group": {"name": "g", "primary": "a"},
     "steps": [{"at": 0, "action": "start"}, {"at": 0.5, "action": "pause"}, {"at": 0.5, "action": "continue"}]}
    """

    func testTableOutput() throws {
        let script = try write("g.json", linear)
        let result = try run(["play", script, "--fps", "4"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines.first, "# g.json at 4 fps")
        XCTAssert(lines.contains("#   group g: primary a, secondaries b"), result.stdout)
        XCTAssert(lines.contains(" tick     time  animator  state    running reversed  fraction  value"), result.stdout)
        XCTAssert(lines.contains("    2   0.5000  a         active   yes     no          0.5000  50.0000"), result.stdout)
        XCTAssert(lines.contains("                step 1 at 0.5 s: g: pause"), result.stdout)
        XCTAssert(lines.contains("    4   1.0000  a         inactive no      no          0.0000  100.0000"), result.stdout)
        XCTAssertEqual(lines.filter { $0.contains("completion:") }, [
            "                completion: a at end (1 s)", "                completion: b at end (1 s)",
            "                completion: g at end (1 s)",
        ])
        XCTAssertEqual(lines.last, "", "output ends with a newline")
    }

    func testJSONLinesParse() throws {
        let script = try write("g.json", linear)
        let result = try run(["play", script, "--fps", "4", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 5)
        var times: [Double] = []
        for line in lines {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
            times.append(try XCTUnwrap(object["time"] as? Double))
            let animators = try XCTUnwrap(object["animators"] as? [[String: Any]])
            XCTAssertEqual(animators.map { $0["name"] as? String }, ["a", "b"])
            for animator in animators {
                XCTAssertNotNil(animator["state"] as? String)
                XCTAssertNotNil(animator["isRunning"] as? Bool)
                XCTAssertNotNil(animator["isReversed"] as? Bool)
                XCTAssertNotNil(animator["fractionComplete"] as? Double)
                XCTAssertNotNil(animator["value"] as? Double)
            }
        }
        XCTAssertEqual(times, [0, 0.25, 0.5, 0.75, 1])
        let last = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[4].utf8)) as? [String: Any])
        let completions = try XCTUnwrap(last["completions"] as? [[String: Any]])
        XCTAssertEqual(completions.map { $0["animator"] as? String }, ["a", "b", "g"])
        XCTAssertEqual(completions.map { $0["position"] as? String }, ["end", "end", "end"])
        XCTAssertEqual(try run(["play", script, "--fps", "4", "--json"]).stdout, result.stdout, "deterministic")
    }

    func testUntilAndFps() throws {
        let script = try write("g.json", linear)
        let result = try run(["play", script, "--fps", "10", "--until", "0.35", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 4, "ticks at 0, 0.1, 0.2, 0.3")
        let long = try run(["play", script, "--fps", "2", "--until", "3", "--json"])
        XCTAssertEqual(long.stdout.split(separator: "\n").count, 7)
        XCTAssertEqual(try run(["play", script, "--fps", "0"]).status, 2)
        XCTAssertEqual(try run(["play", script, "--fps", "-3"]).status, 2)
        XCTAssertEqual(try run(["play", script, "--until", "-1"]).status, 2)
        XCTAssertEqual(try run(["play", script, "--fps", "abc"]).status, 2)
        XCTAssertEqual(try run(["play", script, "--fps", "1000", "--until", "1000"]).status, 2, "over the tick limit")
        XCTAssertEqual(try run(["play"]).status, 2)
    }

    func testBadScriptsExitOneWithPlace() throws {
        // Scripts are named as they were given (issue 11).
        let bad = try write("bad.json", "{\n  \"animators\": [}\n")
        let syntax = try run(["play", bad])
        XCTAssertEqual(syntax.status, 1)
        XCTAssert(syntax.stderr.hasPrefix("keyframe: error: \(bad):2:17: invalid JSON: "), syntax.stderr)
        XCTAssertEqual(syntax.stdout, "")

        let typePath = try write("type.json", """
        {"animators": [{"name": "a", "duration": 1, "target": {"from": 0, "to": 1}}], "steps": [{"at": "soon", "action": "start"}]}
        """)
        let type = try run(["play", typePath])
        XCTAssertEqual(type.status, 1)
        XCTAssertEqual(type.stderr, "keyframe: error: \(typePath): at steps[0].at: expected a number, found string\n")

        let unknown = try run(["play", try write("unknown.json", """
        {"animators": [{"name": "a", "duration": 1, "target": {"from": 0, "to": 1}}], "steps": [{"at": 0, "animator": "z", "action": "start"}]}
        """)])
        XCTAssertEqual(unknown.status, 1)
        XCTAssert(unknown.stderr.contains(#"at steps[0].animator: unknown animator "z""#), unknown.stderr)

        let missing = try run(["play", folder.appendingPathComponent("nope.json").path])
        XCTAssertEqual(missing.status, 1)
        XCTAssert(missing.stderr.contains("nope.json: cannot read the script"), missing.stderr)

        let clipPath = try write("clip.json", """
        {"animators": [{"name": "a", "duration": 1, "target": {"clip": "walk", "document": "no-such-export"}}]}
        """)
        let clip = try run(["play", clipPath])
        XCTAssertEqual(clip.status, 1)
        XCTAssert(clip.stderr.hasPrefix("keyframe: error: \(clipPath): at animators[0].target: "), clip.stderr)

        // A refused step prints the ticks before it, then the error.
        let refused = try run(["play", try write("refused.json", """
        {"animators": [{"name": "a", "duration": 1, "target": {"from": 0, "to": 1}}],
         "steps": [{"at": 0, "action": "start"}, {"at": 0.5, "action": "finish", "position": "end"}]}
        """), "--fps", "4", "--json"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stdout.split(separator: "\n").count, 2)
        XCTAssert(refused.stderr.contains("at steps[1] (a: finish at end at 0.5 s): finish is illegal while active (running)"),
                  refused.stderr)
    }

    func testClipTargetOfTheWalkerSample() throws {
        let document = Self.samples.appendingPathComponent("animate-walker").path
        let script = try write("walk.json", """
        {"animators": [{"name": "w", "duration": 2, "timing": "linear", "target": {"clip": "walk", "document": "\(document)"}}],
         "steps": [{"at": 0, "action": "start"}]}
        """)
        let result = try run(["play", script, "--fps", "4", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 9)
        let middle = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[4].utf8)) as? [String: Any])
        let animator = try XCTUnwrap((middle["animators"] as? [[String: Any]])?.first)
        let clip = try XCTUnwrap(animator["clip"] as? [String: Any])
        XCTAssertEqual(clip["name"] as? String, "walk")
        XCTAssertEqual(clip["document"] as? String, URL(fileURLWithPath: document).standardizedFileURL.path)
        // The walk clip is 24 frames at 24 fps; half way through a linear 2 s run it shows frame 12 (0.5 s).
        XCTAssertEqual(try XCTUnwrap(clip["frames"] as? Double), 12, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(clip["seconds"] as? Double), 0.5, accuracy: 1e-12)
        XCTAssertNil(animator["value"])
    }

    func testBundledSampleScriptsPlay() throws {
        let scripts = try FileManager.default.contentsOfDirectory(atPath: Self.samples.appendingPathComponent("scripts").path)
            .filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertFalse(scripts.isEmpty)
        for name in scripts {
            let result = try run(["play", Self.samples.appendingPathComponent("scripts/\(name)").path])
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            XCTAssertEqual(result.stderr, "", name)
            XCTAssert(result.stdout.contains("completion:"), name)
        }
    }

    func testBenchEngineSmoke() throws {
        let result = try run(["bench", "engine", "--animators", "50", "--ticks", "3"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssert(result.stdout.contains("50 animators, 3 ticks"), result.stdout)
        XCTAssert(result.stdout.contains("cubic / plain lerp"), result.stdout)
        XCTAssertEqual(try run(["bench", "engine", "--animators", "0"]).status, 2)
    }
}
