import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel
import KeyframeRender

/// Renders what `keyframe render` would render for the same INPUT, clips or script, and render options — through the
/// same ``RenderSession`` — into a folder of its choosing. `verify` and `preview` use it, so a golden set recorded
/// with `render` is reproduced exactly and a preview shows exactly the rendered frames.
struct FrameSource {
    /// INPUT as given.
    var input: String
    /// `--clip` values (empty: every clip).
    var clips: [String]
    /// `--script`, if any.
    var script: String?
    /// The shared render options.
    var options: RenderOptions
    /// Whether to keep warnings and the progress bar quiet.
    var quiet: Bool

    /// One rendered clip (or script run).
    struct Sequence {
        /// The clip's or script's name.
        var name: String
        /// The clip, when a clip (not a script) was rendered.
        var clip: Clip?
        /// The frames, in order.
        var plans: [FramePlan]
        /// The PNG files written, in frame order.
        var paths: [String]
        /// The framing used.
        var framing: Framing
    }

    /// What was rendered, and from what.
    struct Result {
        var document: Document
        var sequences: [Sequence]
        /// The output rate in frames per second.
        var fps: Double
        /// The script and its run, for `--script`.
        var script: (script: AnimatorScript, ticks: [ScriptTick])?
    }

    /// Imports INPUT and renders into `folder` (with `session.outputFolder` set to it; no contact sheet).
    ///
    /// - Throws: the ``ExitCode`` of ``fail(_:)`` for any input or render error.
    func render(into folder: URL) throws -> Result {
        let inputURL = URL(fileURLWithPath: input)
        let document: Document
        let assetsFolder: URL
        let isNormalized: Bool
        do {
            let detected = try Importer.detect(inputURL)
            isNormalized = detected.format == .keyframe
            document = try Importer.importDocument(
                at: inputURL, options: ImportOptions(scaleFactor: options.scaleFactor.value))
            assetsFolder = options.assets.map { URL(fileURLWithPath: $0) } ?? detected.folder
        } catch {
            throw fail("\(error)")
        }
        if !quiet {
            for diagnostic in document.diagnostics where diagnostic.severity == .warning {
                FileHandle.standardError.write(Data("keyframe: \(diagnostic)\n".utf8))
            }
        }
        let scene: RenderScene
        do { scene = try RenderScene(document: document, assetsFolder: assetsFolder) } catch {
            var message = "\(error)"
            if case .missingImage = error.kind, isNormalized, options.assets == nil {
                message += " (a normalized JSON names its images relative to the export; pass --assets DIR)"
            }
            throw fail(message)
        }
        var session = RenderSession(scene: scene)
        options.configure(&session)
        session.outputFolder = folder
        session.contactSheet = nil
        let rate = options.fps ?? document.frameRate.framesPerSecond
        let bar = quiet ? nil : ProgressBar.forStandardError()
        defer { bar?.finish() }
        var progress: (@Sendable (String, Int, Int) -> Void)? = nil
        if let bar { progress = { label, done, total in bar.update(label: label, done: done, total: total) } }

        if let script {
            return try renderScript(script, scene: scene, inputPath: inputURL.standardizedFileURL.path,
                                    session: session, rate: rate, progress: progress)
        }
        session.clips = clips.isEmpty ? nil : clips
        session.selection = options.selection
        let summaries: [RenderSession.Summary]
        do { summaries = try session.run(progress: progress) } catch { throw fail("\(error)") }
        let sequences = summaries.map { summary in
            Sequence(name: summary.name, clip: document.clip(named: summary.name), plans: summary.frames,
                     paths: summary.paths, framing: summary.framing)
        }
        return Result(document: document, sequences: sequences, fps: rate, script: nil)
    }

    /// Plays the script on the virtual clock at the output rate and renders every tick, as `render --script` does.
    private func renderScript(_ scriptPath: String, scene: RenderScene, inputPath: String, session: RenderSession,
                              rate: Double, progress: (@Sendable (String, Int, Int) -> Void)?) throws -> Result {
        if options.frames != nil || !options.at.isEmpty || !clips.isEmpty {
            throw fail("--script renders the script's own timeline; --clip, --frames and --at do not apply")
        }
        let url = URL(fileURLWithPath: scriptPath)
        let documents = Play.Documents(relativeTo: url.deletingLastPathComponent())
        let parsed: AnimatorScript
        let ticks: [ScriptTick]
        do {
            let bytes = Array(try Data(contentsOf: url))
            parsed = try AnimatorScript(jsonBytes: bytes, file: url.lastPathComponent)
            ticks = try ScriptRunner(script: parsed, resolver: documents.resolve).run(fps: rate)
        } catch let error as CocoaError {
            throw fail("\(scriptPath): cannot read the script: \(error.localizedDescription)")
        } catch {
            throw fail("\(error)")
        }
        var scenes = [scene]
        var documentList = [scene.document]
        var index = [inputPath: 0]
        for (path, document) in documents.loaded.sorted(by: { $0.key < $1.key }) where index[path] == nil {
            do {
                let folder = try Importer.detect(URL(fileURLWithPath: path)).folder
                scenes.append(try RenderScene(document: document, assetsFolder: folder))
            } catch {
                throw fail("\(error)")
            }
            documentList.append(document)
            index[path] = scenes.count - 1
        }
        let summary: RenderSession.Summary
        do {
            let plans = try FramePlan.plans(for: ticks, scenes: index, documents: documentList)
            summary = try session.run(name: url.deletingPathExtension().lastPathComponent, plans: plans,
                                      scenes: scenes, progress: progress)
        } catch {
            throw fail("\(error)")
        }
        let sequence = Sequence(name: summary.name, clip: nil, plans: summary.frames, paths: summary.paths,
                                framing: summary.framing)
        return Result(document: scene.document, sequences: [sequence], fps: rate, script: (parsed, ticks))
    }

    /// A fresh private folder under the system's temporary folder; the caller removes it.
    static func temporaryFolder(_ purpose: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("keyframe-\(purpose)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
            throw fail("cannot create a temporary folder \(url.path): \(error.localizedDescription)")
        }
        return url
    }
}
