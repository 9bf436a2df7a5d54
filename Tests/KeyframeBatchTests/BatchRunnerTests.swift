import Foundation
import KeyframeBatch
import KeyframeExport
import KeyframeImport
import KeyframeJSON
import KeyframePNG
import KeyframeTestSupport
import XCTest

/// The batch library on real sample exports: discovery, naming, determinism, incremental runs, pruning, manifests.
final class BatchRunnerTests: XCTestCase {
    private var work: URL!

    override func setUpWithError() throws {
        work = try TestPaths.temporaryFolder("keyframe-batch")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: work)
    }

    private func options(jobs: Int = 2, targets: [BatchTarget] = [.normalized]) -> BatchOptions {
        var options = BatchOptions(toolVersion: "test")
        options.jobs = jobs
        options.targets = targets
        return options
    }

    private func run(_ root: URL, _ out: URL, _ options: BatchOptions,
                     exporters: [ExportFormat: any DocumentExporter] = [:]) throws -> BatchReport {
        let exports = try BatchDiscovery.discover(roots: [root], excluding: out)
        return try BatchRunner(exports: exports, output: out, options: options, exporters: exporters).run()
    }

    func testContentHashMatchesTheReferenceXXH64() {
        // Values of the reference implementation (python-xxhash 3.x, which wraps the xxHash C library), covering
        // every path: empty, tail bytes only, 4- and 8-byte tails, full 32-byte stripes, seeds.
        XCTAssertEqual(ContentHash.digest([]), "ef46db3751d8e999")
        XCTAssertEqual(ContentHash.digest(Array("abc".utf8)), "44bc2cf5ad770999")
        XCTAssertEqual(ContentHash.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "f06103773e8585df")
        XCTAssertEqual(ContentHash.digest([UInt8](repeating: 0x61, count: 1_000_000)), "dc483aaa9b4fdc40")
        let mixed = (0..<3).flatMap { _ in (0...255).map { UInt8($0) } } + Array("xyz12".utf8)
        XCTAssertEqual(ContentHash.digest(mixed), "9b7d50c047818b1b")
        XCTAssertEqual(ContentHash.xxh64(mixed, seed: 0x9E37_79B9_7F4A_7C15), 0xae82_4fdd_b06b_c2af)
        XCTAssertEqual(ContentHash.xxh64(Array("0123456789abcdefghijklmnopqrstu".utf8), seed: 1), 0x87aa_1cfb_6939_f788)
    }

    func testDiscoveryFindsEveryExportOnceAndMirrorsTheTree() throws {
        let root = try BatchFixtures.tree(copies: 2, in: work.appendingPathComponent("in"))
        // A loose normalized document beside the export folders, and a JSON file that is not an export.
        let document = try Importer.importDocument(at: TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker"))
        try Data(document.jsonBytes()).write(to: root.appendingPathComponent("set-00/walker-normalized.json"))
        try Data("{\"settings\":true}".utf8).write(to: root.appendingPathComponent("set-00/settings.json"))
        let exports = try BatchDiscovery.discover(roots: [root], excluding: work.appendingPathComponent("out"))
        let ids = exports.map(\.id)
        XCTAssertEqual(ids.count, 11, "\(ids)")
        XCTAssert(ids.contains("set-01/bta-spinner"), "the LIBRARY split is one export, not its own: \(ids)")
        XCTAssertFalse(ids.contains { $0.contains("LIBRARY") }, "\(ids)")
        XCTAssert(ids.contains("set-00/walker-normalized.json"))
        XCTAssertFalse(ids.contains("set-00/settings.json"))
        let spinner = try XCTUnwrap(exports.first { $0.id == "set-00/bta-spinner" })
        XCTAssertEqual(spinner.name, "bta-spinner")
        XCTAssertEqual(spinner.outputFolder, "set-00")
        XCTAssert(spinner.inputFiles.contains("LIBRARY/parts/hub.json"), "\(spinner.inputFiles)")
    }

    func testLooseJSONThatCannotBeReadIsReportedAndAnEmptyTreeIsSaidSo() throws {
        // A sparse 2 GiB `.json` (over the reader's size limit) cannot be told apart from a normalized document
        // without reading it: it must fail, named, in bounded time — not vanish from the batch.
        let root = work.appendingPathComponent("in/assets")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let huge = root.appendingPathComponent("huge.json")
        XCTAssert(FileManager.default.createFile(atPath: huge.path, contents: Data("{".utf8)))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        try Data("{\"settings\":true}".utf8).write(to: root.appendingPathComponent("settings.json"))
        let out = work.appendingPathComponent("out")
        let report = try run(work.appendingPathComponent("in"), out, options(jobs: 1))
        XCTAssertEqual(report.results.map(\.id), ["assets/huge.json"])
        let error = try XCTUnwrap(report.results.first?.error, "the oversized file must fail")
        XCTAssert(error.contains("huge.json") && error.contains("limit"), error)
        XCTAssert(report.hasFailures)
        XCTAssertFalse(report.notices.contains { $0.contains("no exports") }, "\(report.notices)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("assets/huge.json").path))

        // With only files that are plainly not exports left, the batch succeeds but says it found nothing.
        try FileManager.default.removeItem(at: huge)
        let empty = try run(work.appendingPathComponent("in"), out, options(jobs: 1))
        XCTAssert(empty.results.isEmpty)
        XCTAssertFalse(empty.hasFailures)
        XCTAssert(empty.notices.contains { $0.hasPrefix("no exports found") }, "\(empty.notices)")
    }

    func testOutputsAreTheSingleConversionBytesAndIdenticalForAnyJobs() throws {
        let root = try BatchFixtures.tree(copies: 2, in: work.appendingPathComponent("in"))
        let one = try run(root, work.appendingPathComponent("out1"), options(jobs: 1))
        let four = try run(root, work.appendingPathComponent("out4"), options(jobs: 4))
        XCTAssertEqual(one.count(.converted), 10)
        XCTAssertEqual(one.jsonBytes(timings: false), four.jsonBytes(timings: false))
        let a = BatchFixtures.snapshot(work.appendingPathComponent("out1"))
        BatchFixtures.assertSame(BatchFixtures.snapshot(work.appendingPathComponent("out4")), a, "jobs 1 vs 4")
        // Each output is exactly what a single import writes.
        for sample in BatchFixtures.samples {
            let document = try Importer.importDocument(at: root.appendingPathComponent("set-01/\(sample)"))
            XCTAssertEqual(a["set-01/\(sample).json"], document.jsonBytes(), sample)
        }
    }

    func testSecondRunConvertsNothingAndAChangedInputConvertsOnlyItsExport() throws {
        let root = try BatchFixtures.tree(copies: 2, in: work.appendingPathComponent("in"))
        let out = work.appendingPathComponent("out")
        XCTAssertEqual(try run(root, out, options()).count(.converted), 10)
        let before = BatchFixtures.snapshot(out)
        let second = try run(root, out, options())
        XCTAssertEqual(second.count(.upToDate), 10)
        XCTAssertEqual(second.count(.converted), 0)
        BatchFixtures.assertSame(BatchFixtures.snapshot(out), before, "an unchanged rerun")

        // Touching a file without changing it is not a change; changing its bytes is.
        let walker = root.appendingPathComponent("set-01/animate-walker/Animation.json")
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: walker.path)
        XCTAssertEqual(try run(root, out, options()).count(.converted), 0)
        let text = try String(contentsOf: walker, encoding: .utf8)
        try Data((text + "\n").utf8).write(to: walker)
        let third = try run(root, out, options())
        XCTAssertEqual(third.results.filter { $0.status == .converted }.map(\.id), ["set-01/animate-walker"])

        // A deleted output is rebuilt; other options rebuild everything.
        try FileManager.default.removeItem(at: out.appendingPathComponent("set-00/flump-hopbot.json"))
        XCTAssertEqual(try run(root, out, options()).results.filter { $0.status == .converted }.map(\.id),
                       ["set-00/flump-hopbot"])
        var other = options()
        other.scaleFactor = 2
        XCTAssertEqual(try run(root, out, other).count(.converted), 10)
        var newer = options()
        newer.toolVersion = "test-2"
        XCTAssertEqual(try run(root, out, newer).count(.converted), 10)
    }

    func testPruneRemovesOnlyTheOutputsOfVanishedExports() throws {
        let root = try BatchFixtures.tree(copies: 2, in: work.appendingPathComponent("in"))
        let out = work.appendingPathComponent("out")
        _ = try run(root, out, options())
        try FileManager.default.removeItem(at: root.appendingPathComponent("set-00/dragonbones-waver"))
        try FileManager.default.removeItem(at: root.appendingPathComponent("set-01"))
        // Without --prune the outputs stay (and stay recorded, so a later --prune still finds them).
        let kept = try run(root, out, options())
        XCTAssertEqual(kept.pruned, [])
        XCTAssert(FileManager.default.fileExists(atPath: out.appendingPathComponent("set-01/animate-walker.json").path))
        // A file of the user's in OUT is never touched.
        try Data("mine".utf8).write(to: out.appendingPathComponent("set-01/notes.txt"))
        var pruning = options()
        pruning.prune = true
        let report = try run(root, out, pruning)
        XCTAssertEqual(report.pruned, ["set-00/dragonbones-waver.json"] + BatchFixtures.samples.map { "set-01/\($0).json" })
        XCTAssertEqual(report.count(.upToDate), 4)
        let left = BatchFixtures.snapshot(out).keys.sorted()
        XCTAssertEqual(left, [".keyframe-manifest.json"] + ["animate-bouncer-long", "animate-walker", "bta-spinner",
                                                             "flump-hopbot"].map { "set-00/\($0).json" } + ["set-01/notes.txt"])
        let manifest = try JSONParser.parse([UInt8](Data(contentsOf: out.appendingPathComponent(".keyframe-manifest.json"))))
        XCTAssertEqual(manifest["exports"]?.objectValue?.keys.sorted(),
                       ["animate-bouncer-long", "animate-walker", "bta-spinner", "flump-hopbot"].map { "set-00/\($0)" })
    }

    func testCorruptOrNewerManifestIsRebuiltAndSaidSo() throws {
        let root = try BatchFixtures.tree(copies: 1, in: work.appendingPathComponent("in"))
        let out = work.appendingPathComponent("out")
        _ = try run(root, out, options())
        let good = BatchFixtures.snapshot(out)
        let manifest = out.appendingPathComponent(".keyframe-manifest.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)

        try Data(text.prefix(text.count / 2).utf8).write(to: manifest)
        let corrupt = try run(root, out, options())
        XCTAssertEqual(corrupt.count(.converted), 5)
        XCTAssert(corrupt.notices.contains { $0.contains("is corrupt") && $0.contains("rebuilding") }, "\(corrupt.notices)")
        BatchFixtures.assertSame(BatchFixtures.snapshot(out), good, "after rebuilding a corrupt manifest")

        try Data(text.replacingOccurrences(of: "\"version\" : 3", with: "\"version\" : 7").utf8).write(to: manifest)
        let newer = try run(root, out, options())
        XCTAssertEqual(newer.count(.converted), 5)
        XCTAssert(newer.notices.contains { $0.contains("newer keyframe") && $0.contains("version 7") }, "\(newer.notices)")
        BatchFixtures.assertSame(BatchFixtures.snapshot(out), good, "after replacing a newer manifest")

        // Version 1 recorded SHA-256 digests, version 2 no digests of the outputs: neither can vouch for what OUT holds,
        // so each is rebuilt too (every export converted once more).
        for version in [1, 2] {
            try Data(text.replacingOccurrences(of: "\"version\" : 3", with: "\"version\" : \(version)").utf8).write(to: manifest)
            let older = try run(root, out, options())
            XCTAssertEqual(older.count(.converted), 5)
            XCTAssert(older.notices.contains { $0.contains("older keyframe") && $0.contains("version \(version)") },
                      "\(older.notices)")
            BatchFixtures.assertSame(BatchFixtures.snapshot(out), good, "after replacing a version \(version) manifest")
        }
    }

    /// A killed run leaves the previous manifest and a journal of the exports it finished: the next run counts those
    /// as done, ignores a torn last line, and folds the journal into the manifest. A run that changes nothing
    /// leaves the manifest untouched.
    func testJournalOfAKilledRunIsReadAndFoldedIntoTheManifest() throws {
        let root = try BatchFixtures.tree(copies: 1, in: work.appendingPathComponent("in"))
        let out = work.appendingPathComponent("out")
        _ = try run(root, out, options())
        let good = BatchFixtures.snapshot(out)
        let manifestURL = out.appendingPathComponent(".keyframe-manifest.json")
        let manifest = try JSONParser.parse([UInt8](Data(contentsOf: manifestURL)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent(".keyframe-manifest.journal").path))

        // As if killed after two exports: no manifest yet, two whole journal lines and a torn third.
        try FileManager.default.removeItem(at: manifestURL)
        var journal = ""
        for id in ["set-00/animate-walker", "set-00/flump-hopbot"] {
            let entry = try XCTUnwrap(manifest["exports"]?[id])
            journal += String(decoding: JSONWriter.writeCompact(.object(["id": .string(id), "entry": entry])), as: UTF8.self) + "\n"
        }
        journal += "{\"id\":\"set-00/bta-spinner\",\"entry\":{\"inp"
        try Data(journal.utf8).write(to: out.appendingPathComponent(".keyframe-manifest.journal"))
        let resumed = try run(root, out, options())
        XCTAssertEqual(resumed.results.filter { $0.status == .upToDate }.map(\.id),
                       ["set-00/animate-walker", "set-00/flump-hopbot"])
        XCTAssertEqual(resumed.count(.converted), 3)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent(".keyframe-manifest.journal").path))
        BatchFixtures.assertSame(BatchFixtures.snapshot(out), good, "after resuming from a journal")

        let written = try FileManager.default.attributesOfItem(atPath: manifestURL.path)[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(try run(root, out, options()).count(.upToDate), 5)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: manifestURL.path)[.modificationDate] as? Date, written)

        // Killed while writing outputs: a "started" line makes the entry vouch for nothing, whatever the manifest says,
        // and the files it names that the export no longer writes go; one that a finished line follows does not (the
        // export got its new entry). A torn line before it does not hide it.
        let walkerEntry = try XCTUnwrap(manifest["exports"]?["set-00/animate-walker"])
        try Data("{}".utf8).write(to: out.appendingPathComponent("set-00/spinner-clip.json"))
        let lines = [
            "{\"id\":\"set-00/flump-hopbot\",\"entry\":{\"inp",
            "{\"id\":\"set-00/bta-spinner\",\"started\":[\"set-00/bta-spinner.json\",\"set-00/spinner-clip.json\"]}",
            "{\"id\":\"set-00/animate-walker\",\"started\":[\"set-00/animate-walker.json\"]}",
            String(decoding: JSONWriter.writeCompact(.object(["id": .string("set-00/animate-walker"), "entry": walkerEntry])),
                   as: UTF8.self),
        ]
        try Data(lines.joined(separator: "\n").utf8).write(to: out.appendingPathComponent(".keyframe-manifest.journal"))
        let started = try run(root, out, options())
        XCTAssertEqual(started.results.filter { $0.status == .converted }.map(\.id), ["set-00/bta-spinner"])
        XCTAssertEqual(started.count(.upToDate), 4)
        BatchFixtures.assertSame(BatchFixtures.snapshot(out), good, "after a journal with started lines")
    }

    /// The stat cache spares reruns the hashing of unchanged files, and never hides a change: a touched file is
    /// hashed (and found unchanged), a rewrite that restores size and modification time is still caught (its change
    /// time moved), a file changed moments ago is not trusted, and a corrupt cache only costs hashing.
    func testStatCacheSkipsHashingUnchangedFilesButNeverHidesAChange() throws {
        let root = try BatchFixtures.tree(copies: 1, in: work.appendingPathComponent("in"))
        let out = work.appendingPathComponent("out")
        let exports = try BatchDiscovery.discover(roots: [root], excluding: out)
        let fileCount = exports.reduce(0) { $0 + $1.inputFiles.count }
        let byteCount = exports.reduce(0) { $0 + $1.size }
        // Files are only trusted by their status once their times are two seconds old.
        Thread.sleep(forTimeInterval: 2.2)

        let first = try run(root, out, options())
        XCTAssertEqual(first.count(.converted), 5)
        XCTAssertEqual(first.inputsRead.files, fileCount, "every input read and hashed once")
        XCTAssertEqual(first.inputsRead.bytes, byteCount)
        let converted = BatchFixtures.snapshot(out)

        let second = try run(root, out, options())
        XCTAssertEqual(second.count(.upToDate), 5)
        XCTAssertEqual(second.inputsRead.files, 0, "an unchanged tree is checked by status alone")
        // The outputs were written moments before the second run: their status does not vouch for them yet.
        XCTAssertEqual(second.outputsChecked.files, 5)
        XCTAssertEqual(second.outputsChecked.bytes, converted.filter { !$0.key.hasPrefix(".") }.reduce(0) { $0 + $1.value.count })

        // Touched, not changed: hashed, found equal, nothing converted.
        let json = root.appendingPathComponent("set-00/animate-walker/Animation.json")
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: json.path)
        let touched = try run(root, out, options())
        XCTAssertEqual(touched.count(.upToDate), 5)
        XCTAssertEqual(touched.inputsRead.files, 1)
        // Changed moments ago, so its status does not vouch for it yet: hashed again.
        XCTAssertEqual(try run(root, out, options()).inputsRead.files, 1)
        BatchFixtures.assertSame(BatchFixtures.snapshot(out), converted, "after touching a file")

        // Same size, same modification time, other bytes: caught through the change time.
        Thread.sleep(forTimeInterval: 2.2)
        XCTAssertEqual(try run(root, out, options()).inputsRead.files, 1, "the touched file, now settled and entered")
        let settled = try run(root, out, options())
        XCTAssertEqual(settled.inputsRead.files, 0)
        XCTAssertEqual(settled.outputsChecked.files, 0, "settled outputs are checked by status alone")
        let png = root.appendingPathComponent("set-00/animate-walker/spritemap1.png")
        var before = stat()
        XCTAssertEqual(stat(png.path, &before), 0)
        var bytes = [UInt8](try Data(contentsOf: png))
        bytes[bytes.count - 1] ^= 0xFF
        try Data(bytes).write(to: png)
        // Restore access and modification times to the nanosecond.
        let times = [before.st_atim, before.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, png.path, times, 0), 0)
        var after = stat()
        XCTAssertEqual(stat(png.path, &after), 0)
        XCTAssertEqual(after.st_size, before.st_size)
        XCTAssertEqual(after.st_mtim.tv_sec, before.st_mtim.tv_sec)
        XCTAssertEqual(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec)
        let rewritten = try run(root, out, options())
        XCTAssertEqual(rewritten.results.filter { $0.status == .converted }.map(\.id), ["set-00/animate-walker"])

        // A corrupt cache: everything hashed, nothing converted, no error.
        try Data("{ not json".utf8).write(to: out.appendingPathComponent(".keyframe-stat-cache.json"))
        let uncached = try run(root, out, options())
        XCTAssertEqual(uncached.count(.upToDate), 5)
        XCTAssertEqual(uncached.inputsRead.files, fileCount)
        XCTAssertEqual(uncached.notices, [])
    }

    /// An output that no longer holds what the manifest recorded — cut short, or the same size with other bytes and
    /// its modification time put back — is noticed on the next run, and only its export is converted again.
    func testATruncatedOrCorruptedOutputIsNoticedAndConvertedAgain() throws {
        let root = try BatchFixtures.tree(copies: 1, in: work.appendingPathComponent("in"))
        let out = work.appendingPathComponent("out")
        XCTAssertEqual(try run(root, out, options()).count(.converted), 5)
        let good = BatchFixtures.snapshot(out)

        let walker = out.appendingPathComponent("set-00/animate-walker.json")
        let bytes = try Data(contentsOf: walker)
        try bytes.prefix(bytes.count - 1).write(to: walker)
        let spinner = out.appendingPathComponent("set-00/bta-spinner.json")
        var before = stat()
        XCTAssertEqual(stat(spinner.path, &before), 0)
        var other = [UInt8](try Data(contentsOf: spinner))
        other[other.count / 2] = other[other.count / 2] == 0x20 ? 0x09 : 0x20
        try Data(other).write(to: spinner)
        XCTAssertEqual(utimensat(AT_FDCWD, spinner.path, [before.st_atim, before.st_mtim], 0), 0)

        let rerun = try run(root, out, options())
        XCTAssertEqual(rerun.results.filter { $0.status == .converted }.map(\.id),
                       ["set-00/animate-walker", "set-00/bta-spinner"])
        XCTAssertEqual(rerun.count(.upToDate), 3)
        BatchFixtures.assertSame(BatchFixtures.snapshot(out), good, "after converting the damaged outputs again")
        // The manifest records what each output holds.
        let manifest = try JSONParser.parse([UInt8](Data(contentsOf: out.appendingPathComponent(".keyframe-manifest.json"))))
        let record = manifest["exports"]?["set-00/animate-walker"]?["outputs"]?["set-00/animate-walker.json"]
        XCTAssertEqual(record?["size"]?.doubleValue, Double(bytes.count))
        XCTAssertEqual(record?["digest"]?.stringValue, ContentHash.digest([UInt8](bytes)))
    }

    func testCollidingOutputNamesFailBeforeAnyWork() throws {
        let root = try BatchFixtures.tree(copies: 1, in: work.appendingPathComponent("in"))
        let document = try Importer.importDocument(at: root.appendingPathComponent("set-00/animate-walker"))
        try Data(document.jsonBytes()).write(to: root.appendingPathComponent("set-00/Animate-Walker.json"))
        let out = work.appendingPathComponent("out")
        XCTAssertThrowsError(try run(root, out, options())) { error in
            let message = "\(error)"
            XCTAssert(message.contains("set-00/animate-walker and set-00/Animate-Walker.json would both write")
                      || message.contains("set-00/Animate-Walker.json and set-00/animate-walker would both write"), message)
        }
        XCTAssertEqual(BatchFixtures.snapshot(out).count, 0, "nothing may be written")
    }

    func testOutputFolderThatCannotBeWrittenFailsBeforeAnyWork() throws {
        let root = try BatchFixtures.tree(copies: 1, in: work.appendingPathComponent("in"))
        let file = work.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        XCTAssertThrowsError(try run(root, file, options())) { XCTAssert("\($0)".contains("is not a folder"), "\($0)") }
        XCTAssertThrowsError(try run(root, file.appendingPathComponent("out"), options())) {
            XCTAssert("\($0)".contains("cannot create the output folder"), "\($0)")
        }
        if getuid() != 0 {
            let locked = work.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }
            XCTAssertThrowsError(try run(root, locked, options())) {
                XCTAssert("\($0)".contains("cannot write to the output folder"), "\($0)")
            }
        }
    }

    /// The lock is the folder's, not only the lock file's: deleting the file while a batch runs lets no second batch
    /// in. A lock path that is not a file is an error that names it.
    func testTheLockSurvivesItsFileBeingDeletedAndALockPathThatIsAFolderIsNamed() throws {
        let out = work.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let lockFile = out.appendingPathComponent(BatchLock.fileName)
        let held = try BatchLock(folder: out.path)
        try FileManager.default.removeItem(at: lockFile)
        XCTAssertThrowsError(try BatchLock(folder: out.path)) {
            XCTAssert("\($0)".hasPrefix("another keyframe batch is writing to \(out.path)"), "\($0)")
        }
        held.release()
        XCTAssertNoThrow(try BatchLock(folder: out.path).release())

        try FileManager.default.removeItem(at: lockFile)
        try FileManager.default.createDirectory(at: lockFile, withIntermediateDirectories: false)
        let root = try BatchFixtures.tree(copies: 1, in: work.appendingPathComponent("in"))
        XCTAssertThrowsError(try run(root, out, options())) {
            XCTAssertEqual("\($0)", "cannot lock the output folder \(out.path): its lock file \(lockFile.path) is a folder; "
                           + "remove it (keyframe batch creates it)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), [BatchLock.fileName], "nothing written")
    }

    func testExporterOutputsAreNamedByClipCountAndCompanions() throws {
        let root = try BatchFixtures.tree(copies: 1, in: work.appendingPathComponent("in"))
        let out = work.appendingPathComponent("out")
        let targets: [BatchTarget] = [.normalized, .exporter(.lottie), .exporter(.coreAnimation)]
        let exporters: [ExportFormat: any DocumentExporter] = [
            .lottie: TestExporter(format: .lottie), .coreAnimation: TestExporter(format: .coreAnimation, companions: true),
        ]
        let report = try run(root, out, options(targets: targets), exporters: exporters)
        XCTAssertEqual(report.count(.converted), 5, "\(report.results.compactMap(\.error))")
        let files = BatchFixtures.snapshot(out)
        for sample in BatchFixtures.samples {
            let document = try Importer.importDocument(at: root.appendingPathComponent("set-00/\(sample)"))
            XCTAssertEqual(files["set-00/\(sample).json"], document.jsonBytes())
            if document.clips.count == 1 {
                let clip = document.clips[0].name
                XCTAssertNotNil(files["set-00/\(sample).lottie.json"], sample)
                XCTAssertNotNil(files["set-00/\(sample).ca/\(clip).json"], "companions need a folder: \(sample)")
                XCTAssertEqual(files["set-00/\(sample).ca/images/\(clip).txt"], Array(clip.utf8))
            } else {
                for clip in document.clips {
                    XCTAssertNotNil(files["set-00/\(sample).lottie/\(clip.name).json"], "\(sample) \(clip.name)")
                }
                XCTAssertNil(files["set-00/\(sample).lottie.json"])
            }
        }
        // Warnings are counted per export; under --strict they fail it.
        var strict = options(targets: [.exporter(.lottie)])
        let warning: [ExportFormat: any DocumentExporter] = [.lottie: TestExporter(warning: "masks are approximated")]
        let warned = try run(root, work.appendingPathComponent("warned"), strict, exporters: warning)
        XCTAssertEqual(warned.warningCount, 5)
        XCTAssert(warned.results.allSatisfy { $0.warnings == ["lottie: warning: masks are approximated [test.warning]"]
            || $0.warnings.first?.contains("masks are approximated") == true }, "\(warned.results.map(\.warnings))")
        strict.strict = true
        let failed = try run(root, work.appendingPathComponent("strict"), strict, exporters: warning)
        XCTAssertEqual(failed.count(.failed), 5)
        XCTAssert(failed.results.allSatisfy { $0.error?.contains("masks are approximated") == true })
        // A format this build has no exporter for is a usage error before anything happens.
        XCTAssertThrowsError(try run(root, work.appendingPathComponent("none"), options(targets: [.exporter(.lottie)]),
                                     exporters: [:])) { error in
            XCTAssertEqual((error as? BatchError)?.kind, .usage)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("none").path))
    }

    /// The real Core Animation exporter in folder layout: one folder per export whatever its clip count, each clip's
    /// file and the pictures it shares with other clips written once, the bytes the exporter made.
    /// `--png fast` reaches the exporters (the files are `keyframe export --png fast`'s), and changing the preset
    /// reconverts: it is part of what the manifest compares.
    func testPicturePresetReachesTheExportersAndReconverts() throws {
        let root = work.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let sample = TestPaths.packageRoot.appendingPathComponent("Samples/flump-hopbot")
        try FileManager.default.copyItem(at: sample, to: root.appendingPathComponent("flump-hopbot"))
        let out = work.appendingPathComponent("out")
        let exporters: [ExportFormat: any DocumentExporter] = [.lottie: LottieExporter()]
        let document = try Importer.importDocument(at: sample)
        func expected(_ preset: PNGPreset) throws -> [String: [UInt8]] {
            var export = ExportOptions()
            export.pictures = preset
            let result = try LottieExporter().export(document, assetsFolder: sample, options: export)
            return Dictionary(uniqueKeysWithValues: result.clips.map { ("flump-hopbot.lottie/" + $0.main.relativePath, $0.main.bytes) })
        }
        var fast = options(jobs: 1, targets: [.exporter(.lottie)])
        fast.pictures = .fast
        XCTAssertEqual(try run(root, out, fast, exporters: exporters).count(.converted), 1)
        let fastFiles = BatchFixtures.snapshot(out).filter { $0.key.hasPrefix("flump-hopbot.lottie/") }
        BatchFixtures.assertSame(fastFiles, try expected(.fast), "batch with the fast preset")
        XCTAssertEqual(try run(root, out, fast, exporters: exporters).count(.upToDate), 1)
        let compact = options(jobs: 1, targets: [.exporter(.lottie)])
        XCTAssertEqual(try run(root, out, compact, exporters: exporters).count(.converted), 1, "a preset change reconverts")
        let compactFiles = BatchFixtures.snapshot(out).filter { $0.key.hasPrefix("flump-hopbot.lottie/") }
        BatchFixtures.assertSame(compactFiles, try expected(.compact), "batch with the default preset")
        XCTAssertNotEqual(fastFiles, compactFiles)
    }

    func testPlayerFoldersHoldEveryClipAndSharedPicturesOnce() throws {
        let root = try BatchFixtures.tree(copies: 1, in: work.appendingPathComponent("in"))
        let out = work.appendingPathComponent("out")
        guard let exporter = Exporters.exporter(for: .coreAnimation) else { throw XCTSkip("no Core Animation exporter") }
        var folders = options(targets: [.exporter(.coreAnimation)])
        folders.playerFolders = true
        let report = try run(root, out, folders, exporters: [.coreAnimation: exporter])
        XCTAssertEqual(report.count(.converted), 5, "\(report.results.compactMap(\.error))")
        let files = BatchFixtures.snapshot(out)
        for sample in BatchFixtures.samples {
            let folder = root.appendingPathComponent("set-00/\(sample)")
            let result = try exporter.export(try Importer.importDocument(at: folder), assetsFolder: folder, options: ExportOptions())
            XCTAssertNil(files["set-00/\(sample).ca.json"], sample)
            for clip in result.clips {
                XCTAssertEqual(files["set-00/\(sample).ca/\(clip.main.relativePath)"], clip.main.bytes, "\(sample) \(clip.clip)")
                for companion in clip.companions {
                    XCTAssertEqual(files["set-00/\(sample).ca/\(companion.relativePath)"], companion.bytes, "\(sample) \(companion.relativePath)")
                }
            }
        }
        // The folder layout is part of the options: switching it converts again.
        folders.playerFolders = false
        XCTAssertEqual(try run(root, out, folders, exporters: [.coreAnimation: exporter]).count(.converted), 5)
    }

    func testInputsListNamesExportsRelativeToItsFolder() throws {
        let root = try BatchFixtures.tree(copies: 1, in: work.appendingPathComponent("in"))
        let list = root.appendingPathComponent("exports.txt")
        try Data("# assets to ship\nset-00/animate-walker\n\nset-00/dragonbones-waver/waver_ske.json\nset-00/bta-spinner/LIBRARY\n".utf8)
            .write(to: list)
        let exports = try BatchDiscovery.read(list: list)
        XCTAssertEqual(exports.map(\.id), ["set-00/animate-walker", "set-00/bta-spinner",
                                          "set-00/dragonbones-waver/waver_ske.json"])
        XCTAssertEqual(exports.map(\.name), ["animate-walker", "bta-spinner", "waver"])
        try Data("set-00/animate-walker\nset-00/nothing-here\n".utf8).write(to: list)
        XCTAssertThrowsError(try BatchDiscovery.read(list: list)) {
            XCTAssert("\($0)".contains("exports.txt:2: set-00/nothing-here: no such file or folder"), "\($0)")
        }
    }

    func testPreviewsAreContactSheetsBesideTheOutputs() throws {
        let root = try BatchFixtures.tree(copies: 1, in: work.appendingPathComponent("in"))
        let out = work.appendingPathComponent("out")
        var previews = options()
        previews.previews = true
        let report = try run(root, out, previews)
        XCTAssertEqual(report.count(.converted), 5, "\(report.results.compactMap(\.error))")
        for sample in BatchFixtures.samples {
            let png = try Data(contentsOf: out.appendingPathComponent("set-00/preview/\(sample).png"))
            XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], sample)
        }
    }
}
