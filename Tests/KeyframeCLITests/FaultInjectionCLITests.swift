import Foundation
import KeyframeTestSupport
import XCTest

/// The edges where the outside world fails, through the real binary: a disk that fills up midway, a folder that
/// cannot be written, inputs that cannot be read, pipes, link loops, a 2 GiB JSON and a PNG that claims
/// 100000 × 100000 pixels. Every case must end in a clear `keyframe: error: …` (exit 1) within seconds, leave no
/// partial or temporary file, and keep what was there before. (An output path that is a directory, a FIFO or a
/// device is covered by `CLIContractTests.testOutputsAreWrittenThroughSymlinksAndSpecialFilesAreRefusedUntouched`.)
final class FaultInjectionCLITests: XCTestCase {
    var walker: URL { TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker") }
    var spinner: URL { TestPaths.packageRoot.appendingPathComponent("Samples/bta-spinner") }
    private var mounts: [String] = []

    override func tearDown() {
        for mount in mounts.reversed() { _ = command("/bin/umount", [mount]) }
        mounts = []
    }

    @discardableResult
    func command(_ path: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// A fresh tmpfs of `size` mounted on a new temporary folder (root only; skips elsewhere).
    func smallFilesystem(_ size: String) throws -> URL {
        let folder = try TestPaths.temporaryFolder("fault-fs")
        guard command("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", folder.path]) else {
            throw XCTSkip("cannot mount a size-limited tmpfs here (needs root and CAP_SYS_ADMIN)")
        }
        mounts.append(folder.path)
        return folder
    }

    /// Runs `keyframe arguments…`, failing the test when it takes longer than `limit` seconds.
    func run(_ arguments: [String], limit: Double = 20) throws -> CLIRun {
        let start = Date()
        let result = try CLIRunner.run(arguments)
        XCTAssertLessThan(Date().timeIntervalSince(start), limit, "keyframe \(arguments.joined(separator: " ")) took too long")
        return result
    }

    func names(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// A writable copy of a sample to break.
    func copy(_ sample: URL) throws -> URL {
        let folder = try TestPaths.temporaryFolder("fault-in").appendingPathComponent(sample.lastPathComponent)
        try FileManager.default.copyItem(at: sample, to: folder)
        return folder
    }

    // MARK: Outputs

    func testAFullDiskFailsTheWriteMidwayWithoutLosingTheOldFileOrLeavingAPartialOne() throws {
        let disk = try smallFilesystem("32k")
        let output = disk.appendingPathComponent("walker.json")
        try Data("previous".utf8).write(to: output)
        // The walker's JSON is about 48 KB: it cannot fit.
        let convert = try run(["convert", walker.path, "-o", output.path])
        XCTAssertEqual(convert.status, 1)
        XCTAssertTrue(convert.stderr.hasPrefix("keyframe: error: cannot write \(output.path): "), convert.stderr)
        XCTAssertTrue(convert.stderr.contains("No space left on device"), convert.stderr)
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), "previous", "the old file is intact")
        XCTAssertEqual(names(disk), ["walker.json"], "no temporary file is left behind")

        // Frames: the disk fills after a few; those written are whole, the one that failed left nothing.
        let frames = disk.appendingPathComponent("frames")
        let render = try run(["render", walker.path, "-o", frames.path])
        XCTAssertEqual(render.status, 1)
        XCTAssertTrue(render.stderr.hasPrefix("keyframe: error: cannot write \(frames.path)/"), render.stderr)
        XCTAssertTrue(render.stderr.contains("No space left on device"), render.stderr)
        let written = names(frames)
        XCTAssertLessThan(written.count, 96, "the disk is too small for every frame")
        for name in written {
            XCTAssertTrue(name.hasPrefix("walk-") && name.hasSuffix(".png"), "\(name) is a temporary or stray file")
            let bytes = [UInt8](try Data(contentsOf: frames.appendingPathComponent(name)))
            XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], name)
            XCTAssertEqual(Array(bytes.suffix(8)), Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82], "\(name) is cut short")
        }
    }

    func testAReadOnlyFolderIsAClearErrorAndKeepsItsFiles() throws {
        let disk = try smallFilesystem("1m")
        let output = disk.appendingPathComponent("walker.json")
        try Data("previous".utf8).write(to: output)
        guard command("/bin/mount", ["-o", "remount,ro", disk.path]) else { throw XCTSkip("cannot remount read-only") }
        for arguments in [["convert", walker.path, "-o", output.path],
                          ["convert", walker.path, "-o", disk.appendingPathComponent("new/walker.json").path],
                          ["render", walker.path, "-o", disk.appendingPathComponent("frames").path, "--frames", "0"]] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 1, "\(arguments)")
            XCTAssertTrue(result.stderr.hasPrefix("keyframe: error: cannot write \(disk.path)/"), result.stderr)
            XCTAssertTrue(result.stderr.contains("Read-only file system"), result.stderr)
        }
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), "previous")
        XCTAssertEqual(names(disk), ["walker.json"])
    }

    // MARK: Inputs

    func testUnreadableInputsAreNamed() throws {
        // Root reads anything: drop to `nobody` with setpriv for the run.
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("needs root and setpriv to run keyframe as another user")
        }
        let export = try copy(walker)
        let root = export.deletingLastPathComponent()
        for path in [root.path, export.path] { chmod(path, 0o755) }
        for name in names(export) { chmod(export.appendingPathComponent(name).path, 0o644) }
        chmod(export.appendingPathComponent("spritemap1.json").path, 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", CLIRunner.binary.path, "convert", export.path]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard !stderr.contains("Permission denied") || stderr.contains("spritemap1.json") else {
            throw XCTSkip("nobody cannot run the test binary here: \(stderr)")
        }
        XCTAssertEqual(process.terminationStatus, 1, stderr)
        XCTAssertTrue(stderr.hasPrefix("keyframe: error: "), stderr)
        XCTAssertTrue(stderr.contains("spritemap1.json"), stderr)
        XCTAssertTrue(stderr.contains("Permission denied"), stderr)
    }

    func testNamedPipesAreErrorsNotHangs() throws {
        let export = try copy(walker)
        for name in ["spritemap1.json", "Animation.json"] {
            let file = export.appendingPathComponent(name)
            try FileManager.default.removeItem(at: file)
            XCTAssertEqual(mkfifo(file.path, 0o644), 0)
            let result = try run(["convert", export.path], limit: 10)
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("keyframe: error: "), result.stderr)
            XCTAssertTrue(result.stderr.contains(name), result.stderr)
        }
        // An atlas image that is a pipe: conversion takes its size from the spritemap, rendering names it.
        let images = try copy(walker)
        let png = images.appendingPathComponent("spritemap1.png")
        try FileManager.default.removeItem(at: png)
        XCTAssertEqual(mkfifo(png.path, 0o644), 0)
        let render = try run(["render", images.path, "-o", images.appendingPathComponent("frames").path, "--frames", "0"],
                             limit: 10)
        XCTAssertEqual(render.status, 1, render.stderr)
        XCTAssertTrue(render.stderr.contains("spritemap1.png"), render.stderr)
    }

    func testInputsThatVanishOrLoopAreNamed() throws {
        // A symbol file listed but gone (a dangling link: listed, then not there to read).
        let dangling = try copy(spinner)
        let hub = dangling.appendingPathComponent("LIBRARY/parts/hub.json")
        try FileManager.default.removeItem(at: hub)
        try FileManager.default.createSymbolicLink(atPath: hub.path, withDestinationPath: "gone.json")
        let gone = try run(["convert", dangling.path])
        XCTAssertEqual(gone.status, 1, gone.stderr)
        XCTAssertTrue(gone.stderr.contains("hub.json"), gone.stderr)

        // A spritemap that is a link to itself.
        let looped = try copy(walker)
        let spritemap = looped.appendingPathComponent("spritemap1.json")
        try FileManager.default.removeItem(at: spritemap)
        try FileManager.default.createSymbolicLink(atPath: spritemap.path, withDestinationPath: "spritemap1.json")
        let loop = try run(["convert", looped.path])
        XCTAssertEqual(loop.status, 1, loop.stderr)
        XCTAssertTrue(loop.stderr.contains("spritemap1.json"), loop.stderr)

        // A folder link cycle inside LIBRARY/ and JSON links to each other: the export converts as before.
        let cyclic = try copy(spinner)
        try FileManager.default.createSymbolicLink(atPath: cyclic.appendingPathComponent("LIBRARY/parts/again").path,
                                                   withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: cyclic.appendingPathComponent("a.json").path, withDestinationPath: "b.json")
        try FileManager.default.createSymbolicLink(atPath: cyclic.appendingPathComponent("b.json").path, withDestinationPath: "a.json")
        let expected = try run(["convert", spinner.path])
        let result = try run(["convert", cyclic.path], limit: 10)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.replacingOccurrences(of: cyclic.path, with: spinner.path), expected.stdout)
    }

    func testATwoGigabyteJSONIsRefusedBySizeAtOnce() throws {
        let export = try copy(walker)
        let animation = export.appendingPathComponent("Animation.json")
        // Sparse: 2 GiB long, no blocks on disk, never held in memory.
        let handle = try FileHandle(forWritingTo: animation)
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        let result = try run(["convert", export.path], limit: 5)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.hasPrefix("keyframe: error: "), result.stderr)
        XCTAssertTrue(result.stderr.contains("Animation.json"), result.stderr)
        XCTAssertTrue(result.stderr.contains("2147483648 bytes, more than the 512 MiB limit"), result.stderr)
    }

    func testAPNGClaimingTenBillionPixelsIsRefusedQuickly() throws {
        let export = try copy(walker)
        try Data(Self.hugePNG(width: 100_000, height: 100_000)).write(to: export.appendingPathComponent("spritemap1.png"))
        let frames = export.appendingPathComponent("frames")
        let result = try run(["render", export.path, "-o", frames.path, "--frames", "0"], limit: 10)
        XCTAssertEqual(result.status, 1, result.stderr)
        let error = try XCTUnwrap(result.stderr.split(separator: "\n").first { $0.hasPrefix("keyframe: error: ") }, result.stderr)
        XCTAssertTrue(error.contains("spritemap1.png"), result.stderr)
        XCTAssertTrue(error.contains("exceeds user limit"), result.stderr)
        XCTAssertEqual(names(frames), [], "nothing rendered")
    }

    /// A PNG whose header claims `width` × `height` RGBA pixels, with one tiny IDAT chunk.
    static func hugePNG(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be(UInt32(data.count)) + body + be(crc32(body))
        }
        let header = be(width) + be(height) + [8, 6, 0, 0, 0]
        let idat: [UInt8] = [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
