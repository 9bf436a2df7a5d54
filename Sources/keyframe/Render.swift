import ArgumentParser
import Foundation
import KeyframeAnimated
import KeyframeEngine
import KeyframeFiles
import KeyframeImport
import KeyframeJSON
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

    @Argument(help: "The export or normalized JSON to render.", completion: .file())
    var input: String

    @Option(help: "Render only this clip (repeat for several).")
    var clip: [String] = []

    @Option(help: "Render an animator script (the format of `keyframe play`) frame by frame.",
            completion: .file(extensions: ["json"]))
    var script: String?

    @Option(name: .shortAndLong, help: ArgumentHelp(
        "Folder for the frames (default: the current folder; with --animated and no -o, no frame files are kept).",
        valueName: "DIR"), completion: .directory)
    var output: String?

    @Option(help: ArgumentHelp(
        "Also write the clip as one animation: APNG (.png, .apng), GIF (.gif) or WebP (.webp), by the extension.",
        valueName: "FILE"), completion: .file(extensions: ["png", "apng", "gif", "webp"]))
    var animated: String?

    @Option(help: ArgumentHelp("WebP compression: lossless (default), lossy or lossy=QUALITY (0-100, default 90).",
                               valueName: "MODE"))
    var webp: String?

    @Option(name: .customLong("gif-palette"),
            help: ArgumentHelp("GIF colours: frame (default: up to 255 per frame) or global (one table).",
                               valueName: "global|frame"))
    var gifPalette: String?

    @Flag(help: "GIF: spread each pixel's colour error to its neighbours (Floyd-Steinberg dithering).")
    var dither = false

    @Option(help: ArgumentHelp("Also write every rendered frame, labelled, into one PNG.", valueName: "FILE"),
            completion: .file(extensions: ["png"]))
    var contactSheet: String?

    @Option(name: .customLong("preview-sheet"),
            help: ArgumentHelp("Write only the preview `keyframe batch --render-previews` makes of an export (up to 12 frames per clip at 4 fps, content framed, 96 px cells) into this PNG, and no frames.",
                               valueName: "FILE"),
            completion: .file(extensions: ["png"]))
    var previewSheet: String?

    @OptionGroup var options: RenderOptions

    @Flag(help: "Remove this clip's frame files from earlier runs in the output folder (<clip>-NNNN.png only).")
    var clean = false

    @Flag(help: "Print what was written (files, sizes, clips, frames, diagnostics) as JSON instead of the summary.")
    var json = false

    @Flag(name: [.short, .long], help: "Print nothing but errors (and the --json report).")
    var quiet = false

    @Flag(help: "Write the frames even when none of them shows any sprite (otherwise that is an error).")
    var allowEmpty = false

    @OptionGroup var diagnostics: DiagnosticsOption

    func validate() throws {
        if previewSheet != nil && (script != nil || contactSheet != nil || !clip.isEmpty || options.frames != nil
                                   || !options.at.isEmpty || options.fps != nil || options.duration != nil
                                   || options.size != nil) {
            throw ValidationError("--preview-sheet writes the batch preview as it is; --script, --contact-sheet, "
                                  + "--clip, --frames, --at, --fps, --duration and --size do not apply")
        }
        if script != nil && (options.frames != nil || !options.at.isEmpty || !clip.isEmpty || options.duration != nil) {
            throw ValidationError(
                "--script renders the script's own timeline; --clip, --frames, --at and --duration do not apply")
        }
        if let animated {
            if !options.at.isEmpty {
                throw ValidationError("--animated plays every frame at the output rate; --at picks single times")
            }
            guard let format = AnimationFormat(path: animated) else {
                throw ValidationError("--animated \(animated): the extension chooses the format; name it .png or "
                                      + ".apng (APNG), .gif (GIF) or .webp (WebP)")
            }
            if webp != nil && format != .webp { throw ValidationError("--webp applies to an --animated .webp file") }
            if (gifPalette != nil || dither) && format != .gif {
                throw ValidationError("--gif-palette and --dither apply to an --animated .gif file")
            }
        } else if webp != nil || gifPalette != nil || dither {
            throw ValidationError("--webp, --gif-palette and --dither apply to --animated")
        }
        if let webp, WebPOptions(argument: webp) == nil {
            throw ValidationError("--webp \(webp): expected lossless, lossy or lossy=QUALITY (0 to 100)")
        }
        if let gifPalette, GIFOptions.Palette(rawValue: gifPalette) == nil {
            throw ValidationError("--gif-palette \(gifPalette): expected global or frame")
        }
    }

    /// Where the frames go: `-o`, else the current folder.
    var outputFolder: String { output ?? "." }

    func run() throws {
        let loaded = try RenderInput.load(input, options: options, quiet: quiet,
                                          outputs: [contactSheet, animated, previewSheet],
                                          diagnostics: diagnostics.format)
        let document = loaded.scene.document
        let scene = loaded.scene
        // --animated without -o: the frames are only a step towards the animation, in a private folder.
        let scratchFolder = animated != nil && output == nil ? try FrameSource.scratchFolder(.animated) : nil
        defer { scratchFolder?.remove() }
        let scratch = scratchFolder.map { URL(fileURLWithPath: $0.path) }
        if let animated {
            let count = script != nil ? 1 : (clip.isEmpty ? document.clips.count : Set(clip).count)
            guard count == 1 else {
                throw fail("--animated writes one clip's animation; choose it with --clip (clips: "
                           + document.clips.map(\.name).joined(separator: ", ") + ")")
            }
            do { try AtomicFile.checkWritable(animated) } catch { throw fail("\(error)") }
        }
        if let script {
            try renderScript(script, input: loaded, folder: scratch)
            return
        }
        if let previewSheet {
            let session = RenderSession.preview(of: scene, to: URL(fileURLWithPath: previewSheet))
            _ = try draw { progress throws(RenderError) in try session.run(reporting: progress) }
            if !quiet && !json { try Output.out(line: "preview sheet: \(previewSheet)") }
            return
        }
        var session = RenderSession(scene: scene)
        configure(&session, folder: scratch)
        session.clips = clip.isEmpty ? nil : clip
        session.selection = options.selection
        let rate = options.fps ?? document.frameRate.framesPerSecond
        var summaries = try draw { progress throws(RenderError) in try session.run(reporting: progress) }
        var note: String? = nil
        if let animated, let summary = summaries.first {
            let plays = document.clip(named: summary.name)?.loopCount ?? 0
            note = try writeAnimation(summary, to: animated, rate: rate, plays: plays)
        }
        if scratch != nil { summaries = summaries.map { var s = $0; s.paths = []; return s } }
        try report(summaries, rate: rate, diagnostics: document.diagnostics, note: note)
    }

    /// Assembles the frames `summary` wrote into the animation at `path` (APNG, GIF or WebP by its extension;
    /// written atomically); returns the summary line that says so.
    func writeAnimation(_ summary: RenderSession.Summary, to path: String, rate: Double, plays: Int) throws -> String {
        let format = AnimationFormat(path: path) ?? .png
        let bytes: [UInt8]
        do {
            bytes = try encodeAnimation(summary, format: format, rate: rate, plays: plays)
            try writeAtomically(bytes, to: path)
        } catch {
            throw fail("\(path): cannot write the animation: \(error)")
        }
        var kind = "animated PNG"
        switch format {
        case .png: break
        case .gif: kind = "animated GIF (\(gifPalette ?? "frame") palette\(dither ? ", dithered" : ""))"
        case .webp: kind = "animated WebP (\(webp ?? "lossless"))"
        }
        return "\(path): \(kind), \(summary.frames.count) frame(s) at \(NumericBounds.text(rate)) fps, "
            + (plays == 0 ? "looping" : "playing \(plays)×")
    }

    /// The bytes of the animation of the frames `summary` wrote, in `format`.
    func encodeAnimation(_ summary: RenderSession.Summary, format: AnimationFormat, rate: Double, plays: Int) throws
        -> [UInt8]
    {
        let width = summary.framing.width, height = summary.framing.height
        switch format {
        case .png:
            var writer = AnimatedPNGWriter(width: width, height: height,
                                           frameDuration: AnimatedPNGWriter.frameDuration(fps: rate), plays: plays,
                                           options: PNGEncodingOptions(preset: options.png))
            for frame in summary.paths { try writer.add(png: try InputFile.read(frame)) }
            return try writer.finish()
        case .gif:
            let palette = gifPalette.flatMap(GIFOptions.Palette.init(rawValue:)) ?? .frame
            var writer = GIFWriter(width: width, height: height, fps: rate, plays: plays,
                                   options: GIFOptions(palette: palette, dither: dither))
            for frame in summary.paths {
                try writer.add(straightRGBA: try PNGDecoder().decodeStraight(try InputFile.read(frame)).pixels)
            }
            return try writer.finish()
        case .webp:
            let writer = try WebPWriter(width: width, height: height, fps: rate, plays: plays,
                                        options: webp.flatMap(WebPOptions.init(argument:)) ?? .lossless)
            for frame in summary.paths {
                try writer.add(straightRGBA: try PNGDecoder().decodeStraight(try InputFile.read(frame)).pixels)
            }
            return try writer.finish()
        }
    }

    /// Runs `body` with a progress bar on a terminal; render errors exit 1.
    func draw<T>(_ body: ((@Sendable (RenderSession.Progress) -> Void)?) throws(RenderError) -> T) throws -> T {
        let bar = quiet || json ? nil : ProgressBar.forStandardError()
        var reporter: (@Sendable (RenderSession.Progress) -> Void)? = nil
        if let bar { reporter = { progress in bar.update(progress) } }
        let result: T
        do {
            result = try body(reporter)
        } catch {
            try? bar?.finish()
            throw fail("\(error)")
        }
        try bar?.finish()
        return result
    }

    /// The summary lines, or the `--json` report.
    func report(_ summaries: [RenderSession.Summary], rate: Double, diagnostics: [Diagnostic], script: String? = nil,
                note: String? = nil) throws
    {
        if json {
            try Output.report(JSONWriter.write(jsonReport(summaries, rate: rate, diagnostics: diagnostics, script: script)) + [0x0A])
            return
        }
        guard !quiet else { return }
        var text = ""
        for summary in summaries {
            let fitNote = options.bounds == nil && summary.fit != (options.fit ?? .stage)
                ? " (the document has no stage size; framed its content)" : ""
            let files = summary.paths.isEmpty ? "" : ": \(Render.describe(summary.paths))"
            let rateNote = script != nil ? " at \(NumericBounds.text(rate)) fps" : ""
            text += "\(summary.name): \(summary.frames.count) frame(s)\(rateNote), "
                + "\(summary.framing.width)×\(summary.framing.height)\(fitNote)\(files)\n"
            if let note = summary.selectionNote { text += "\(summary.name): note: \(note)\n" }
            if !summary.staleFiles.isEmpty {
                text += "\(summary.name): note: \(summary.staleFiles.count) older frame(s) of this clip remain beyond "
                    + "this render: \(Render.describe(summary.staleFiles)) (--clean removes them)\n"
            }
            if !summary.removedFiles.isEmpty {
                text += "\(summary.name): removed \(summary.removedFiles.count) older frame(s): "
                    + "\(Render.describe(summary.removedFiles))\n"
            }
        }
        if let contactSheet { text += "contact sheet: \(contactSheet)\n" }
        if let note { text += note + "\n" }
        try Output.out(text)
    }

    /// What `--json` prints: every file written with its size, per clip, and the diagnostics.
    func jsonReport(_ summaries: [RenderSession.Summary], rate: Double, diagnostics: [Diagnostic], script: String?)
        -> JSONValue
    {
        func file(_ path: String) -> JSONValue {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
            return ["path": .string(path), "bytes": size.map { .number(Double($0)) } ?? .null]
        }
        var object: JSONObject = [
            "input": .string(input),
            "output": output.map { .string($0) } ?? (animated == nil ? .string(outputFolder) : .null),
            "fps": .number(rate),
            "clips": .array(summaries.map { summary in
                var clip: JSONObject = [
                    "name": .string(summary.name),
                    "frames": .number(Double(summary.frames.count)),
                    "width": .number(Double(summary.framing.width)),
                    "height": .number(Double(summary.framing.height)),
                    "fit": .string(summary.fit.rawValue),
                    "files": .array(zip(summary.frames, summary.paths).map { plan, path in
                        var entry = file(path)
                        if case .object(var members) = entry {
                            members["frame"] = .number(Double(plan.number))
                            members["seconds"] = .number(plan.seconds)
                            entry = .object(members)
                        }
                        return entry
                    }),
                    "staleFiles": .array(summary.staleFiles.map { .string($0) }),
                    "removedFiles": .array(summary.removedFiles.map { .string($0) }),
                ]
                if let note = summary.selectionNote { clip["selectionNote"] = .string(note) }
                return .object(clip)
            }),
            "diagnostics": .array(diagnostics.map(\.json)),
        ]
        if let contactSheet { object["contactSheet"] = file(contactSheet) }
        if let animated { object["animated"] = file(animated) }
        if let script { object["script"] = .string(script) }
        return .object(object)
    }

    /// The session settings shared by clip and script renders; frames go to `folder` when given, else to the
    /// output folder.
    func configure(_ session: inout RenderSession, folder: URL? = nil) {
        options.configure(&session)
        session.outputFolder = folder ?? URL(fileURLWithPath: outputFolder)
        session.contactSheet = contactSheet.map { URL(fileURLWithPath: $0) }
        session.clean = clean
        session.failWhenNothingDrawn = !allowEmpty
    }

    /// Plays `scriptPath` on the virtual clock at the output rate and renders every tick: each animator with a clip
    /// target draws its clip at its clip time, in declaration order. INPUT's stage frames the picture.
    func renderScript(_ scriptPath: String, input loaded: RenderInput, folder: URL?) throws {
        let inputScene = loaded.scene
        let rate = options.fps ?? inputScene.document.frameRate.framesPerSecond
        let run = try loaded.playScript(scriptPath, inputPath: URL(fileURLWithPath: input).standardizedFileURL.path,
                                        rate: rate)
        var session = RenderSession(scene: inputScene)
        configure(&session, folder: folder)
        var summary = try draw { progress throws(RenderError) in
            try session.run(name: run.name, plans: run.plans, scenes: run.scenes, reporting: progress)
        }
        let note = try animated.map { path throws in try writeAnimation(summary, to: path, rate: rate, plays: 0) }
        if folder != nil { summary.paths = [] }
        try report([summary], rate: rate, diagnostics: inputScene.document.diagnostics, script: scriptPath, note: note)
    }

    /// `out/walk-0000.png … walk-0023.png`, or the one path.
    static func describe(_ paths: [String]) -> String {
        guard let first = paths.first, let last = paths.last else { return "" }
        return paths.count == 1 ? first : "\(first) … \(URL(fileURLWithPath: last).lastPathComponent)"
    }
}
