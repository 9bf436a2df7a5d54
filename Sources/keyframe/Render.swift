import ArgumentParser
import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender

extension Framing.Fit: ExpressibleByArgument {}
extension PNGPreset: ExpressibleByArgument {}

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

    @Option(help: "Output frames per second (default: the document's frame rate).")
    var fps: Double?

    @Option(help: ArgumentHelp("Output size; the framed scene is scaled to fit and centred.", valueName: "WxH"))
    var size: String?

    @Option(help: "What to frame: the document's stage, or the clip's content over all its frames.")
    var fit: Framing.Fit = .stage

    @Option(help: ArgumentHelp("Background colour (default: transparent).", valueName: "#RRGGBB[AA]"))
    var background: String?

    @Option(help: ArgumentHelp("Render only output frames A to B (inclusive, from 0).", valueName: "A..B"))
    var frames: String?

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Render one frame at each of these times.", valueName: "seconds"))
    var at: [Double] = []

    @Option(help: "Render an animator script (the format of `keyframe play`) frame by frame.")
    var script: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Folder for the frames (default: the current folder).", valueName: "DIR"))
    var output: String = "."

    @Option(help: ArgumentHelp("Also write every rendered frame, labelled, into one PNG.", valueName: "FILE"))
    var contactSheet: String?

    @Option(help: "PNG settings: fast (previews) or compact (assets).")
    var png: PNGPreset = .fast

    @Option(help: "Frames rendered in parallel (default: all cores). Output is identical for any value.")
    var jobs: Int?

    @Option(help: ArgumentHelp("Folder holding the atlas images (default: the input's folder).", valueName: "DIR"))
    var assets: String?

    @OptionGroup var scaleFactor: ScaleFactorOption

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    mutating func validate() throws {
        if frames != nil && !at.isEmpty { throw ValidationError("--frames and --at cannot be used together") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let fps, !(fps.isFinite && fps > 0) { throw ValidationError("--fps must be a positive number") }
        if let size, Render.parseSize(size) == nil {
            throw ValidationError("--size \(size): expected WIDTHxHEIGHT, e.g. 512x512")
        }
        if let background, Render.parseColor(background) == nil {
            throw ValidationError("--background \(background): expected #RRGGBB or #RRGGBBAA")
        }
        if let frames, Render.parseRange(frames) == nil {
            throw ValidationError("--frames \(frames): expected A..B with 0 ≤ A ≤ B, or a single frame number")
        }
    }

    func run() throws {
        let inputURL = URL(fileURLWithPath: input)
        let document: Document
        let assetsFolder: URL
        let isNormalized: Bool
        do {
            let detected = try Importer.detect(inputURL)
            isNormalized = detected.format == .keyframe
            document = try Importer.importDocument(at: inputURL, options: ImportOptions(scaleFactor: scaleFactor.value))
            assetsFolder = assets.map { URL(fileURLWithPath: $0) } ?? detected.folder
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
            if case .missingImage = error.kind, isNormalized, assets == nil {
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
        if let frames, let range = Render.parseRange(frames) { session.selection = .range(range) }
        if !at.isEmpty { session.selection = .times(at) }

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
            let fitNote = summary.fit != fit ? " (the document has no stage size; framed its content)" : ""
            let files = summary.paths.isEmpty ? "" : ": \(Render.describe(summary.paths))"
            print("\(summary.name): \(summary.frames.count) frame(s), "
                  + "\(summary.framing.width)×\(summary.framing.height)\(fitNote)\(files)")
        }
        if let contactSheet { print("contact sheet: \(contactSheet)") }
    }

    /// The session settings shared by clip and script renders.
    func configure(_ session: inout RenderSession) {
        session.fps = fps
        session.fit = fit
        session.size = size.flatMap(Render.parseSize)
        session.background = background.flatMap(Render.parseColor) ?? .transparent
        session.png = PNGEncodingOptions(preset: png)
        session.jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        session.outputFolder = URL(fileURLWithPath: output)
        session.contactSheet = contactSheet.map { URL(fileURLWithPath: $0) }
    }

    /// Plays `scriptPath` on the virtual clock at the output rate and renders every tick: each animator with a clip
    /// target draws its clip at its clip time, in declaration order. INPUT's stage frames the picture.
    func renderScript(_ scriptPath: String, inputScene: RenderScene, inputPath: String) throws {
        if frames != nil || !at.isEmpty || !clip.isEmpty {
            throw fail("--script renders the script's own timeline; --clip, --frames and --at do not apply")
        }
        let url = URL(fileURLWithPath: scriptPath)
        let documents = Play.Documents(relativeTo: url.deletingLastPathComponent())
        let ticks: [ScriptTick]
        let rate = fps ?? inputScene.document.frameRate.framesPerSecond
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

    /// `512x512` → (512, 512).
    static func parseSize(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        return (w, h)
    }

    /// `#RRGGBB` or `#RRGGBBAA` (the `#` is optional).
    static func parseColor(_ text: String) -> RGBAColor? {
        var hex = Substring(text)
        if hex.hasPrefix("#") { hex = hex.dropFirst() }
        guard hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit) else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return RGBAColor(r: bytes[0], g: bytes[1], b: bytes[2], a: bytes.count == 4 ? bytes[3] : 255)
    }

    /// `3..10` → 3...10; `7` → 7...7.
    static func parseRange(_ text: String) -> ClosedRange<Int>? {
        if let single = Int(text), single >= 0 { return single...single }
        let parts = text.components(separatedBy: "..")
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, a <= b else { return nil }
        return a...b
    }
}
