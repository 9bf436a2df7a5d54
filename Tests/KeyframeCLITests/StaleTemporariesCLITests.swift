import Foundation
import KeyframeTestSupport
import XCTest

/// `kill -9` in the middle of every command that writes, then the same command again: no temporary file stays in the
/// folders it writes (render and export outputs, `verify --record` golden folders, `batch --verify --record` golden
/// roots, batch's OUT), and no scratch folder of `verify` or `preview` stays in `$TMPDIR`.
///
/// A kill lands between writes as often as inside one, so after each kill the test also leaves what a kill inside a
/// write leaves: a temporary named after the killed process (`.NAME.<pid>-<random>.tmp`) in each folder the command
/// writes, and its scratch folder in `$TMPDIR`.
final class StaleTemporariesCLITests: XCTestCase {
    private var work: URL!
    private var temporary: URL!
    var walker: String { TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker").path }

    override func setUpWithError() throws {
        work = try TestPaths.temporaryFolder("stale-temporaries")
        temporary = work.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    /// Starts `keyframe arguments…` with `$TMPDIR` in the test's folder.
    func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Every path under `folder` that is a temporary file or a scratch folder.
    func leftovers(_ folder: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found: [String] = []
        while let item = enumerator.nextObject() as? String {
            let name = (item as NSString).lastPathComponent
            if name.hasSuffix(".tmp") || name.hasPrefix("keyframe-") { found.append(item) }
        }
        return found.sorted()
    }

    func testKilledCommandsLeaveNothingTheirNextRunKeeps() throws {
        let root = work.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: walker, toPath: root.appendingPathComponent("walker").path)
        let out = work.appendingPathComponent("out")
        // Each command with the folders it writes into (relative to `out`) and whether it renders into $TMPDIR; the
        // rerun renders one frame, which is enough to write into the same folders.
        let commands: [(arguments: [String], rerun: [String], folders: [String], scratch: String?)] = [
            (["render", walker, "-o", out.appendingPathComponent("frames").path], ["--frames", "0"], ["frames"], nil),
            (["export", walker, "--to", "core-animation", "-o", out.appendingPathComponent("ca").path + "/"], [],
             ["ca", "ca/images"], nil),
            (["verify", walker, "--golden", out.appendingPathComponent("golden").path, "--record"], ["--frames", "0"],
             ["golden"], "verify"),
            (["preview", walker, "-o", out.appendingPathComponent("page/walker.html").path], ["--frames", "0"],
             ["page"], "preview"),
            (["batch", root.path, "-o", out.appendingPathComponent("batch").path, "--to", "core-animation",
              "--render-previews", "--verify", out.appendingPathComponent("goldens").path, "--record"], [],
             ["batch", "batch/walker.ca", "batch/preview", "goldens/walker"], nil),
        ]
        var random = SeededGenerator(seed: 0x7E4D)
        for (arguments, rerunArguments, folders, scratch) in commands {
            let process = try start(arguments)
            usleep(UInt32.random(in: 50_000...500_000, using: &random))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let killed = process.processIdentifier
            for folder in folders {
                let path = out.appendingPathComponent(folder)
                try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
                try Data("half a frame".utf8).write(to: path.appendingPathComponent(".walk-0000.png.\(killed)-k9.tmp"))
            }
            if let scratch {
                let folder = temporary.appendingPathComponent("keyframe-\(scratch)-\(killed)-k9/frames")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(count: 4096).write(to: folder.appendingPathComponent("walk-0000.png"))
            }

            let rerun = try start(arguments + rerunArguments)
            rerun.waitUntilExit()
            let command = arguments[0]
            XCTAssertEqual(rerun.terminationReason, .exit, command)
            XCTAssertEqual(rerun.terminationStatus, 0, command)
            XCTAssertEqual(leftovers(out), [], "\(command): temporaries left in the output folders")
            XCTAssertEqual(leftovers(temporary), [], "\(command): scratch folders left in $TMPDIR")
        }
    }
}
