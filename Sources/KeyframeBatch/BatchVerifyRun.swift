import Foundation
import KeyframeFiles
import KeyframeImport
import KeyframeModel
import KeyframeRender
import KeyframeVerify

/// The verification part of a batch run (`keyframe batch --verify`): after an export is converted (or found up to
/// date), renders its frames as `keyframe verify` would, compares them with its golden folder, and saves the diff and
/// actual pictures of failing frames under `OUT/<relative path>/verify/<name>/`.
///
/// Shared by the batch's workers; one per run. Frames are rendered into `OUT/.keyframe-verify-scratch/` (removed when
/// the run ends, and at the start of the next run after a crash), never into the golden tree.
final class BatchVerifyRun: @unchecked Sendable {
    /// The scratch folder's name inside OUT.
    static let scratchName = ".keyframe-verify-scratch"

    let options: BatchVerifyOptions
    let batch: BatchOptions
    /// OUT.
    let folder: String
    /// Workers per export for rendering and comparing (the batch's jobs shared among the exports under way).
    let innerJobs: Int
    private let goldenRoot: String
    private let scratch: String
    private let lock = NSLock()
    private var state: BatchVerifyState
    private var counter = 0

    /// Checks the golden root and prepares the scratch folder.
    ///
    /// - Throws: ``BatchError`` when the golden root is missing (without `--record`) or is not a folder.
    init(options: BatchVerifyOptions, batch: BatchOptions, folder: String, exportCount: Int) throws(BatchError) {
        self.options = options
        self.batch = batch
        self.folder = folder
        let workers = max(1, min(batch.jobs, exportCount))
        innerJobs = max(1, batch.jobs / workers)
        goldenRoot = options.goldenRoot.standardizedFileURL.path
        scratch = folder + "/" + BatchVerifyRun.scratchName
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: goldenRoot, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw BatchError(.input, "the golden root \(goldenRoot) is not a folder")
            }
        } else if options.record {
            do { try AtomicFile.prepareFolder(goldenRoot) } catch {
                throw BatchError(.input, "cannot create the golden root \(goldenRoot): \(error.reason)")
            }
        } else {
            throw BatchError(.input, "the golden root \(goldenRoot) does not exist (record goldens with --verify "
                             + "\(goldenRoot) --record)")
        }
        try? FileManager.default.removeItem(atPath: scratch)
        // Recording writes into the golden tree: what an interrupted recording left there goes first.
        if options.record { Temporaries.sweepTree(goldenRoot) }
        state = BatchVerifyState.load(folder: folder)
    }

    // MARK: - One export

    /// Verifies (or records) `export` after its conversion; `nil` when it was not converted (a failed export).
    ///
    /// - Parameter inputs: the export's input hashes as the manifest records them.
    func verify(_ export: BatchExport, conversion: BatchExportResult, inputs: [String: String]?) -> BatchVerification? {
        guard conversion.status == .converted || conversion.status == .upToDate else { return nil }
        let relative = BatchVerifyOptions.goldenFolder(of: export)
        let golden = goldenRoot + "/" + relative
        func failure(_ message: String) -> BatchVerification {
            setEntry(export.id, nil)
            return BatchVerification(status: .failed, goldenFolder: relative, error: message)
        }

        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: golden, isDirectory: &isFolder)
        let key = exists && isFolder.boolValue ? self.key(export, inputs: inputs, golden: golden) : nil
        let previous = entry(export.id)
        if !batch.force, let key, let previous, previous.passed, previous.key == key {
            return options.record
                ? BatchVerification(status: .recorded, goldenFolder: relative, unchanged: true, frames: previous.frames,
                                    counts: [.match: previous.frames],
                                    recorded: GoldenRecorder.Summary(unchanged: previous.frames))
                : BatchVerification(status: .passed, goldenFolder: relative, unchanged: true, frames: previous.frames,
                                    counts: [.match: previous.frames])
        }
        // Verified again: the pictures of an earlier failure go first, so OUT shows only this run's failures.
        for artifact in previous?.artifacts ?? [] { removeArtifact(artifact) }
        if exists && !isFolder.boolValue { return failure("the golden path \(relative) is not a folder") }
        if !exists {
            guard options.record else {
                return failure("no golden folder \(relative) in the golden root (record it with --record)")
            }
            do { try AtomicFile.prepareFolder(golden) } catch {
                return failure("cannot create the golden folder \(relative): \(error.reason)")
            }
        }

        // The framing the golden set keeps, if any: the clips are framed as their approved frames were.
        var stored: GoldenFraming? = nil
        if exists {
            do { stored = try GoldenFraming.read(from: URL(fileURLWithPath: golden)) } catch { return failure("\(error)") }
        }
        // Render what `keyframe verify` would render.
        let frameFolder = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: frameFolder) }
        let summaries: [RenderSession.Summary]
        do {
            let document = try Importer.importDocument(at: export.source,
                                                       options: ImportOptions(scaleFactor: batch.scaleFactor))
            var session = RenderSession(scene: try RenderScene(document: document, assetsFolder: export.imagesFolder))
            options.configure(&session)
            if options.keepsGoldenFraming, let stored { session.pinnedFramings = stored.regions }
            session.jobs = innerJobs
            session.outputFolder = URL(fileURLWithPath: frameFolder)
            summaries = try session.run()
        } catch {
            return failure("cannot render its frames: \(error)")
        }
        var frames: [RenderedFrame] = []
        var stems: [String: String] = [:]
        for summary in summaries {
            for (plan, path) in zip(summary.frames, summary.paths) {
                frames.append(RenderedFrame(clip: summary.name, number: plan.number,
                                            fileName: URL(fileURLWithPath: path).lastPathComponent, path: path))
            }
            if options.selection == .all, let first = summary.paths.first,
                let (stem, _) = GoldenVerifier.parseFrameFileName(URL(fileURLWithPath: first).lastPathComponent)
            {
                stems[stem] = summary.name
            }
        }
        let verifier = GoldenVerifier(goldenFolder: URL(fileURLWithPath: golden), criteria: options.criteria,
                                      jobs: innerJobs)
        var report: VerifyReport
        do { report = try verifier.verify(frames, extrasFor: stems, ownsFolder: options.selection == .all) } catch {
            return failure("\(error)")
        }
        var counts: [FrameCheck.Status: Int] = [:]
        for frame in report.frames { counts[frame.status, default: 0] += 1 }

        if options.record {
            let recorded: GoldenRecorder.Summary
            do {
                recorded = try GoldenRecorder.record(report)
                var framing = stored ?? GoldenFraming()
                for summary in summaries { framing.keep(summary.framing, for: summary.name) }
                if framing != stored { try framing.write(to: URL(fileURLWithPath: golden)) }
            } catch {
                return failure("cannot record: \(error)")
            }
            let newKey = self.key(export, inputs: inputs, golden: golden)
            setEntry(export.id, BatchVerifyState.Entry(key: newKey, passed: true, frames: frames.count, artifacts: []))
            return BatchVerification(status: .recorded, goldenFolder: relative, frames: frames.count, counts: counts,
                                     recorded: recorded)
        }
        if report.passed {
            if let key {
                setEntry(export.id, BatchVerifyState.Entry(key: key, passed: true, frames: frames.count, artifacts: []))
            }
            return BatchVerification(status: .passed, goldenFolder: relative, frames: frames.count, counts: counts)
        }

        // Failed: keep the diff and actual pictures in OUT, and report them (and the goldens) by relative path.
        let artifactsFolder = OutputNaming.verifyArtifacts(of: export)
        do { try VerifyArtifacts.write(&report, to: URL(fileURLWithPath: folder + "/" + artifactsFolder)) } catch {
            return failure("cannot save the diff pictures: \(error)")
        }
        var failures: [FrameCheck] = []
        var artifacts: [String] = []
        for var frame in report.failures {
            frame.diffImage = nil
            frame.actualPath = nil
            frame.goldenPath = relative + "/" + frame.fileName
            if let path = frame.savedDiffPath {
                frame.savedDiffPath = artifactsFolder + "/" + URL(fileURLWithPath: path).lastPathComponent
                artifacts.append(frame.savedDiffPath!)
            }
            if let path = frame.savedActualPath {
                frame.savedActualPath = artifactsFolder + "/" + URL(fileURLWithPath: path).lastPathComponent
                artifacts.append(frame.savedActualPath!)
            }
            failures.append(frame)
        }
        setEntry(export.id, BatchVerifyState.Entry(key: "", passed: false, frames: frames.count,
                                                   artifacts: artifacts.sorted()))
        return BatchVerification(status: .failed, goldenFolder: relative, frames: frames.count, counts: counts,
                                 failures: failures)
    }

    /// The content hash (``ContentHash``) of everything the verdict depends on (see ``BatchVerifyState``).
    private func key(_ export: BatchExport, inputs: [String: String]?, golden: String) -> String {
        var text = "tool=\(batch.toolVersion)\nconversion=\(batch.fingerprint)\nverify=\(options.fingerprint)\n"
        for (file, hash) in (inputs ?? [:]).sorted(by: { $0.key < $1.key }) { text += "input \(file) \(hash)\n" }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: golden)) ?? []
        for name in names.sorted() where !name.hasPrefix(".") {
            var info = stat()
            guard lstat(golden + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let bytes = FileManager.default.contents(atPath: golden + "/" + name).map { [UInt8]($0) }
            text += "golden \(name) " + (bytes.map(ContentHash.digest) ?? "unreadable") + "\n"
        }
        return ContentHash.digest(Array(text.utf8))
    }

    // MARK: - End of the run

    /// Removes the scratch folder, forgets (with `prune`) exports that no longer exist and their pictures, and saves
    /// the state. Returns notices for the report.
    func finish(currentIDs: Set<String>, prune: Bool) -> [String] {
        try? FileManager.default.removeItem(atPath: scratch)
        lock.lock(); defer { lock.unlock() }
        if prune {
            for (id, entry) in state.entries where !currentIDs.contains(id) {
                for artifact in entry.artifacts { removeArtifact(artifact) }
                state.entries[id] = nil
            }
        }
        do { try state.save(folder: folder) } catch {
            return ["the verification state could not be written (\(error)); the next run verifies everything again"]
        }
        return []
    }

    // MARK: - Helpers

    private func entry(_ id: String) -> BatchVerifyState.Entry? {
        lock.lock(); defer { lock.unlock() }
        return state.entries[id]
    }

    private func setEntry(_ id: String, _ entry: BatchVerifyState.Entry?) {
        lock.lock(); defer { lock.unlock() }
        state.entries[id] = entry
    }

    private func scratchFolder() -> String {
        lock.lock()
        counter += 1
        let path = scratch + "/\(counter)"
        lock.unlock()
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Removes one saved picture (a regular file inside OUT) and the folders it leaves empty.
    private func removeArtifact(_ relative: String) {
        guard let clean = cleanRelativePath(relative) else { return }
        let path = folder + "/" + clean
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, unlink(path) == 0 else { return }
        var parent = parentPath(clean)
        while !parent.isEmpty, rmdir(folder + "/" + parent) == 0 { parent = parentPath(parent) }
    }
}
