import ArgumentParser
import Foundation
import KeyframePreview
import KeyframeRender

/// `keyframe preview`: one self-contained HTML page with the rendered frames, a player, curves and script graphs.
struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write an interactive HTML preview of an export's clips (or of an animator script).",
        discussion: """
            Renders the frames `keyframe render` would render with the same options and writes one HTML file \
            that needs nothing else: the frames (as key pictures and the rectangles later frames change, each \
            picture once; the first frame is drawn as soon as its pictures arrive), a player (play/pause, step, \
            scrubber, reverse, speed, loop, clip selector, zoom fitted to the window, background, onion skin; keys \
            space, ←/→, Home/End; \
            #frame=N&clip=NAME links), a timeline with one row per node (keyframes, eased segments; click, drag \
            or keyboard to seek), graphs of the selected node's x, y, rotation, scale and alpha over the clip \
            with their values at the playhead, \
            and for --script the animators' fraction complete with the script's steps marked. The page loads \
            nothing from the network. Pages above 64 MiB get a warning; --frames-folder keeps the frames as PNG \
            files beside the page instead.
            """)

    @Argument(help: "The export or normalized JSON to preview.")
    var input: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The HTML file to write.", valueName: "FILE.html"))
    var output: String

    @Option(help: "Preview only this clip (repeat for several; default: every clip).")
    var clip: [String] = []

    @Option(help: "Preview an animator script (the format of `keyframe play`) instead of clips.")
    var script: String?

    @OptionGroup var options: RenderOptions

    @Option(help: ArgumentHelp("Write the frames as PNG files into this folder and reference them from the page.",
                               valueName: "DIR"))
    var framesFolder: String?

    @Option(help: ArgumentHelp("Warn when the page is larger than this many MiB.", valueName: "MB"))
    var sizeWarning = Double(PreviewPage.sizeWarningThreshold) / 1_048_576

    @Option(help: "The page title (default: the document's name).")
    var title: String?

    @Flag(help: "Print nothing but errors and warnings.")
    var quiet = false

    mutating func validate() throws {
        try NumericBounds.mebibytes.check(sizeWarning, "--size-warning")
    }

    func run() throws {
        let page = URL(fileURLWithPath: output).standardizedFileURL
        let scratch = framesFolder == nil ? try FrameSource.scratchFolder(.preview) : nil
        defer { scratch?.remove() }
        let folder = URL(fileURLWithPath: scratch?.path ?? framesFolder!).standardizedFileURL
        let source = FrameSource(input: input, clips: clip, script: script, options: options, quiet: quiet)
        let rendered = try source.render(into: folder)

        let (bytes, summary) = try Preview.page(for: rendered, at: page, referencingFiles: framesFolder != nil,
                                                title: title)
        do { try writeAtomically(bytes, to: page.path) } catch { throw fail("\(error)") }
        let limit = Int(sizeWarning * 1_048_576)
        if bytes.count > limit {
            try Output.warn(
                "warning: \(output) is \(Preview.megabytes(bytes.count)), more than "
                    + "\(Preview.megabytes(limit)); browsers may be slow to open it. "
                    + "--frames-folder DIR keeps the frames beside the page instead.")
        }
        if !quiet { try Output.out("\(output): \(summary), \(Preview.megabytes(bytes.count))\n") }
    }

    /// The page's bytes for what `source` rendered, and a summary (`2 clip(s), 48 frame(s), 33 distinct`). With
    /// `referencingFiles` the frames are referenced by their path relative to `page` instead of embedded.
    static func page(for rendered: FrameSource.Result, at page: URL, referencingFiles: Bool, title: String?) throws
        -> (bytes: [UInt8], summary: String)
    {
        var store = PreviewImageStore()
        var clips: [PreviewClip] = []
        var frameCount = 0
        var encoder = PreviewFrameEncoder()
        for sequence in rendered.sequences {
            var frames: [PreviewClip.Frame] = []
            for (plan, path) in zip(sequence.plans, sequence.paths) {
                guard let bytes = FileManager.default.contents(atPath: path) else {
                    throw fail("\(path): cannot read the rendered frame")
                }
                if referencingFiles {
                    let reference = relativePath(from: page.deletingLastPathComponent(), to: URL(fileURLWithPath: path))
                    frames.append(PreviewClip.Frame(number: plan.number, seconds: plan.seconds,
                                                    image: store.add(Array(bytes), reference: reference)))
                } else {
                    // Embedded: key pictures and the changed rectangles of the frames after them.
                    let layers: [PreviewClip.Layer]
                    do { layers = try encoder.layers(for: Array(bytes), store: &store) } catch {
                        throw fail("\(path): \(error)")
                    }
                    frames.append(PreviewClip.Frame(number: plan.number, seconds: plan.seconds, layers: layers))
                }
            }
            frameCount += frames.count
            var previewClip = PreviewClip(name: sequence.name, fps: rendered.fps, width: sequence.framing.width,
                                          height: sequence.framing.height, frames: frames)
            if let clip = sequence.clip {
                previewClip.curves = NodeCurves.make(document: rendered.document, clip: clip)
                previewClip.composition = rendered.document.composition(clip.composition)?.name ?? clip.composition
            }
            if let run = rendered.script {
                previewClip.script = ScriptGraph(script: run.script, ticks: run.ticks)
            }
            clips.append(previewClip)
        }
        let bytes = PreviewPage(title: title ?? rendered.document.name, clips: clips, images: store).htmlBytes()
        let pictures = referencingFiles ? "\(store.images.count) distinct" : "\(store.images.count) picture(s)"
        return (bytes, "\(clips.count) clip(s), \(frameCount) frame(s), \(pictures)")
    }

    /// `12.3 MB`, `64 MB` (MiB), `0.04 MB`.
    static func megabytes(_ count: Int) -> String {
        let value = Double(count) / 1_048_576
        if value == value.rounded() { return "\(Int(value)) MB" }
        return String(format: value < 0.1 ? "%.2f MB" : "%.1f MB", value)
    }

    /// The path of `target` relative to `folder`, with `/` separators and percent-encoding for a URL.
    static func relativePath(from folder: URL, to target: URL) -> String {
        let base = folder.standardizedFileURL.pathComponents
        let parts = target.standardizedFileURL.pathComponents
        var common = 0
        while common < base.count, common < parts.count, base[common] == parts[common] { common += 1 }
        let up = Array(repeating: "..", count: base.count - common)
        let path = (up + parts[common...]).joined(separator: "/")
        return path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }
}
