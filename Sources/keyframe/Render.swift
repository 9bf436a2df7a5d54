import ArgumentParser
import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender

/// `keyframe render`: draws the frames of a clip into PNG files and, optionally, a contact sheet.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render frames of an export's clips to PNG.",
        discussion: """
            INPUT is an export folder, its main JSON file, or a normalized Keyframe JSON. Frames are written as \
            DIR/<clip>-<frame, 4 digits>.png, numbered from 0 at the output frame rate. Without --clip every clip \
            is rendered.
            """)

    @Argument(help: "The export or normalized JSON to render.")
    var input: String

    @Option(help: "Render only this clip (repeat for several).")
    var clip: [String] = []

    @Option(help: "Render an animator script (the format of `keyframe play`) frame by frame.")
    var script: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Folder for the frames (default: the current folder).", valueName: "DIR"))
    var output: String = "."

    @Option(help: ArgumentHelp("Also write every rendered frame, labelled, into one PNG.", valueName: "FILE"))
    var contactSheet: String?

    @OptionGroup var options: RenderOptions

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @Flag(help: "Write the frames even when none of them shows any sprite (otherwise that is an error).")
    var allowEmpty = false

    func run() throws {
        let inputURL = URL(fileURLWithPath: input)
        let document: Document
        let assetsFolder: URL
        let isNormalized: Bool
        do {
            let detected = try Importer.detect(inputURL)
            isNormalized = detected.format == .keyframe
            document = try Importer.importDocument(at: inputURL, options: ImportOptions(scaleFactor: options.scaleFactor.value))
            assetsFolder = options.assets.map { URL(fileURLWithPath: $0) } ?? detected.folder
        } catch {
            throw fail("\(error)")
        }
        if !quiet {
            // What the conversion could not represent also cannot be drawn: say so, as `convert` does.
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
        if let script {
            try renderScript(script, inputScene: scene, inputPath: inputURL.standardizedFileURL.path)
            return
        }
        var session = RenderSession(scene: scene)
        configure(&session)
        session.clips = clip.isEmpty ? nil : clip
        session.selection = options.selection

        let bar = quiet ? nil : ProgressBar.forStandardError()
        let summaries: [RenderSession.Summary]
        do {
            var progress: (@Sendable (String, Int, Int) -> Void)? = nil
            if let bar {
                progress = { clip, done, total in bar.update(label: clip, done: done, total: total) }
            }
            summaries = try session.run(progress: progress)
        } catch {
            bar?.finish()
            throw fail("\(error)")
        }
        bar?.finish()
        guard !quiet else { return }
        for summary in summaries {
            let fitNote = summary.fit != options.fit ? " (the document has no stage size; framed its content)" : ""
            let files = summary.paths.isEmpty ? "" : ": \(Render.describe(summary.paths))"
            print("\(summary.name): \(summary.frames.count) frame(s), "
                  + "\(summary.framing.width)×\(summary.framing.height)\(fitNote)\(files)")
        }
        if let contactSheet { print("contact sheet: \(contactSheet)") }
    }

    /// The session settings shared by clip and script renders.
    func configure(_ session: inout RenderSession) {
        options.configure(&session)
        session.outputFolder = URL(fileURLWithPath: output)
        session.contactSheet = contactSheet.map { URL(fileURLWithPath: $0) }
        session.failWhenNothingDrawn = !allowEmpty
    }

    /// Plays `scriptPath` on the virtual clock at the output rate and renders every tick: each animator with a clip
    /// target draws its clip at its clip time, in declaration order. INPUT's stage frames the picture.
    func renderScript(_ scriptPath: String, inputScene: RenderScene, inputPath: String) throws {
        if options.frames != nil || !options.at.isEmpty || !clip.isEmpty || options.duration != nil {
            throw fail("--script renders the script's own timeline; --clip, --frames, --at and --duration do not apply")
        }
        let url = URL(fileURLWithPath: scriptPath)
        let documents = Play.Documents(relativeTo: url.deletingLastPathComponent())
        let ticks: [ScriptTick]
        let rate = options.fps ?? inputScene.document.frameRate.framesPerSecond
        do {
            let bytes = Array(try Data(contentsOf: url))
            let parsed = try AnimatorScript(jsonBytes: bytes, file: url.lastPathComponent)
            let runner = try ScriptRunner(script: parsed, resolver: documents.resolve)
            ticks = try runner.run(fps: rate)
        } catch let error as CocoaError {
            throw fail("\(scriptPath): cannot read the script: \(error.localizedDescription)")
        } catch {
            throw fail("\(error)")
        }
        // Scene 0 is INPUT; every other document the script loaded gets its own scene.
        var scenes = [inputScene]
        var documentList = [inputScene.document]
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
        var session = RenderSession(scene: inputScene)
        configure(&session)
        let bar = quiet ? nil : ProgressBar.forStandardError()
        let summary: RenderSession.Summary
        do {
            let plans = try FramePlan.plans(for: ticks, scenes: index, documents: documentList)
            var progress: (@Sendable (String, Int, Int) -> Void)? = nil
            if let bar {
                progress = { name, done, total in bar.update(label: name, done: done, total: total) }
            }
            summary = try session.run(name: url.deletingPathExtension().lastPathComponent, plans: plans,
                                      scenes: scenes, progress: progress)
        } catch {
            bar?.finish()
            throw fail("\(error)")
        }
        bar?.finish()
        guard !quiet else { return }
        print("\(summary.name): \(summary.frames.count) frame(s) at \(formatNumber(rate)) fps, "
              + "\(summary.framing.width)×\(summary.framing.height): \(Render.describe(summary.paths))")
        if let contactSheet { print("contact sheet: \(contactSheet)") }
    }

    /// `24`, `29.97`.
    func formatNumber(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// `out/walk-0000.png … walk-0023.png`, or the one path.
    static func describe(_ paths: [String]) -> String {
        guard let first = paths.first, let last = paths.last else { return "" }
        return paths.count == 1 ? first : "\(first) … \(URL(fileURLWithPath: last).lastPathComponent)"
    }
}
