import Dispatch
import Foundation
import KeyframeExport
import KeyframeFiles
import KeyframeImport
import KeyframeModel
import KeyframeRender

/// Converts a list of exports into OUT: in parallel, only what changed, atomically, and keeping going past failures.
///
/// ```swift
/// let exports = try BatchDiscovery.discover(roots: [assets], excluding: out)
/// var options = BatchOptions(toolVersion: "0.1.0")
/// options.jobs = 4
/// let report = try BatchRunner(exports: exports, output: out, options: options).run()
/// ```
///
/// Order of work: check output names for collisions and that OUT is writable (before anything is converted), take
/// the lock of OUT (or of the state folder, ``BatchOptions/stateFolder``, where the manifest then lives too), remove
/// temporary files a killed run left, read the manifest (and the journal of a killed run), then
/// convert — largest exports first, each worker taking the next one when it is done. Each input file is read once
/// (`InputSet`): its bytes are hashed and handed to the importer; a rerun skips reading files whose `stat` is
/// unchanged (`BatchStatCache`). An export is up to date when its inputs, options and tool are unchanged and every
/// output still holds the bytes recorded (size, then content hash when its `stat` changed). Each export's outputs are
/// built in memory; before the first of them is written, the export's entry becomes pending, naming every file about
/// to be written (a "started" line in the `BatchJournal`); they are written through `AtomicFile`, and only then is
/// the export recorded (a finished line); the manifest is written atomically once at the end. So a run killed at any moment, or stopped by a
/// full disk, leaves complete files, and the manifest vouches only for exports whose outputs are all in place and
/// were written from the inputs it records.
public struct BatchRunner: Sendable {
    /// The exports, in any order.
    public var exports: [BatchExport]
    /// The output folder.
    public var output: URL
    public var options: BatchOptions
    /// The exporters of the player formats in ``BatchOptions/targets`` (normally from `Exporters`).
    public var exporters: [ExportFormat: any DocumentExporter]

    public init(exports: [BatchExport], output: URL, options: BatchOptions,
                exporters: [ExportFormat: any DocumentExporter]? = nil) {
        self.exports = exports
        self.output = output
        self.options = options
        if let exporters {
            self.exporters = exporters
        } else {
            var found: [ExportFormat: any DocumentExporter] = [:]
            for format in ExportFormat.allCases { found[format] = Exporters.exporter(for: format) }
            self.exporters = found
        }
    }

    /// Runs the batch. `progress` is called after each export with (exports done, total, export id).
    ///
    /// - Throws: ``BatchError`` when the batch cannot start (a missing exporter, colliding outputs, an unusable or
    ///   locked OUT). Failures of single exports are in the report.
    public func run(progress: (@Sendable (_ done: Int, _ total: Int, _ id: String) -> Void)? = nil)
        throws(BatchError) -> BatchReport
    {
        for target in options.orderedTargets {
            if case .exporter(let format) = target, exporters[format] == nil {
                throw BatchError(.usage, "--to \(format.rawValue) is not available in this build (available: "
                                 + (["normalized"] + exporters.keys.map(\.rawValue).sorted()).joined(separator: ", ") + ")")
            }
        }
        var seen: [String: Int] = [:]
        for export in exports { seen[export.id, default: 0] += 1 }
        if let duplicate = seen.filter({ $0.value > 1 }).keys.sorted().first {
            throw BatchError(.input, "the export \(duplicate) is named twice")
        }
        let collisions = OutputNaming.collisions(exports.sorted { $0.id < $1.id }, options: options)
        if !collisions.isEmpty {
            throw BatchError(.input, "output names collide, nothing was converted:\n  " + collisions.joined(separator: "\n  "))
        }
        let folder = try prepareFolder(output, role: "output")
        let stateFolder = try options.stateFolder.map { (url) throws(BatchError) in try prepareFolder(url, role: "state") }
            ?? folder
        let lock = try BatchLock(folder: stateFolder)
        defer { lock.release() }
        try probeWritable(folder)

        var notices: [String] = []
        if exports.isEmpty {
            notices.append("no exports found (Animate, DragonBones or Flump export folders, or normalized documents)")
        }
        // The lock says no other batch writes here, so temporaries of the older unmarked form go too.
        let strays = Temporaries.sweepTree(folder, includingUnmarked: true).count
            + (stateFolder == folder ? 0 : Temporaries.sweepTree(stateFolder, includingUnmarked: true).count)
        if strays > 0 {
            notices.append("removed \(strays) temporary file\(strays == 1 ? "" : "s") left by an interrupted run")
        }
        let verifyRun: BatchVerifyRun?
        if let verify = options.verify {
            verifyRun = try BatchVerifyRun(options: verify, batch: options, folder: folder, exportCount: exports.count)
        } else {
            verifyRun = nil
        }
        let loaded = BatchManifest.loadWithJournal(folder: stateFolder)
        if let notice = loaded.notice { notices.append(notice) }
        let statCache = BatchStatCache.load(folder: stateFolder)
        let tool = toolIdentity(statCache: statCache, notices: &notices)
        let state = RunState(manifest: loaded.manifest, folder: folder, stateFolder: stateFolder,
                             statCache: statCache, tool: tool, dirty: loaded.notice != nil || loaded.journaled > 0)

        // Largest first, so one big export does not start last and hold up the end.
        let order = exports.indices.sorted {
            exports[$0].size != exports[$1].size ? exports[$0].size > exports[$1].size : exports[$0].id < exports[$1].id
        }
        let results = ResultSlots(count: exports.count)
        let jobs = max(1, min(options.jobs, exports.count))
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while let position = state.next(limit: order.count) {
                let export = exports[order[position]]
                var result: BatchExportResult
                if options.failFast && state.stopped {
                    result = BatchExportResult(id: export.id, status: .cancelled, inputs: export.inputFiles)
                } else {
                    result = convert(export, state: state)
                    // --verify: judge the frames of what was just converted or found up to date.
                    result.verification = verifyRun?.verify(export, conversion: result,
                                                            inputs: state.entry(export.id)?.inputs)
                    if result.status == .failed || result.verification?.passed == false { state.stop() }
                }
                results.set(order[position], result)
                progress?(state.finishOne(), exports.count, export.id)
            }
        }

