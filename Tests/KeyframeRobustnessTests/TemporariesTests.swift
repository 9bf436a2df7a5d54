import Foundation
import KeyframeFiles
import KeyframeTestSupport
import XCTest

/// What a killed writer leaves — `.NAME.<pid>-<random>.tmp` files and `keyframe-<purpose>-<pid>-<random>` scratch
/// folders — is removed by the next writer into the same folder, and nothing else is: not the temporaries of a
/// writer that still runs or holds its lock, not names of other patterns, not links, and nothing a link points to.
final class TemporariesTests: XCTestCase {
    private var folder: URL!
    private var sleeper: Process?

    override func setUpWithError() throws {
        folder = try TestPaths.temporaryFolder("temporaries")
    }

    override func tearDownWithError() throws {
        sleeper?.terminate()
        sleeper?.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The id of a process that has ended (and been waited for).
    func endedProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    /// The id of a process that runs until the test ends.
    func runningProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["60"]
        try process.run()
        sleeper = process
        return process.processIdentifier
    }

    func touch(_ name: String) throws {
        try Data("partial".utf8).write(to: folder.appendingPathComponent(name))
    }

    func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    func testAWriteRemovesTheTemporariesOfGoneWritersOnlyInItsFolder() throws {
        let gone = try endedProcessID()
        let running = try runningProcessID()
        let stale = [".walk-0000.png.\(gone)-k3x9.tmp", ".a name with spaces.json.\(gone)-0.tmp",
                     ".keyframe-check.\(gone)-zz.tmp"]
        let kept = [
            ".walk-0001.png.\(running)-k3x9.tmp",  // its writer runs
            ".walk-0002.png.\(getpid())-k3x9.tmp",  // this process writes it
            ".walk-0003.png.k3x9.tmp",  // the older unmarked form: its writer cannot be known
            ".notes.tmp", "walk.png.\(gone)-k3x9.tmp", ".walk.png.\(gone)-K3X9.tmp", ".walk.png.\(gone)_k3x9.tmp",
            ".walk.png.\(gone)-k3x9.tmp.bak", "walk-0000.png",
        ]
        for name in stale + kept { try touch(name) }
        // A folder and a link named like stale temporaries are not files a writer made.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".dir.png.\(gone)-ab.tmp"),
                                                withIntermediateDirectories: false)
        let outside = try TestPaths.temporaryFolder("temporaries-outside").appendingPathComponent("keep.txt")
        try Data("keep".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(".link.png.\(gone)-ab.tmp").path,
                                                   withDestinationPath: outside.path)
        // A stale name in a subfolder is not this write's folder.
        let sub = folder.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: false)
        try Data().write(to: sub.appendingPathComponent(".x.\(gone)-ab.tmp"))

        try AtomicFile.write(Array("new".utf8), to: folder.appendingPathComponent("out.json").path)
        XCTAssertEqual(names(), (kept + ["out.json", "sub", ".dir.png.\(gone)-ab.tmp", ".link.png.\(gone)-ab.tmp"]).sorted())
        XCTAssertEqual(try String(contentsOf: outside, encoding: .utf8), "keep")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sub.path), [".x.\(gone)-ab.tmp"])

        // The whole tree, for an owner that holds the folder's lock: unmarked names go too, links and folders stay.
        let removed = Temporaries.sweepTree(folder.path, includingUnmarked: true)
        XCTAssertEqual(removed, [".walk-0003.png.k3x9.tmp", "sub/.x.\(gone)-ab.tmp"])
        XCTAssertTrue(names().contains(".walk-0001.png.\(running)-k3x9.tmp"))
    }

    func testATemporaryWhoseLockIsHeldIsKeptEvenWhenItsProcessSeemsGone() throws {
        // A writer in another pid namespace: its pid means nothing here, its lock does.
        let gone = try endedProcessID()
        let name = ".frame.png.\(gone)-abc.tmp"
        try touch(name)
        let fd = open(folder.appendingPathComponent(name).path, O_WRONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        XCTAssertEqual(Temporaries.sweep(folder.path), [])
        XCTAssertEqual(names(), [name])
        close(fd)
        XCTAssertEqual(Temporaries.sweep(folder.path), [name])
        XCTAssertEqual(names(), [])
    }

    func testATargetNameNearTheLengthLimitStillGetsATemporary() throws {
        // Seen from outside while one is open: the name carries this process's id and the writer holds its lock.
        let target = folder.appendingPathComponent(String(repeating: "é", count: 120) + ".json").path
        try AtomicFile.write(Array(repeating: 1, count: 10), to: target)
        XCTAssertEqual(names(), [String(repeating: "é", count: 120) + ".json"], "a 240-byte name still gets a temporary")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)).count, 10)
    }

    func testANewScratchFolderRemovesTheScratchFoldersOfGoneWriters() throws {
        let gone = try endedProcessID()
        let running = try runningProcessID()
        let outside = try TestPaths.temporaryFolder("temporaries-outside")
        try Data("keep".utf8).write(to: outside.appendingPathComponent("keep.txt"))
        let stale = ["keyframe-verify-\(gone)-1x2y", "keyframe-preview-\(gone)-0",
                     "keyframe-verify-\(gone)-3F2504E0-4F89-11D3-9A0C-0305E82C3301"]
        for name in stale {
            let frames = folder.appendingPathComponent(name).appendingPathComponent("frames")
            try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
            try Data(count: 1000).write(to: frames.appendingPathComponent("walk-0000.png"))
            // Links inside are removed, never followed.
            try FileManager.default.createSymbolicLink(atPath: frames.appendingPathComponent("out").path,
                                                       withDestinationPath: outside.path)
        }
        let kept = ["keyframe-verify-\(running)-1x2y", "keyframe-verify-notes", "keyframe-render-\(gone)-1x2y",
                    "keyframe-verify-\(gone)", "my-keyframe-verify-\(gone)-1x2y"]
        for name in kept {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: false)
        }
        try touch("keyframe-preview-\(gone)-ab")  // a file, not a folder

        var scratch: ScratchFolder? = try ScratchFolder(.verify, in: folder.path)
        let own = try XCTUnwrap(scratch?.path)
        XCTAssertTrue(own.hasPrefix(folder.path + "/keyframe-verify-\(getpid())-"), own)
        XCTAssertEqual(names(), (kept + ["keyframe-preview-\(gone)-ab", URL(fileURLWithPath: own).lastPathComponent]).sorted())
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside.path), ["keep.txt"])

        // A scratch folder whose lock is held stays, whatever its name says of its writer.
        let locked = folder.appendingPathComponent("keyframe-preview-\(gone)-zz").path
        XCTAssertEqual(mkdir(locked, 0o700), 0)
        let fd = open(locked, O_RDONLY | O_DIRECTORY)
        XCTAssertEqual(flock(fd, LOCK_EX), 0)
        XCTAssertEqual(Temporaries.sweep(folder.path), [])
        close(fd)
        XCTAssertEqual(Temporaries.sweep(folder.path), ["keyframe-preview-\(gone)-zz"])

        try Data().write(to: URL(fileURLWithPath: own).appendingPathComponent("frame.png"))
        scratch = nil
        XCTAssertFalse(FileManager.default.fileExists(atPath: own), "removed with everything in it when it goes away")
    }
}
