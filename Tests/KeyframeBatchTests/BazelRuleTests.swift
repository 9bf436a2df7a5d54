import Foundation
import KeyframeJSON
import KeyframeTestSupport
import XCTest

/// The `keyframe_convert` Bazel rule (`bazel/keyframe.bzl`) driven by a real Bazel (Debian's `bazel-bootstrap`,
/// 4.2.3) over a copy of `bazel/example` that uses the freshly built `keyframe`: outputs equal `keyframe convert`'s,
/// `keyframe export`'s and `keyframe batch --render-previews`' bytes (Lottie per declared clip file, Core Animation as
/// a tree artifact), the log of a successful build is short, a changed input re-runs only its actions, after
/// `bazel clean` the disk cache serves every action, broken exports are reported as `PATH:LINE:COLUMN: error:`, and
/// two output bases share their results through a real Remote Execution API cache (BuildGrid, from PyPI).
///
/// Bazel's servers, install tree and caches live in a temporary folder and every server (Bazel's and BuildGrid's)
/// is shut down at the end.
final class BazelRuleTests: XCTestCase {
    private static let bazel = "/usr/bin/bazel"
    private var work: URL!
    private var workspace: URL!
    /// The output bases this test started a Bazel server in (each is shut down at the end).
    private var outputBases: Set<String> = []
    /// The BuildGrid server this test started, if any.
    private var buildGrid: Process?

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.bazel) else {
            throw XCTSkip("Bazel is not installed (\(Self.bazel)); Scripts/ensure-deps.sh installs bazel-bootstrap. Bazel rule test skipped")
        }
        work = try TestPaths.temporaryFolder("keyframe-bazel")
        workspace = try copyExample(to: "ws")
    }

    /// A copy of `bazel/example` at `work/name` whose WORKSPACE points at this checkout's rules and the tested
    /// binary (the example's points at ../ and ../../.build/release).
    private func copyExample(to name: String) throws -> URL {
        let copy = work.appendingPathComponent(name)
        try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent("bazel/example"), to: copy)
        let file = copy.appendingPathComponent("WORKSPACE")
        var text = try String(contentsOf: file, encoding: .utf8)
        text = text.replacingOccurrences(of: "path = \"..\",", with: "path = \"\(TestPaths.packageRoot.appendingPathComponent("bazel").path)\",")
        text = text.replacingOccurrences(of: "path = \"../../.build/release\",",
                                         with: "path = \"\(BatchCLI.binary.deletingLastPathComponent().path)\",")
        try Data(text.utf8).write(to: file)
        try addWalkLeft(to: copy)
        return copy
    }

    /// Adds to the workspace at `copy` a normalized walker whose clip `walk` is called `walk left`, and a target that
    /// declares its Lottie file by that name: the CLI's own file name for it would be `walk_left.json`, so the build
    /// passes only when the action writes the file the rule declares (before: `output 'walk-left.lottie/walk
    /// left.json' was not created`).
    private func addWalkLeft(to copy: URL) throws {
        let folder = copy.appendingPathComponent("exports/walk-left")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let document = folder.appendingPathComponent("walker.json")
        let walker = copy.appendingPathComponent("exports/animate-walker")
        let convert = try BatchCLI.run(["convert", walker.path, "-o", document.path])
        XCTAssertEqual(convert.status, 0, convert.stderr)
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: document)) as? [String: Any])
        var clips = try XCTUnwrap(object["clips"] as? [[String: Any]])
        for index in clips.indices where clips[index]["name"] as? String == "walk" { clips[index]["name"] = "walk left" }
        object["clips"] = clips
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: document)
        try FileManager.default.copyItem(at: walker.appendingPathComponent("spritemap1.png"),
                                         to: folder.appendingPathComponent("spritemap1.png"))
        let build = copy.appendingPathComponent("BUILD.bazel")
        let text = try String(contentsOf: build, encoding: .utf8) + """

            keyframe_convert(
                name = "walk-left",
                main = "exports/walk-left/walker.json",
                srcs = glob(["exports/walk-left/**"]),
                formats = ["lottie"],
                clips = ["walk left"],
            )

            """
        try Data(text.utf8).write(to: build)
    }

    override func tearDownWithError() throws {
        guard let work else { return }
        for base in outputBases.sorted() { _ = try? bazel(["shutdown"], base: base) }
        if let buildGrid { Self.stop(buildGrid) }
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

    /// Runs bazel in `folder` (default: the workspace) with its server in the output base `base` and everything else
    /// in the temporary folder (Debian's /etc/bazel/bazelrc still applies).
    private func bazel(_ arguments: [String], base: String = "base", in folder: URL? = nil) throws
        -> (status: Int32, output: String)
    {
        outputBases.insert(base)
        return try run(Self.bazel, ["--output_user_root=\(work.appendingPathComponent("root").path)",
                                    "--output_base=\(work.appendingPathComponent(base).path)"] + arguments,
                       in: folder ?? workspace)
    }

    /// Builds everything and returns Bazel's output and the spawns it ran or fetched from a cache (from its
    /// execution log).
    private func build(_ log: String, base: String = "base", in folder: URL? = nil, flags: [String]? = nil) throws
        -> (output: String, spawns: [JSONValue])
    {
        let logURL = work.appendingPathComponent(log)
        let result = try bazel(["build", "//..."] + (flags ?? ["--disk_cache=\(work.appendingPathComponent("cache").path)"])
                               + ["--execution_log_json_file=\(logURL.path)"], base: base, in: folder)
        XCTAssertEqual(result.status, 0, result.output)
        // The log is a stream of JSON objects; make it one array.
        let text = try String(contentsOf: logURL, encoding: .utf8)
        guard !text.isEmpty else { return (result.output, []) }
        let array = "[" + text.replacingOccurrences(of: "\n}{\n", with: "\n},{\n") + "]"
        return (result.output, try JSONParser.parse(array).arrayValue ?? [])
    }

    /// The folder of built files of the output base `base`.
    private func bazelBin(base: String = "base", in folder: URL? = nil) throws -> URL {
        URL(fileURLWithPath: try bazel(["info", "bazel-bin"], base: base, in: folder).output
            .split(separator: "\n").last.map(String.init) ?? "")
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

    private static let mnemonics = ["KeyframeConvert", "KeyframeExportLottie", "KeyframeExportCoreAnimation",
                                    "KeyframePreview"]

    private func keyframeSpawns(_ spawns: [JSONValue]) -> [JSONValue] {
        spawns.filter { Self.mnemonics.contains($0["mnemonic"]?.stringValue ?? "") }
    }

    private func count(_ spawns: [JSONValue], _ mnemonic: String) -> Int {
        spawns.filter { $0["mnemonic"]?.stringValue == mnemonic }.count
    }

    /// What `keyframe export` writes into a folder for the example's export `name`.
    private func exported(_ name: String, _ arguments: [String]) throws -> [String: Data] {
        let direct = work.appendingPathComponent("direct-\(name)-\(UUID().uuidString)")
        let run = try BatchCLI.run(["export", workspace.appendingPathComponent("exports/\(name)").path]
                                   + arguments + ["-o", direct.path + "/"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let files = files(under: direct)
        XCTAssertFalse(files.isEmpty)
        return files
    }

    func testRuleBuildsConvertOutputsRerunsOnlyChangedActionsAndHitsTheDiskCache() throws {
        let names = ["animate-walker", "bta-spinner", "dragonbones-waver", "flump-hopbot"]
        let (log, first) = try build("first.json")
        // A successful build of the example says little: no sandbox chatter (Debian turns on --sandbox_debug; the
        // example's .bazelrc turns it off), no file lists from the tool.
        let lines = log.split(separator: "\n")
        XCTAssertLessThan(lines.count, 20, log)
        XCTAssertFalse(log.contains("linux-sandbox.cc"), log)
        // The example asks for normalized JSON of all four, Lottie of walker and hopbot, Core Animation of walker,
        // and a preview of walker.
        XCTAssertEqual(count(first, "KeyframeConvert"), 4)
        // Lottie: one action per declared clip file (walker's three, walk-left's one) and hopbot's folder.
        XCTAssertEqual(count(first, "KeyframeExportLottie"), 5)
        XCTAssertEqual(count(first, "KeyframeExportCoreAnimation"), 1)
        XCTAssertEqual(count(first, "KeyframePreview"), 1)
        for spawn in first {
            XCTAssertEqual(spawn["environmentVariables"]?.arrayValue?.count, 0, "actions get no environment")
            for argument in spawn["commandArgs"]?.arrayValue ?? [] {
                XCTAssertFalse(argument.stringValue?.hasPrefix("/") ?? true, "no absolute paths: \(argument)")
            }
        }
        let bin = try bazelBin()
        for name in names {
            let built = try Data(contentsOf: bin.appendingPathComponent("\(name).json"))
            let direct = try BatchCLI.run(["convert", workspace.appendingPathComponent("exports/\(name)").path])
            XCTAssertEqual(direct.status, 0, direct.stderr)
            XCTAssertEqual(built, Data(direct.stdout.utf8), "\(name): bazel's output differs from keyframe convert")
        }
        // The player formats hold exactly what `keyframe export -o DIR/` writes: the walker's Lottie as the three
        // declared clip files, its Core Animation as a tree artifact, hopbot's Lottie with the rule's profile, PNG
        // preset, indentation and strictness.
        XCTAssertEqual(files(under: bin.appendingPathComponent("animate-walker.lottie")),
                       try exported("animate-walker", ["--to", "lottie"]), "walker lottie: bazel against keyframe export")
        // A clip whose name the CLI would write otherwise (`walk_left.json`) is the file the rule declares.
        let walkLeft = work.appendingPathComponent("walk-left.json")
        let direct = try BatchCLI.run(["export", workspace.appendingPathComponent("exports/walk-left/walker.json").path,
                                       "--to", "lottie", "--clip", "walk left", "-o", walkLeft.path])
        XCTAssertEqual(direct.status, 0, direct.stderr)
        XCTAssertEqual(try Data(contentsOf: bin.appendingPathComponent("walk-left.lottie/walk left.json")),
                       try Data(contentsOf: walkLeft))
        let walkerCA = try exported("animate-walker", ["--to", "core-animation"])
        XCTAssertEqual(files(under: bin.appendingPathComponent("animate-walker.ca")), walkerCA,
                       "walker core-animation: bazel's tree against keyframe export")
        XCTAssertEqual(files(under: bin.appendingPathComponent("flump-hopbot.lottie")),
                       try exported("flump-hopbot", ["--to", "lottie", "--profile", "full", "--png", "fast", "--pretty",
                                                     "--strict"]), "hopbot lottie: bazel's tree against keyframe export")
        // The preview is the contact sheet a batch bundles, byte for byte.
        let batchOut = work.appendingPathComponent("batch-out")
        let batch = try BatchCLI.run(["batch", workspace.appendingPathComponent("exports/animate-walker").path,
                                      "-o", batchOut.path, "--render-previews"])
        XCTAssertEqual(batch.status, 0, batch.stderr)
        XCTAssertEqual(try Data(contentsOf: bin.appendingPathComponent("animate-walker.preview.png")),
                       try Data(contentsOf: batchOut.appendingPathComponent("preview/animate-walker.png")))

        // Change one input: only its actions run (its normalized JSON and its Lottie).
        let library = workspace.appendingPathComponent("exports/flump-hopbot/library.json")
        let original = try String(contentsOf: library, encoding: .utf8)
        try Data((original + "\n").utf8).write(to: library)
        let rerun = keyframeSpawns(try build("second.json").spawns)
        XCTAssertEqual(rerun.compactMap { $0["mnemonic"]?.stringValue }.sorted(), ["KeyframeConvert", "KeyframeExportLottie"])
        XCTAssert(rerun.allSatisfy { $0["commandArgs"]?.arrayValue?[2].stringValue == "exports/flump-hopbot/library.json" },
                  "\(rerun.map { $0["commandArgs"] ?? .null })")

        // After a clean, the disk cache serves every action, tree artifacts included.
        XCTAssertEqual(try bazel(["clean"]).status, 0)
        let actions = keyframeSpawns(try build("third.json").spawns)
        XCTAssertEqual(actions.count, 11)
        XCTAssert(actions.allSatisfy { $0["remoteCacheHit"]?.boolValue == true },
                  "every action from the disk cache: \(actions.map { $0["remoteCacheHit"] ?? .null })")
        XCTAssertEqual(files(under: bin.appendingPathComponent("animate-walker.ca")), walkerCA, "the cached tree artifact")

        // Two broken exports: with --keep_going both are reported, where an editor can open them (execroot-relative
        // paths are the workspace's).
        try Data(original.replacingOccurrences(of: "\"movies\":[", with: "\"movies\":[}").utf8).write(to: library)
        let animation = workspace.appendingPathComponent("exports/bta-spinner/Animation.json")
        try Data(try String(contentsOf: animation, encoding: .utf8)
            .replacingOccurrences(of: "\"SN\"", with: "\"SN_\"").utf8).write(to: animation)
        let broken = try bazel(["build", "//...", "--keep_going"])
        XCTAssertNotEqual(broken.status, 0, broken.output)
        let reported = broken.output.split(separator: "\n")
        XCTAssert(reported.contains { $0.range(of: #"^exports/flump-hopbot/library\.json:\d+:\d+: error: invalid JSON: "#,
                                                options: .regularExpression) != nil }, broken.output)
        XCTAssert(reported.contains { $0.range(of: #"^exports/bta-spinner/Animation\.json:\d+:\d+: error: "#,
                                                options: .regularExpression) != nil }, broken.output)
        // Each once: the export and preview actions wait for the conversion, which failed.
        let flumpErrors = reported.filter { $0.hasPrefix("exports/flump-hopbot/library.json:") && $0.contains(": error: ") }
        XCTAssertEqual(flumpErrors.count, 1, broken.output)
        XCTAssertFalse(reported.contains { $0.hasPrefix("keyframe: error: ") }, "every error in the build form: \(broken.output)")
    }

    // MARK: - Remote cache

    /// How to run BuildGrid's `bgd`: the command on the PATH, else its module through `python3` (a `pip install
    /// --user` puts the command where the PATH may not look); `nil` when BuildGrid is not installed.
    private static var buildGridCommand: [String]? {
        func onPath(_ name: String) -> String? {
            for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
                let path = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: path) { return path }
            }
            return nil
        }
        if let bgd = onPath("bgd") { return [bgd] }
        guard let python = onPath("python3"),
            (try? CommandRun.run([python, "-c", "import buildgrid.server.app"]))?.status == 0
        else { return nil }
        return [python, "-c", "import sys; from buildgrid.server.app import cli; sys.argv[0] = 'bgd'; sys.exit(cli())"]
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw XCTSkip("cannot open a socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw XCTSkip("cannot find a free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    private static func listening(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Stops a server: SIGTERM, then SIGKILL if it is still running after 30 s.
    private static func stop(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Starts BuildGrid on a free port of 127.0.0.1 with a disk CAS, an action cache and the bytestream service, and
    /// waits until it accepts connections; returns its `grpc://` address.
    private func startBuildGrid() throws -> String {
        guard let bgd = Self.buildGridCommand else {
            throw XCTSkip("BuildGrid is not installed (no bgd on the PATH; `pip install buildgrid`, which Scripts/ensure-deps.sh test runs). Remote cache test skipped")
        }
        let port = try Self.freePort()
        let folder = work.appendingPathComponent("buildgrid")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("cas"), withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("server.yml")
        // The configuration the example ships, with this run's port and storage folder.
        var text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("bazel/example/buildgrid.yml"),
                              encoding: .utf8)
        XCTAssertTrue(text.contains("127.0.0.1:50051") && text.contains("/var/cache/buildgrid/cas"), text)
        text = text.replacingOccurrences(of: "127.0.0.1:50051", with: "127.0.0.1:\(port)")
            .replacingOccurrences(of: "/var/cache/buildgrid/cas", with: folder.appendingPathComponent("cas").path)
        try Data(text.utf8).write(to: config)
        let logURL = folder.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: bgd[0])
        process.arguments = Array(bgd.dropFirst()) + ["server", "start", config.path]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        try process.run()
        buildGrid = process
        // BuildGrid takes a few seconds (more on a busy machine) to import and bind.
        let deadline = Date().addingTimeInterval(180)
        while !Self.listening(port) {
            guard process.isRunning, Date() < deadline else {
                let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
                XCTFail("BuildGrid did not start on 127.0.0.1:\(port):\n\(text)")
                throw XCTSkip("BuildGrid did not start")
            }
            Thread.sleep(forTimeInterval: 0.25)
        }
        return "grpc://127.0.0.1:\(port)"
    }

    func testTwoOutputBasesShareResultsThroughARemoteCache() throws {
        let cache = try startBuildGrid()
        // Two checkouts in different places, each with its own output base: what two machines would have.
        let other = try copyExample(to: "ws-other")
        let (_, first) = try build("remote-first.json", base: "base-a", flags: ["--remote_cache=\(cache)"])
        XCTAssertEqual(keyframeSpawns(first).count, 11)
        XCTAssert(keyframeSpawns(first).allSatisfy { $0["remoteCacheHit"]?.boolValue == false }, "a cold cache")
        let (log, second) = try build("remote-second.json", base: "base-b", in: other, flags: ["--remote_cache=\(cache)"])
        let conversions = keyframeSpawns(second)
        XCTAssertEqual(conversions.count, 11)
        XCTAssert(conversions.allSatisfy { $0["remoteCacheHit"]?.boolValue == true },
                  "every conversion from BuildGrid: \(conversions.map { $0["remoteCacheHit"] ?? .null })")
        XCTAssert(log.contains("11 remote cache hit"), log)
        // The second output base's files are the first's, byte for byte (tree artifacts and declared clip files).
        let a = files(under: try bazelBin(base: "base-a"))
        let b = files(under: try bazelBin(base: "base-b", in: other))
        XCTAssertEqual(Set(a.keys), Set(b.keys))
        XCTAssert(a.keys.contains("animate-walker.lottie/walk.json") && a.keys.contains("animate-walker.ca/walker.json"),
                  "\(a.keys.sorted())")
        for (path, bytes) in a { XCTAssertEqual(b[path], bytes, path) }
    }
}
