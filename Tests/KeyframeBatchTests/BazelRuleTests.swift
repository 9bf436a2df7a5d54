import Foundation
import KeyframeJSON
import KeyframeTestSupport
import XCTest

/// The `keyframe_convert` Bazel rule (`bazel/keyframe.bzl`) driven by a real Bazel (Debian's `bazel-bootstrap`,
/// 4.2.3) over a copy of `bazel/example` that uses the freshly built `keyframe`: outputs equal `keyframe convert`'s
/// and `keyframe export`'s bytes (Lottie and Core Animation as tree artifacts), a changed input re-runs only its
/// actions, and after `bazel clean` the disk cache serves every action.
///
/// Bazel's server, install tree and caches live in a temporary folder and the server is shut down at the end.
final class BazelRuleTests: XCTestCase {
    private static let bazel = "/usr/bin/bazel"
    private var work: URL!
    private var workspace: URL!

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.bazel) else {
            throw XCTSkip("Bazel is not installed (\(Self.bazel)); Scripts/ensure-deps.sh installs bazel-bootstrap. Bazel rule test skipped")
        }
        work = try TestPaths.temporaryFolder("keyframe-bazel")
        workspace = work.appendingPathComponent("ws")
        try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent("bazel/example"), to: workspace)
        // The example's WORKSPACE points at ../ and ../../.build/release; here: this checkout and the tested binary.
        let file = workspace.appendingPathComponent("WORKSPACE")
        var text = try String(contentsOf: file, encoding: .utf8)
        text = text.replacingOccurrences(of: "path = \"..\",", with: "path = \"\(TestPaths.packageRoot.appendingPathComponent("bazel").path)\",")
        text = text.replacingOccurrences(of: "path = \"../../.build/release\",",
                                         with: "path = \"\(BatchCLI.binary.deletingLastPathComponent().path)\",")
        try Data(text.utf8).write(to: file)
    }

    override func tearDownWithError() throws {
        guard let work else { return }
        _ = try? bazel(["shutdown"])
        // Bazel makes its output tree read-only; make it writable again before removing it.
        _ = try? run("/bin/chmod", ["-R", "u+w", work.path], in: work)
        try? FileManager.default.removeItem(at: work)
    }

    /// Runs `executable` in `folder` and waits for it; output goes to a file.
    ///
    /// Not `Process`: Foundation notices a child's exit through a descriptor the child inherits, and the Bazel server
    /// the client forks keeps that descriptor (and any pipe) open for its whole life, so `waitUntilExit` would
    /// never return. `posix_spawn` + `waitpid` waits for the client alone.
    private func run(_ executable: String, _ arguments: [String], in folder: URL) throws -> (status: Int32, output: String) {
        let log = work.appendingPathComponent("output-\(UUID().uuidString).txt").path
        let argv = ["/usr/bin/env", "-C", folder.path, executable] + arguments
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, &cArguments, environ)
        guard spawned == 0 else {
            throw NSError(domain: "BazelRuleTests", code: Int(spawned),
                          userInfo: [NSLocalizedDescriptionKey: "cannot start \(executable): \(String(cString: strerror(spawned)))"])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        unlink(log)
        // WIFEXITED / WEXITSTATUS by hand (macros are not imported into Swift).
        let exitCode: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exitCode, output)
    }

    /// Runs bazel with its server and caches in the temporary folder (Debian's /etc/bazel/bazelrc still applies).
    private func bazel(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try run(Self.bazel, ["--output_user_root=\(work.appendingPathComponent("root").path)",
                             "--output_base=\(work.appendingPathComponent("base").path)"] + arguments, in: workspace)
    }

    /// Builds everything and returns the spawns Bazel ran or fetched from the cache (from its execution log).
    private func build(_ log: String) throws -> [JSONValue] {
        let logURL = work.appendingPathComponent(log)
        let result = try bazel(["build", "//...", "--disk_cache=\(work.appendingPathComponent("cache").path)",
                                "--execution_log_json_file=\(logURL.path)"])
        XCTAssertEqual(result.status, 0, result.output)
        // The log is a stream of JSON objects; make it one array.
        let text = try String(contentsOf: logURL, encoding: .utf8)
        guard !text.isEmpty else { return [] }
        let array = "[" + text.replacingOccurrences(of: "\n}{\n", with: "\n},{\n") + "]"
        return try JSONParser.parse(array).arrayValue ?? []
    }

    /// Every regular file under `folder`, relative path → bytes.
    private func files(under folder: URL) -> [String: Data] {
        var found: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return found }
        while let item = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = folder.appendingPathComponent(item).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                found[item] = FileManager.default.contents(atPath: path)
            }
        }
        return found
    }

    private static let mnemonics = ["KeyframeConvert", "KeyframeExportLottie", "KeyframeExportCoreAnimation"]

    private func keyframeSpawns(_ spawns: [JSONValue]) -> [JSONValue] {
        spawns.filter { Self.mnemonics.contains($0["mnemonic"]?.stringValue ?? "") }
    }

    func testRuleBuildsConvertOutputsRerunsOnlyChangedActionsAndHitsTheDiskCache() throws {
        let names = ["animate-walker", "bta-spinner", "dragonbones-waver", "flump-hopbot"]
        let first = try build("first.json")
        // The example asks for normalized JSON of all four, Lottie of walker and hopbot, Core Animation of walker.
        XCTAssertEqual(first.filter { $0["mnemonic"]?.stringValue == "KeyframeConvert" }.count, 4)
        XCTAssertEqual(first.filter { $0["mnemonic"]?.stringValue == "KeyframeExportLottie" }.count, 2)
        XCTAssertEqual(first.filter { $0["mnemonic"]?.stringValue == "KeyframeExportCoreAnimation" }.count, 1)
        for spawn in first {
            XCTAssertEqual(spawn["environmentVariables"]?.arrayValue?.count, 0, "actions get no environment")
            for argument in spawn["commandArgs"]?.arrayValue ?? [] {
                XCTAssertFalse(argument.stringValue?.hasPrefix("/") ?? true, "no absolute paths: \(argument)")
            }
        }
        let bin = URL(fileURLWithPath: try bazel(["info", "bazel-bin"]).output.split(separator: "\n").last.map(String.init) ?? "")
        for name in names {
            let built = try Data(contentsOf: bin.appendingPathComponent("\(name).json"))
            let direct = try BatchCLI.run(["convert", workspace.appendingPathComponent("exports/\(name)").path])
            XCTAssertEqual(direct.status, 0, direct.stderr)
            XCTAssertEqual(built, Data(direct.stdout.utf8), "\(name): bazel's output differs from keyframe convert")
        }
        // The player formats: the tree artifacts hold exactly what `keyframe export -o DIR/` writes.
        for (name, format, suffix, strict) in [("animate-walker", "lottie", "lottie", false),
                                               ("animate-walker", "core-animation", "ca", false),
                                               ("flump-hopbot", "lottie", "lottie", true)] {
            let direct = work.appendingPathComponent("direct-\(name).\(suffix)")
            let exported = try BatchCLI.run(["export", workspace.appendingPathComponent("exports/\(name)").path,
                                             "--to", format, "-o", direct.path + "/"] + (strict ? ["--strict"] : []))
            XCTAssertEqual(exported.status, 0, exported.stderr)
            let expected = files(under: direct)
            XCTAssertFalse(expected.isEmpty)
            XCTAssertEqual(files(under: bin.appendingPathComponent("\(name).\(suffix)")), expected,
                           "\(name) \(format): bazel's tree differs from keyframe export")
        }

        // Change one input: only its actions run (its normalized JSON and its Lottie).
        let library = workspace.appendingPathComponent("exports/flump-hopbot/library.json")
        try Data((try String(contentsOf: library, encoding: .utf8) + "\n").utf8).write(to: library)
        let second = try build("second.json")
        let rerun = keyframeSpawns(second)
        XCTAssertEqual(rerun.compactMap { $0["mnemonic"]?.stringValue }.sorted(), ["KeyframeConvert", "KeyframeExportLottie"])
        XCTAssert(rerun.allSatisfy { $0["commandArgs"]?.arrayValue?[2].stringValue == "exports/flump-hopbot/library.json" },
                  "\(rerun.map { $0["commandArgs"] ?? .null })")

        // After a clean, the disk cache serves every action, tree artifacts included.
        XCTAssertEqual(try bazel(["clean"]).status, 0)
        let third = try build("third.json")
        let actions = keyframeSpawns(third)
        XCTAssertEqual(actions.count, 7)
        XCTAssert(actions.allSatisfy { $0["remoteCacheHit"]?.boolValue == true },
                  "every action from the disk cache: \(actions.map { $0["remoteCacheHit"] ?? .null })")
        XCTAssertEqual(files(under: bin.appendingPathComponent("animate-walker.ca")),
                       files(under: work.appendingPathComponent("direct-animate-walker.ca")), "the cached tree artifact")
    }
}