        var pruned: [String] = []
        if options.prune {
            let current = Set(exports.map(\.id))
            let gone = state.manifestEntries().filter { !current.contains($0.key) }
            for (id, entry) in gone.sorted(by: { $0.key < $1.key }) {
                for path in entry.allPaths where removeOutput(path, folder: folder) { pruned.append(path) }
                state.remove(id)
            }
            pruned.sort()
        }
        do { try state.saveManifest() } catch {
            notices.append("the manifest could not be written (\(error)); the next run converts everything again")
        }
        if let verifyRun { notices += verifyRun.finish(currentIDs: Set(exports.map(\.id)), prune: options.prune) }
        // Only a shortcut for the next run: if it cannot be written, that run hashes every input.
        try? state.statCache.save(folder: stateFolder)
        let sorted = results.all().sorted { $0.id < $1.id }
        var report = BatchReport(results: sorted, pruned: pruned, notices: notices, tool: options.toolVersion)
        report.verifyCriteria = options.verify?.criteria
        report.recording = options.verify?.record ?? false
        report.inputsRead = state.statCache.readTotals
        report.outputsChecked = state.statCache.outputReadTotals
        return report
    }

    // MARK: - One export

    private func convert(_ export: BatchExport, state: RunState) -> BatchExportResult {
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        // Build messages name files by absolute path; positions are read from the bytes already in memory.
        var located: [BuildMessage] = []
        var preloaded: [String: [UInt8]] = [:]
        let folderPath = export.inputFolder.path
        func read(_ path: String) -> [UInt8]? {
            preloaded[URL(fileURLWithPath: path).standardizedFileURL.path] ?? BuildMessage.readRegularFile(path)
        }
        func failure(_ message: String, _ messages: [BuildMessage]? = nil) -> BatchExportResult {
            var result = BatchExportResult(id: export.id, status: .failed, inputs: export.inputFiles,
                                           duration: elapsed(), error: "\(export.id): \(message)")
            if options.buildMessages {
                result.messages = located + (messages ?? [BuildMessage(.error, file: export.source.path, message: message)])
            }
            return result
        }

        // Up to date? Each input's digest comes from the stat cache when its status is unchanged, else from reading
        // and hashing it (and those bytes are kept for the import below, so no file is read twice). The outputs must
        // hold the bytes recorded.
        var inputs = InputSet(export: export, cache: state.statCache)
        let previous = state.entry(export.id)
        if !options.force, let previous, previous.pending.isEmpty, previous.options == options.fingerprint,
            previous.tool == state.tool, previous.inputs.count == export.inputFiles.count
        {
            var unchanged = true
            for file in export.inputFiles {
                guard let recorded = previous.inputs[file] else { unchanged = false; break }
                let digest: String
                do { digest = try inputs.digest(file) } catch { return failure(error.message) }
                if digest != recorded { unchanged = false; break }
            }
            if unchanged && outputsIntact(previous.outputs, state: state) {
                return BatchExportResult(id: export.id, status: .upToDate, inputs: export.inputFiles,
                                         outputs: previous.outputPaths, warnings: previous.warnings)
            }
        }

        // Convert: every input read (once) and hashed, and the importer given those bytes.
        let hashes: [String: String]
        do { hashes = try inputs.readAll() } catch { return failure(error.message) }
        preloaded = inputs.bytesByPath
        let document: Document
        do {
            document = try Importer.importDocument(at: export.source, preloaded: preloaded,
                                                   options: ImportOptions(scaleFactor: options.scaleFactor))
        } catch {
            return failure("\(error)", options.buildMessages ? error.buildMessages(folder: folderPath, read: read) : [])
        }
        var warnings = document.diagnostics.filter { $0.severity == .warning }.map(\.description)
        if options.buildMessages {
            located = document.diagnostics.filter { $0.severity == .warning }.buildMessages(folder: folderPath, read: read)
        }
        var files: [(path: String, bytes: [UInt8])] = []
        for target in options.orderedTargets {
            switch target {
            case .normalized:
                files.append((OutputNaming.file(for: .normalized, of: export), document.jsonBytes()))
            case .exporter(let format):
                guard let exporter = exporters[format] else { continue }
                let result: ExportResult
                // --strict is applied below, once every warning of every format is known, so each is reported.
                var exportOptions = ExportOptions(strict: false)
                exportOptions.pictures = options.pictures
                exportOptions.prettyJSON = options.prettyJSON
                exportOptions.lottie = LottieExportSettings(profile: options.lottieProfile)
                do {
                    result = try exporter.export(document, assetsFolder: export.imagesFolder, options: exportOptions)
                } catch {
                    return failure("\(format.rawValue) export: \(error)")
                }
                let exportWarnings = result.diagnostics.filter { $0.severity == .warning }
                warnings += exportWarnings.map { "\(format.rawValue): \($0.description)" }
                if options.buildMessages {
                    located += exportWarnings.buildMessages(folder: folderPath, prefix: "\(format.rawValue): ", read: read)
                }
                switch placeExported(result, format: format, export: export) {
                case .success(let placed): files += placed
                case .failure(let message): return failure(message)
                }
            }
        }
        if options.strict && !warnings.isEmpty {
            var result = BatchExportResult(
                id: export.id, status: .failed, inputs: export.inputFiles, duration: elapsed(), warnings: warnings,
                error: "\(export.id): --strict: \(warnings.count) warning\(warnings.count == 1 ? "" : "s"): "
                    + warnings.joined(separator: "; "))
            // With --strict every warning is an error, as a compiler's -Werror makes it.
            result.messages = located.map {
                var message = $0
                message.severity = .error
                message.message += " (--strict)"
                return message
            }
            return result
        }

        // Write: the manifest stops vouching for the previous outputs and names every file about to be written, then
        // every output is written atomically, then the preview, then files this export no longer has are dropped.
        let preview = options.previews ? [OutputNaming.preview(of: export)] : []
        do { try state.begin(export.id, writing: files.map(\.path) + preview) } catch {
            return failure("its outputs were left as they were: \(error.reason)")
        }
        var outputs: [String: BatchManifest.Output] = [:]
        for file in files {
            do { try AtomicFile.write(file.bytes, to: state.folder + "/" + file.path) } catch {
                return failure("\(error)")
            }
            outputs[file.path] = BatchManifest.Output(file.bytes)
        }
        if let path = preview.first {
            do {
                let scene = try RenderScene(document: document, assetsFolder: export.imagesFolder)
                // A glance, not a render: up to 12 frames per clip at 4 fps, small cells.
                _ = try RenderSession.preview(of: scene, to: URL(fileURLWithPath: state.folder + "/" + path)).run()
                // The sheet as written, for the manifest's record.
                outputs[path] = BatchManifest.Output(try InputFile.read(state.folder + "/" + path))
            } catch {
                return failure("preview: \(error)")
            }
        }
        for stale in previous?.allPaths ?? [] where outputs[stale] == nil {
            _ = removeOutput(stale, folder: state.folder)
        }
        state.record(export.id, BatchManifest.Entry(inputs: hashes, options: options.fingerprint,
                                                     tool: state.tool, outputs: outputs, warnings: warnings))
        var result = BatchExportResult(id: export.id, status: .converted, inputs: export.inputFiles,
                                       outputs: outputs.keys.sorted(), duration: elapsed(), warnings: warnings)
        result.messages = located
        return result
    }

    /// Whether every recorded output is a regular file holding the recorded bytes: the size by `stat`, the content
    /// by the stat cache's digest when the status is the one it saw, else by reading and hashing the file.
    private func outputsIntact(_ outputs: [String: BatchManifest.Output], state: RunState) -> Bool {
        for (relative, recorded) in outputs.sorted(by: { $0.key < $1.key }) {
            guard let clean = cleanRelativePath(relative) else { return false }
            let path = state.folder + "/" + clean
            guard let status = FileStatus(path: path), status.size == Int64(recorded.size) else { return false }
            if let digest = state.statCache.digest(of: path) {
                if digest != recorded.digest { return false }
                continue
            }
            guard let snapshot = try? InputSnapshot.read(path) else { return false }
            state.statCache.recordOutput(path, snapshot)
            if snapshot.digest != recorded.digest { return false }
        }
        return true
    }

    private enum Placement {
        case success([(path: String, bytes: [UInt8])])
        case failure(String)
    }

    /// Names an exporter's files under OUT (see ``OutputNaming``).
    private func placeExported(_ result: ExportResult, format: ExportFormat, export: BatchExport) -> Placement {
        if !options.playerFolders, result.clips.count == 1, result.clips[0].companions.isEmpty {
            return .success([(OutputNaming.file(for: .exporter(format), of: export), result.clips[0].main.bytes)])
        }
        let folder = OutputNaming.folder(for: format, of: export)
        var placed: [(path: String, bytes: [UInt8])] = []
        // Lower-cased name → bytes: the same picture shared by several clips (Core Animation's images/) is one file.
        var taken: [String: [UInt8]] = [:]
        for clip in result.clips {
            let base = parentPath(clip.main.relativePath)
            for (file, relative) in [(clip.main, clip.main.relativePath)]
                + clip.companions.map({ ($0, base.isEmpty ? $0.relativePath : base + "/" + $0.relativePath) })
            {
                guard let clean = cleanRelativePath(relative) else {
                    return .failure("\(format.rawValue) export: clip \"\(clip.clip)\": the file name \"\(file.relativePath)\" "
                                    + "leaves its folder")
                }
                if let earlier = taken[clean.lowercased()] {
                    if earlier == file.bytes { continue }
                    return .failure("\(format.rawValue) export: two different files are named \(clean)")
                }
                taken[clean.lowercased()] = file.bytes
                placed.append((folder + "/" + clean, file.bytes))
            }
        }
        return .success(placed)
    }

    /// What the manifest records as the tool: its version, and with ``BatchOptions/toolFile`` the content hash of
    /// the executable (from the stat cache when the file is unchanged, so a rerun does not read it again).
    private func toolIdentity(statCache: BatchStatCache, notices: inout [String]) -> String {
        guard let file = options.toolFile else { return options.toolVersion }
        if let digest = statCache.digest(of: file) { return options.toolVersion + "+" + digest }
        do {
            let snapshot = try InputSnapshot.read(file)
            statCache.record(file, snapshot)
            return options.toolVersion + "+" + snapshot.digest
        } catch {
            notices.append("the tool \(file) cannot be read (\(error.reason)); every export is converted again")
            return options.toolVersion + "+unreadable"
        }
    }

    // MARK: - OUT

    /// Creates `url` (the output or the state folder) when it is missing; its standardized path.
    private func prepareFolder(_ url: URL, role: String) throws(BatchError) -> String {
        let path = url.standardizedFileURL.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw BatchError(.input, "the \(role) folder \(path) is not a folder")
            }
        } else {
            do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
                throw BatchError(.input, "cannot create the \(role) folder \(path): \(reason(error))")
            }
        }
        return path
    }

    /// Writes and removes a probe file, so an unwritable OUT is an error before any work.
    private func probeWritable(_ folder: String) throws(BatchError) {
        let probe = folder + "/.keyframe-batch-probe"
        do { try AtomicFile.write([], to: probe) } catch {
            throw BatchError(.input, "cannot write to the output folder \(folder): \(error.reason)")
        }
        unlink(probe)
    }

    /// Removes one recorded output when it is a regular file inside OUT, and folders it leaves empty.
    private func removeOutput(_ relative: String, folder: String) -> Bool {
        guard let clean = cleanRelativePath(relative) else { return false }
        let path = folder + "/" + clean
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, unlink(path) == 0 else { return false }
        var parent = parentPath(clean)
        while !parent.isEmpty, rmdir(folder + "/" + parent) == 0 { parent = parentPath(parent) }
        return true
    }

    private func reason(_ error: Error) -> String {
        (error as NSError).localizedFailureReason ?? error.localizedDescription
    }
}

