import ArgumentParser
import Foundation
import KeyframeEngine
import KeyframeFiles
import KeyframeImport
import KeyframeJSON
import KeyframeModel

/// `keyframe play`: plays an animator script on the virtual clock and prints every tick.
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play an animator script on the virtual clock.",
        discussion: """
            SCRIPT is a JSON file declaring animators (value or clip targets), an optional group and timed steps \
            (see docs/cli.md, "Script format"). Every tick prints each animator's state, isRunning, isReversed, \
            fractionComplete and value or clip time, then the steps applied and the completions since the \
            previous tick. Without --until the run ends at the first tick after the last step at which no \
            animator is running (at most 60 s after the last step).
            """)

    @Argument(help: "The script file.", completion: .file(extensions: ["json"]))
    var script: String

    @Option(help: "Ticks per second of the virtual clock.")
    var fps: Double = 60

    @Option(help: "Play until this time in seconds (inclusive) instead of until everything has settled.")
    var until: Double?

    @Flag(help: "Print one JSON object per tick instead of a table.")
    var json = false

    func validate() throws {
        try NumericBounds.framesPerSecond.check(fps, "--fps")
        try NumericBounds.time.check(until, "--until")
        if let until, until * fps >= Double(ScriptRunner.maximumTicks) {
            throw ValidationError("--until \(JSONWriter.format(until)) at \(JSONWriter.format(fps)) fps is more than "
                                  + "\(ScriptRunner.maximumTicks) ticks")
        }
    }

    func run() throws {
        let url = URL(fileURLWithPath: script)
        let bytes: [UInt8]
        do { bytes = try InputFile.read(script) } catch {
            throw fail("\(script): cannot read the script: \(error.reason)")
        }
        let documents = Documents(relativeTo: url.deletingLastPathComponent(),
                                  writtenAs: (script as NSString).deletingLastPathComponent)
        let playback: ScriptPlayback
        let parsed: AnimatorScript
        var output = ""
        func flush() throws(ExitCode) {
            // JSON lines escape by JSON's rules; the table goes through the terminal rule.
            if json { try Output.report(Array(output.utf8)) } else { try Output.out(output) }
            output = ""
        }
        do {
            parsed = try AnimatorScript(jsonBytes: bytes, file: script)
            let runner = try ScriptRunner(script: parsed, resolver: documents.resolve)
            playback = runner.playback(fps: fps, until: until.map { Seconds($0) })
            if !json { output += Self.header(parsed, runner: runner, fps: fps) }
        } catch {
            throw fail("\(error)")
        }
        do {
            while let tick = try playback.next() {
                output += json ? tick.jsonLine(script: parsed) + "\n" : Self.table(tick, script: parsed)
                if output.utf8.count > 1 << 16 { try flush() }
            }
        } catch let code as ExitCode {
            throw code
        } catch {
            try flush()
            throw fail("\(error)")
        }
        try flush()
        if playback.reachedTickLimit {
            try Output.warn("warning: stopped after \(ScriptRunner.maximumTicks) ticks "
                + "(the script's steps reach further; lower --fps or choose --until)")
        }
        if playback.reachedSettleLimit {
            try Output.warn("warning: animators were still running "
                + "\(JSONWriter.format(ScriptRunner.settleLimit.value)) s after the last step; "
                + "stopped there (use --until to choose the end)")
        }
    }

    // MARK: - Table

    /// The lines above the table: the script, its animators and group, the column titles.
    static func header(_ script: AnimatorScript, runner: ScriptRunner, fps: Double) -> String {
        var lines = ["# \((script.file as NSString).lastPathComponent) at \(JSONWriter.format(fps)) fps"]
        let width = max(8, script.animators.map(\.name.count).max() ?? 0)
        for animator in script.animators {
            var target = animator.target.summary
            if case .clip(let name, let document) = animator.target, let clip = runner.clip(document: document, name: name) {
                target = "clip \(name) of \(clip.documentPath) (\(JSONWriter.format(clip.duration.value)) frames at "
                    + "\(JSONWriter.format(clip.frameRate.framesPerSecond)) fps)"
            }
            lines.append("#   \(pad(animator.name, width))  \(JSONWriter.format(animator.duration.value)) s  "
                         + "\(animator.timing.scriptSummary)  \(target)")
        }
        if let group = script.group {
            lines.append("#   group \(group.name): primary \(group.primary), secondaries \(group.secondaries.joined(separator: ", "))")
        }
        lines.append(" tick     time  " + pad("animator", width) + "  state    running reversed  fraction  value")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One tick: a row per animator, then the steps and completions.
    static func table(_ tick: ScriptTick, script: AnimatorScript) -> String {
        let width = max(8, script.animators.map(\.name.count).max() ?? 0)
        var text = ""
        for (row, sample) in tick.animators.enumerated() {
            let prefix = row == 0 ? String(format: "%5d %8.4f", tick.index, tick.time.value) : String(repeating: " ", count: 14)
            var value = ""
            if let number = sample.value { value = String(format: "%.4f", number) }
            if let clip = sample.clip { value = String(format: "frame %.3f (%.4f s)", clip.frames.value, clip.seconds.value) }
            for extra in sample.added {
                switch extra {
                case .value(let number): value += String(format: "; %.4f", number)
                case .clip(let clip): value += "; \(clip.clipName) " + String(format: "frame %.3f", clip.frames.value)
                }
            }
            text += prefix + "  " + pad(sample.name, width) + "  " + pad(sample.state.rawValue, 8) + " "
                + pad(sample.isRunning ? "yes" : "no", 7) + " " + pad(sample.isReversed ? "yes" : "no", 8) + " "
                + String(format: "%9.4f", sample.fractionComplete.value) + "  " + value + "\n"
        }
        for index in tick.steps {
            let step = script.steps[index]
            text += String(repeating: " ", count: 16) + "step \(index) at \(JSONWriter.format(step.at.value)) s: "
                + "\(step.subject): \(step.action.summary)\n"
        }
        for completion in tick.completions {
            text += String(repeating: " ", count: 16) + "completion: \(completion.name) at "
                + "\(completion.position.rawValue) (\(JSONWriter.format(completion.time.value)) s)\n"
        }
        return text
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    // MARK: - Documents

    /// Loads the documents a script's clip targets name, once each, relative to the script's folder.
    ///
    /// `resolve` is the ``ScriptClipResolver`` for ``ScriptRunner``; `document(at:written:)` returns a loaded
    /// document by the absolute path that the tick records carry (for rendering a script).
    final class Documents {
        let folder: URL
        /// The script's folder as the user wrote it, for naming documents in messages.
        let displayFolder: String
        private(set) var loaded: [String: Document] = [:]

        init(relativeTo folder: URL, writtenAs displayFolder: String) {
            self.folder = folder
            self.displayFolder = displayFolder
        }

        /// The standardized absolute path of `path` (relative paths are taken from the script's folder).
        func absolutePath(_ path: String) -> String {
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: path, relativeTo: folder)
            return url.standardizedFileURL.path
        }

        /// The document at an absolute path returned by ``absolutePath(_:)``, importing it on first use; `written` is
        /// the path as the script wrote it.
        func document(at absolute: String, written: String) throws -> Document {
            if let document = loaded[absolute] { return document }
            let document: Document
            do { document = try Importer.importDocument(at: URL(fileURLWithPath: absolute)) } catch {
                // Name the export's files with its path as the user and the script wrote it, not only
                // `Animation.json`.
                let given = written.hasPrefix("/") || displayFolder.isEmpty ? written : displayFolder + "/" + written
                throw error.located(in: InputDocument.displayFolder(input: given))
            }
            // Ticks and the table name the document as the script and the user wrote it.
            GivenPaths.add(absolute: absolute,
                           given: written.hasPrefix("/") || displayFolder.isEmpty ? written : displayFolder + "/" + written)
            loaded[absolute] = document
            return document
        }

        /// Resolves a clip target: imports the document and looks the clip up by name.
        func resolve(document path: String, clip name: String) throws -> ScriptClip {
            let absolute = absolutePath(path)
            let document = try self.document(at: absolute, written: path)
            guard let clip = document.clips.first(where: { $0.name == name }) else {
                throw ResolveError(message: "\(path) has no clip \"\(name)\"; its clips: "
                                   + document.clips.map(\.name).joined(separator: ", "))
            }
            return ScriptClip(documentPath: absolute, clipName: name, duration: clip.duration,
                              frameRate: document.frameRate)
        }

        struct ResolveError: Error, CustomStringConvertible {
            var message: String
            var description: String { message }
        }
    }
}
