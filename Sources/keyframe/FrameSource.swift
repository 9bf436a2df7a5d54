import Foundation
import KeyframeEngine
import KeyframeFiles
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
    /// Framings pinned by clip name (a golden set's stored framing), over `--fit`'s.
    var pinnedFramings: [String: Framing.Region] = [:]
    /// The files the command writes that it names before rendering (a page, a report): refused when one is an input.
    var outputs: [String?] = []

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
        let input = try RenderInput.load(self.input, options: options, quiet: quiet, outputs: outputs)
        let document = input.scene.document
        var session = RenderSession(scene: input.scene)
        options.configure(&session)
        session.pinnedFramings = pinnedFramings
        session.outputFolder = folder
        session.contactSheet = nil
        let rate = options.fps ?? document.frameRate.framesPerSecond
        let bar = quiet ? nil : ProgressBar.forStandardError()
        var progress: (@Sendable (RenderSession.Progress) -> Void)? = nil
        if let bar { progress = { bar.update($0) } }
        defer { try? bar?.finish() }

        if let script {
            if options.frames != nil || !options.at.isEmpty || !clips.isEmpty || options.duration != nil {
                throw fail("--script renders the script's own timeline; --clip, --frames, --at and --duration do not apply")
            }
            let run = try input.playScript(script, inputPath: URL(fileURLWithPath: self.input).standardizedFileURL.path,
                                           rate: rate)
            let summary: RenderSession.Summary
            do {
                summary = try session.run(name: run.name, plans: run.plans, scenes: run.scenes, reporting: progress)
            } catch {
                throw fail("\(error)")
            }
            let sequence = Sequence(name: summary.name, clip: nil, plans: summary.frames, paths: summary.paths,
                                    framing: summary.framing)
            return Result(document: document, sequences: [sequence], fps: rate, script: (run.script, run.ticks))
        }
        session.clips = clips.isEmpty ? nil : clips
        session.selection = options.selection
        let summaries: [RenderSession.Summary]
        do { summaries = try session.run(reporting: progress) } catch { throw fail("\(error)") }
        let sequences = summaries.map { summary in
            Sequence(name: summary.name, clip: document.clip(named: summary.name), plans: summary.frames,
                     paths: summary.paths, framing: summary.framing)
        }
        return Result(document: document, sequences: sequences, fps: rate, script: nil)
    }

    /// A fresh private folder under the system's temporary folder (``ScratchFolder``: removed when it goes away, and
    /// by a later run when this process is killed); the caller removes it.
    static func scratchFolder(_ purpose: ScratchFolder.Purpose) throws -> ScratchFolder {
        do { return try ScratchFolder(purpose) } catch { throw fail("\(error)") }
    }
}