/// `path` without `.` segments, or `nil` when it is absolute or climbs out with `..`.
func cleanRelativePath(_ path: String) -> String? {
    guard !path.hasPrefix("/") else { return nil }
    let parts = path.split(separator: "/").filter { $0 != "." }
    guard !parts.isEmpty, !parts.contains("..") else { return nil }
    return parts.joined(separator: "/")
}

func parentPath(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return String(path[..<slash])
}

/// The shared, locked state of a run: the next export to take, the manifest, the fail-fast flag.
private final class RunState: @unchecked Sendable {
    private let lock = NSLock()
    private var position = 0
    private var done = 0
    private var failed = false
    private var manifest: BatchManifest
    /// Whether the manifest on disk differs from ``manifest`` (and must be written at the end).
    private var dirty: Bool
    let folder: String
    let statCache: BatchStatCache
    private let journal: BatchJournal

    /// Where the manifest and its journal live (OUT, or ``BatchOptions/stateFolder``).
    let stateFolder: String

    /// The tool as the manifest records it (``BatchRunner/toolIdentity(statCache:notices:)``).
    let tool: String

    init(manifest: BatchManifest, folder: String, stateFolder: String, statCache: BatchStatCache, tool: String,
         dirty: Bool) {
        self.manifest = manifest
        self.dirty = dirty
        self.folder = folder
        self.stateFolder = stateFolder
        self.statCache = statCache
        self.tool = tool
        self.journal = BatchJournal(folder: stateFolder)
    }

