import Foundation
import KeyframeTestSupport
import XCTest

/// A batch that dies part-way through an export whose input was edited — the disk fills up, or `kill -9` — has
/// replaced some of that export's outputs with ones built from the edited bytes. When the edit is then reverted, the
/// next run must not take the export for up to date: the manifest entry of the old bytes may not vouch for outputs
/// written from other bytes. Each test ends with the reverted input and asserts that OUT holds exactly what a clean
/// run of it writes.
final class BatchStaleOutputTests: XCTestCase {
    private var work: URL!
    private var root: URL!
    private var mounts: [String] = []

    override func setUpWithError() throws {
        work = try TestPaths.temporaryFolder("keyframe-batch-stale")
        root = work.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent("Samples/flump-hopbot"),
                                         to: root.appendingPathComponent("flump-hopbot"))
    }

    override func tearDownWithError() throws {
        for mount in mounts.reversed() { _ = BatchStaleOutputTests.command("/bin/umount", [mount]) }
        try? FileManager.default.removeItem(at: work)
    }

    /// Every player format, the normalized JSON and the preview: 14 outputs, the preview written last (and slowest).
    func arguments(_ out: URL) -> [String] {
        ["batch", root.path, "-o", out.path, "--to", "core-animation", "--to", "lottie", "--to", "normalized",
         "--render-previews", "--jobs", "1"]
    }

    /// The edit: the library's frame rate, 24 (as shipped) or 30; every output changes with it.
    func setFrameRate(_ rate: Int) throws {
        let library = root.appendingPathComponent("flump-hopbot/library.json")
        let text = try String(contentsOf: library, encoding: .utf8)
        let edited = text.replacingOccurrences(of: #""frameRate":\d+"#, with: "\"frameRate\":\(rate)",
                                               options: .regularExpression)
        try Data(edited.utf8).write(to: library)
    }

    /// OUT after a clean run at each frame rate.
    func references() throws -> (original: [String: [UInt8]], edited: [String: [UInt8]]) {
        let original = work.appendingPathComponent("reference-24"), edited = work.appendingPathComponent("reference-30")
        XCTAssertEqual(try BatchCLI.run(arguments(original)).status, 0)
        try setFrameRate(30)
        XCTAssertEqual(try BatchCLI.run(arguments(edited)).status, 0)
        try setFrameRate(24)
        return (BatchFixtures.snapshot(original), BatchFixtures.snapshot(edited))
    }

    /// The outputs (not OUT's own hidden files) of `snapshot` that hold the edited bytes, and how many outputs there are.
    func replaced(_ snapshot: [String: [UInt8]], _ references: (original: [String: [UInt8]], edited: [String: [UInt8]]))
        -> (replaced: Int, outputs: Int)
    {
        let outputs = references.original.keys.filter { !($0 as NSString).lastPathComponent.hasPrefix(".") }
        let replaced = outputs.filter { snapshot[$0] == references.edited[$0] && snapshot[$0] != references.original[$0] }
        return (replaced.count, outputs.count)
    }

    /// After the interrupted run: revert the edit, run again, and find exactly the original run's bytes (converted
    /// again whenever some output was replaced).
    func assertRevertedRunRestoresTheOriginal(_ out: URL, _ original: [String: [UInt8]], replaced: Int, _ context: String,
                                              file: StaticString = #filePath, line: UInt = #line) throws {
        try setFrameRate(24)
        let rerun = try BatchCLI.run(arguments(out))
        XCTAssertEqual(rerun.status, 0, "\(context): \(rerun.stderr)", file: file, line: line)
        if replaced > 0 {
            XCTAssertTrue(rerun.stdout.contains("1 exports: 1 converted"), "\(context): \(rerun.stdout)", file: file, line: line)
        }
        BatchFixtures.assertSame(BatchFixtures.snapshot(out), original, "\(context), after reverting the edit",
                                 file: file, line: line)
    }

    func testAFullDiskPartWayThroughAnExportNeverLeavesItVouchedFor() throws {
        let references = try self.references()
        let disk = try smallFilesystem("1m")
        let out = disk.appendingPathComponent("out")
        let filler = disk.appendingPathComponent("filler")
        var partly = 0
        // Free pages left for the edited run: none (the journal line cannot be written), one (the journal line, no
        // output), then enough for the small outputs but not the large ones.
        for freePages in [0, 1, 3, 6] {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: filler)
            XCTAssertEqual(try BatchCLI.run(arguments(out)).status, 0)
            try fill(disk, leaving: freePages, with: filler)
            try setFrameRate(30)
            let full = try BatchCLI.run(arguments(out))
            let context = "\(freePages) free page(s)"
            XCTAssertEqual(full.status, 1, "\(context): \(full.stdout)")
            XCTAssertTrue(full.stderr.contains("No space left on device"), "\(context): \(full.stderr)")
            let (replaced, outputs) = self.replaced(BatchFixtures.snapshot(out), references)
            if replaced > 0 && replaced < outputs { partly += 1 }
            try FileManager.default.removeItem(at: filler)
            try assertRevertedRunRestoresTheOriginal(out, references.original, replaced: replaced, context)
        }
        XCTAssertGreaterThan(partly, 0, "some run must stop with the export's outputs partly replaced")
    }

    func testAKillPartWayThroughAnExportNeverLeavesItVouchedFor() throws {
        let references = try self.references()
        let out = work.appendingPathComponent("out")
        XCTAssertEqual(try BatchCLI.run(arguments(out)).status, 0)
        // The normalized JSON is written after the player formats and before the preview is rendered: kill the run
        // as soon as it has been replaced.
        let normalized = out.appendingPathComponent("flump-hopbot.json").path
        var before = stat()
        XCTAssertEqual(stat(normalized, &before), 0)
        try setFrameRate(30)
        let process = Process()
        process.executableURL = BatchCLI.binary
        process.arguments = arguments(out)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var now = stat()
        while process.isRunning {
            if stat(normalized, &now) == 0, now.st_ino != before.st_ino { break }
            usleep(200)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal, "the run finished before it could be killed")
        let (replaced, outputs) = self.replaced(BatchFixtures.snapshot(out), references)
        XCTAssertGreaterThan(replaced, 0)
        XCTAssertLessThan(replaced, outputs, "the preview is rendered after the other outputs are replaced")
        try assertRevertedRunRestoresTheOriginal(out, references.original, replaced: replaced, "killed part-way")
    }

    // MARK: - A small disk

    @discardableResult
    static func command(_ path: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// A fresh tmpfs of `size` (root only; skips elsewhere).
    func smallFilesystem(_ size: String) throws -> URL {
        let folder = work.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard BatchStaleOutputTests.command("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", folder.path]) else {
            throw XCTSkip("cannot mount a size-limited tmpfs here (needs root and CAP_SYS_ADMIN)")
        }
        mounts.append(folder.path)
        return folder
    }

    /// Writes `filler` so that `pages` blocks of the file system are left free.
    func fill(_ disk: URL, leaving pages: Int, with filler: URL) throws {
        var info = statvfs()
        XCTAssertEqual(statvfs(disk.path, &info), 0)
        let block = Int(info.f_frsize)
        let free = Int(info.f_bavail) * block
        try Data(count: max(0, free - pages * block)).write(to: filler)
        XCTAssertEqual(statvfs(disk.path, &info), 0)
        XCTAssertEqual(Int(info.f_bavail), pages, "the file system's free blocks")
    }
}
