import Foundation
import KeyframeTestSupport
import XCTest

/// What `keyframe batch` offers builds besides conversion: errors and warnings in the form compilers print
/// (`--diagnostics-format build`), options from a configuration file read when the batch runs (`--config`, the
/// SwiftPM plugin's `keyframe-assets.json`), a state folder that keeps OUT to outputs (`--state`), and the
/// preview a Bazel action makes the same way (`render --preview-sheet`).
final class BatchBuildFormTests: XCTestCase {
    private var work: URL!

    override func setUpWithError() throws {
        work = try TestPaths.temporaryFolder("keyframe-batch-build")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    /// Copies the sample `name` to `work/path`, replacing `find` with `replace` in `file` (when given); the edited text.
    @discardableResult
    private func copy(_ name: String, to path: String, file: String? = nil, _ find: String = "", _ replace: String = "")
        throws -> String
    {
        try SampleEdit.copy(name, to: work.appendingPathComponent(path), file: file, find, replace)
    }

    func testEveryProblemIsOneLineNamedThroughTheRootAsGiven() throws {
        let library = try copy("flump-hopbot", to: "assets/characters/hopbot", file: "library.json", "\"layers\"", "\"layerz\"")
        try copy("animate-walker", to: "assets/walker", file: "Animation.json", "\"DU\":24", "\"DU\":24,,")
        let waver = try copy("flump-hopbot", to: "assets/waver", file: "library.json", "\"frameRate\":24", "\"frameRate\":\"24\"")
        try copy("bta-spinner", to: "assets/spinner")
        let build = try BatchCLI.run(["batch", "assets/", "-o", "out", "--diagnostics-format", "build"], in: work)
        XCTAssertEqual(build.status, 1)
        let lines = build.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, build.stderr)
        XCTAssert(lines.contains("assets/characters/hopbot/library.json:\(try SampleEdit.place(of: "{\"id\"", in: library)): error: "
                                 + "at movies[0]: missing required key \"layers\""), build.stderr)
        XCTAssert(lines.contains { $0.hasPrefix("assets/walker/Animation.json:") && $0.contains(": error: invalid JSON: ") },
                  build.stderr)
        XCTAssert(lines.contains("assets/waver/library.json:\(try SampleEdit.place(of: "\"24\"", in: waver)): warning: "
                                 + "[number-as-string] a number written as a string was read leniently (\"24\" as 24) (at frameRate)"),
                  build.stderr)
        XCTAssert(build.stdout.hasPrefix("keyframe batch: 4 exports: 2 converted, 0 up to date, 2 failed"), build.stdout)

        // The plain form is unchanged: the prefix, the export's id, its located error.
        let plain = try BatchCLI.run(["batch", "assets", "-o", "out"], in: work)
        XCTAssert(plain.stderr.contains("keyframe: error: characters/hopbot: library.json: at movies[0]: missing required key"),
                  plain.stderr)
        XCTAssertFalse(plain.stderr.contains("warning:"), "the plain form reports warnings in the summary only")
    }

    func testAConfigurationFileSetsOptionsWhenTheBatchRunsAndItsMistakesAreLocated() throws {
        try copy("flump-hopbot", to: "assets/hopbot")
        let config = work.appendingPathComponent("keyframe-assets.json")
        try Data(#"{"to": ["normalized", "lottie"], "profile": "full", "pretty": true, "png": "fast"}"#.utf8).write(to: config)
        let run = try BatchCLI.run(["batch", "assets", "-o", "out", "--player-folders", "--config", "keyframe-assets.json"],
                                   in: work)
        XCTAssertEqual(run.status, 0, run.stderr)
        let direct = work.appendingPathComponent("direct")
        let export = try BatchCLI.run(["export", "assets/hopbot", "--to", "lottie", "--profile", "full", "--pretty",
                                       "--png", "fast", "-o", direct.path + "/"], in: work)
        XCTAssertEqual(export.status, 0, export.stderr)
        BatchFixtures.assertSame(BatchFixtures.snapshot(work.appendingPathComponent("out/hopbot.lottie")),
                                 BatchFixtures.snapshot(direct), "the configured Lottie against keyframe export")
        // Options on the command line add to the file's: --to replaces its list.
        let replaced = try BatchCLI.run(["batch", "assets", "-o", "out2", "--config", "keyframe-assets.json", "--to",
                                         "normalized"], in: work)
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work.appendingPathComponent("out2").path)
            .filter { !$0.hasPrefix(".") }, ["hopbot.json"])

        // A wrong value is reported at its line and column, in both forms, before anything is converted.
        try Data("{\"strict\": true,\n \"to\": [\"normalized\", \"gif\"]}".utf8).write(to: config)
        let message = "\"to\": unknown format \"gif\" (known: normalized, lottie, core-animation, spritesheet)"
        let build = try BatchCLI.run(["batch", "assets", "-o", "out3", "--config", "keyframe-assets.json",
                                      "--diagnostics-format", "build"], in: work)
        XCTAssertEqual(build.status, 1)
        XCTAssertEqual(build.stderr, "keyframe-assets.json:2:23: error: \(message)\n")
        let plain = try BatchCLI.run(["batch", "assets", "-o", "out3", "--config", "keyframe-assets.json"], in: work)
        XCTAssertEqual(plain.stderr, "keyframe: error: keyframe-assets.json:2:23: \(message)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("out3").path))
        try Data(#"{"strict": 1}"#.utf8).write(to: config)
        let wrongType = try BatchCLI.run(["batch", "assets", "-o", "out3", "--config", "keyframe-assets.json",
                                          "--diagnostics-format", "build"], in: work)
        XCTAssertEqual(wrongType.stderr, "keyframe-assets.json:1:12: error: \"strict\" must be true or false\n")
    }

    func testAStateFolderKeepsTheOutputFolderToOutputs() throws {
        try copy("animate-walker", to: "assets/walker")
        try copy("flump-hopbot", to: "assets/hopbot")
        let arguments = ["batch", "assets", "-o", "out", "--state", "state", "--to", "lottie", "--render-previews"]
        let first = try BatchCLI.run(arguments, in: work)
        XCTAssertEqual(first.status, 0, first.stderr)
        let out = work.appendingPathComponent("out")
        let files = BatchFixtures.snapshot(out).keys.sorted()
        XCTAssertFalse(files.isEmpty)
        XCTAssert(files.allSatisfy { !$0.split(separator: "/").contains { $0.hasPrefix(".") } }, "\(files)")
        XCTAssert(FileManager.default.fileExists(atPath: work.appendingPathComponent("state/.keyframe-manifest.json").path))
        // The manifest in the state folder still makes the next run incremental, and --prune still finds outputs.
        let second = try BatchCLI.run(arguments, in: work)
        XCTAssert(second.stdout.hasPrefix("keyframe batch: 2 exports: 0 converted, 2 up to date"), second.stdout)
        try FileManager.default.removeItem(at: work.appendingPathComponent("assets/hopbot"))
        let pruned = try BatchCLI.run(arguments + ["--prune"], in: work)
        XCTAssertEqual(pruned.status, 0, pruned.stderr)
        XCTAssertFalse(BatchFixtures.snapshot(out).keys.contains { $0.contains("hopbot") })
    }

    func testToolDigestReconvertsWhenTheToolIsRebuiltWithTheSameVersion() throws {
        try copy("flump-hopbot", to: "assets/hopbot")
        let tool = work.appendingPathComponent("bin/keyframe")
        try FileManager.default.createDirectory(at: tool.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: BatchCLI.binary, to: tool)
        func batch(_ extra: [String], out: String = "out") throws -> String {
            let process = Process()
            process.executableURL = tool
            process.arguments = ["batch", "assets", "-o", out] + extra
            process.currentDirectoryURL = work
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, output)
            return output
        }
        XCTAssert(try batch(["--tool-digest"]).hasPrefix("keyframe batch: 1 exports: 1 converted"))
        XCTAssert(try batch(["--tool-digest"]).hasPrefix("keyframe batch: 1 exports: 0 converted, 1 up to date"))
        XCTAssert(try batch([], out: "plain").hasPrefix("keyframe batch: 1 exports: 1 converted"))
        // "Rebuilt": other bytes, the same version. Trailing bytes leave the executable runnable.
        let handle = try FileHandle(forWritingTo: tool)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("rebuilt".utf8))
        try handle.close()
        XCTAssert(try batch(["--tool-digest"]).hasPrefix("keyframe batch: 1 exports: 1 converted"))
        XCTAssert(try batch(["--tool-digest"]).hasPrefix("keyframe batch: 1 exports: 0 converted, 1 up to date"))
        // Without it the version alone is compared: the rebuilt tool trusts the earlier outputs.
        XCTAssert(try batch([], out: "plain").hasPrefix("keyframe batch: 1 exports: 0 converted, 1 up to date"))
    }

    func testThePreviewSheetIsTheBatchPreview() throws {
        for name in ["animate-walker", "dragonbones-waver"] {
            try copy(name, to: "assets/\(name)")
            let batch = try BatchCLI.run(["batch", "assets/\(name)", "-o", "out", "--render-previews"], in: work)
            XCTAssertEqual(batch.status, 0, batch.stderr)
            let render = try BatchCLI.run(["render", "assets/\(name)", "--preview-sheet", "\(name).png", "--quiet"], in: work)
            XCTAssertEqual(render.status, 0, render.stderr)
            let sheet = try Data(contentsOf: work.appendingPathComponent("\(name).png"))
            XCTAssertEqual(sheet, try Data(contentsOf: work.appendingPathComponent("out/preview/\(name).png")), name)
            XCTAssertEqual(Array(sheet.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        }
        let conflicting = try BatchCLI.run(["render", "x", "--preview-sheet", "a.png", "--fps", "2"], in: work)
        XCTAssertEqual(conflicting.status, 2, conflicting.stderr)
    }
}
