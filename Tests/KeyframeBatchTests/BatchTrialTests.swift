import Foundation
import KeyframeTestSupport
import XCTest

/// A small, seeded run of what an unlucky asset build does to `keyframe batch`: a tree with broken exports, inputs
/// edited and reverted between runs, and `kill -9` at random moments — sometimes twice before a run may finish. After
/// every run that finishes, OUT must hold exactly the bytes of a clean run of the inputs as they are then (outputs,
/// manifest, nothing else), and no temporary file or journal may remain.
final class BatchTrialTests: XCTestCase {
    private var work: URL!
    private var root: URL!

    override func setUpWithError() throws {
        work = try TestPaths.temporaryFolder("keyframe-batch-trial")
        root = work.appendingPathComponent("in")
        for sample in ["animate-walker", "bta-spinner", "dragonbones-waver", "flump-hopbot"] {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent("Samples/\(sample)"),
                                             to: root.appendingPathComponent(sample))
        }
        // Two broken exports, which fail on every run: a cut-off Animation.json and a skeleton without its atlas image.
        let broken = root.appendingPathComponent("broken")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        let truncated = broken.appendingPathComponent("truncated")
        try FileManager.default.copyItem(at: root.appendingPathComponent("animate-walker"), to: truncated)
        let animation = try Data(contentsOf: truncated.appendingPathComponent("Animation.json"))
        try animation.prefix(animation.count / 3).write(to: truncated.appendingPathComponent("Animation.json"))
        let atlasless = broken.appendingPathComponent("atlasless")
        try FileManager.default.copyItem(at: root.appendingPathComponent("dragonbones-waver"), to: atlasless)
        try FileManager.default.removeItem(at: atlasless.appendingPathComponent("waver_tex.png"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    func arguments(_ out: URL) -> [String] {
        ["batch", root.path, "-o", out.path, "--to", "core-animation", "--to", "lottie", "--to", "normalized",
         "--render-previews", "--jobs", "2"]
    }

    /// The two versions of the inputs: as shipped, and with the frame rate of three exports changed (every output of
    /// those three changes with it) and one animation renamed (its outputs get other names).
    func setVersion(_ edited: Bool) throws {
        let edits: [(file: String, shipped: String, edited: String)] = [
            ("animate-walker/Animation.json", #""FRT":24.0"#, #""FRT":30.0"#),
            ("dragonbones-waver/waver_ske.json", #""frameRate": 24"#, #""frameRate": 30"#),
            ("dragonbones-waver/waver_ske.json", #""name": "wave""#, #""name": "waving""#),
            ("flump-hopbot/library.json", #""frameRate":24"#, #""frameRate":30"#),
        ]
        for edit in edits {
            let file = root.appendingPathComponent(edit.file)
            let text = try String(contentsOf: file, encoding: .utf8)
            let changed = edited ? text.replacingOccurrences(of: edit.shipped, with: edit.edited)
                : text.replacingOccurrences(of: edit.edited, with: edit.shipped)
            if changed != text { try Data(changed.utf8).write(to: file) }
        }
    }

    /// What must not stay in OUT after a finished run.
    func leftovers(_ out: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: out.path) else { return [] }
        var found: [String] = []
        while let item = enumerator.nextObject() as? String {
            let name = (item as NSString).lastPathComponent
            if name.hasSuffix(".tmp") || name == ".keyframe-manifest.journal" { found.append(item) }
        }
        return found
    }

    func testSeededKillsEditsAndRevertsAlwaysEndInTheBytesOfACleanRun() throws {
        // Clean runs of both versions, timed.
        var references: [Bool: [String: [UInt8]]] = [:]
        var fullRun = 0.0
        for edited in [true, false] {
            try setVersion(edited)
            let out = work.appendingPathComponent(edited ? "clean-edited" : "clean")
            let start = Date()
            let run = try BatchCLI.run(arguments(out))
            fullRun = max(fullRun, Date().timeIntervalSince(start))
            XCTAssertEqual(run.status, 1, "the two broken exports fail: \(run.stderr)")
            XCTAssertTrue(run.stdout.contains("6 exports: 4 converted, 0 up to date, 2 failed"), run.stdout)
            references[edited] = BatchFixtures.snapshot(out)
        }
        XCTAssertNotEqual(references[true], references[false])
        XCTAssertNotNil(references[true]?["dragonbones-waver.ca/waving.json"])
        XCTAssertNotNil(references[false]?["dragonbones-waver.ca/wave.json"])

        let out = work.appendingPathComponent("out")
        XCTAssertEqual(try BatchCLI.run(arguments(out)).status, 1)
        var current = false
        var random = SeededGenerator(seed: 0x7A1A1)
        var killedMidway = 0
        for attempt in 0..<6 {
            // One or two killed runs, each on either version of the inputs.
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                current = Bool.random(using: &random) ? !current : current
                try setVersion(current)
                let process = Process()
                process.executableURL = BatchCLI.binary
                process.arguments = arguments(out)
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                usleep(UInt32(Double.random(in: 0.05...0.9, using: &random) * fullRun * 1_000_000))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                if process.terminationReason == .uncaughtSignal { killedMidway += 1 }
            }
            // Then the version the next run sees: kept, or reverted.
            current = Bool.random(using: &random)
            try setVersion(current)
            let rerun = try BatchCLI.run(arguments(out))
            let context = "attempt \(attempt) (\(current ? "edited" : "as shipped"))"
            XCTAssertEqual(rerun.status, 1, "\(context): \(rerun.stderr)")
            XCTAssertTrue(rerun.stdout.contains("2 failed"), "\(context): \(rerun.stdout)")
            BatchFixtures.assertSame(BatchFixtures.snapshot(out), references[current]!, context)
            XCTAssertEqual(leftovers(out), [], context)
        }
        XCTAssertGreaterThanOrEqual(killedMidway, 5, "most kills must land while the batch runs")
    }
}