    func next(limit: Int) -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard position < limit else { return nil }
        position += 1
        return position - 1
    }

    func finishOne() -> Int {
        lock.lock(); defer { lock.unlock() }
        done += 1
        return done
    }

    var stopped: Bool { lock.lock(); defer { lock.unlock() }; return failed }
    func stop() { lock.lock(); failed = true; lock.unlock() }

    func entry(_ id: String) -> BatchManifest.Entry? { lock.lock(); defer { lock.unlock() }; return manifest.entries[id] }
    func manifestEntries() -> [String: BatchManifest.Entry] { lock.lock(); defer { lock.unlock() }; return manifest.entries }

    func remove(_ id: String) { lock.lock(); manifest.entries[id] = nil; dirty = true; lock.unlock() }

    /// Makes the entry of an export whose conversion is about to write `files` pending: first as a line of the
    /// journal (so a run killed from now on vouches for none of its outputs and knows every file it may have
    /// written), then in memory (the same for a failure from now on).
    ///
    /// - Throws: when the journal line could not be written; nothing may be written then.
    func begin(_ id: String, writing files: [String]) throws(BatchJournal.Failure) {
        try journal.appendStarted(id: id, files: files)
        lock.lock()
        manifest.entries[id] = BatchManifest.Entry.started(from: manifest.entries[id], writing: files)
        dirty = true
        lock.unlock()
    }

    /// Records a finished export: in memory, and as a line of the journal, so a run killed from now on keeps it.
    func record(_ id: String, _ entry: BatchManifest.Entry) {
        lock.lock()
        manifest.entries[id] = entry
        dirty = true
        lock.unlock()
        journal.appendFinished(id: id, entry: entry)
    }

    /// Writes the manifest (when it changed) and then drops the journal, whose entries it now holds.
    func saveManifest() throws(FileWriteError) {
        lock.lock(); defer { lock.unlock() }
        if dirty { try manifest.save(folder: stateFolder) }
        dirty = false
        journal.remove()
    }
}

/// Results gathered by export index, whatever order the workers finish in.
private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [BatchExportResult?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: BatchExportResult) { lock.lock(); slots[index] = result; lock.unlock() }
    func all() -> [BatchExportResult] { lock.lock(); defer { lock.unlock() }; return slots.compactMap { $0 } }
}
