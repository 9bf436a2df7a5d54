import ArgumentParser
import Foundation
import KeyframePNG
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

    @Flag(name: [.short, .long], help: "Print nothing but errors and warnings.")
    var quiet = false

    mutating func validate() throws {
        try NumericBounds.mebibytes.check(sizeWarning, "--size-warning")
        if let size = options.size, let parsed = RenderOptions.parseSize(size),
           parsed.width * parsed.height > Preview.maximumFramePixels {
            throw ValidationError("--size \(size): a preview frame holds at most \(Preview.maximumFramePixels) pixels "
                                  + "(\(parsed.width * parsed.height) asked), e.g. 8192x8192 or 16384x4096")
        }
    }

    /// The most pixels one frame of a page may have: what the page's picture encoder decodes
    /// (`PNGDecodingLimits.standard.maxPixels`).
    static let maximumFramePixels = PNGDecodingLimits.standard.maxPixels

    /// Refuses frames larger than ``maximumFramePixels`` (framed content without `--size`), naming the clip.
    static func checkFrameSizes(_ rendered: FrameSource.Result) throws {
        for sequence in rendered.sequences where sequence.framing.width * sequence.framing.height > maximumFramePixels {
            throw fail("\(sequence.name): the frames are \(sequence.framing.width)×\(sequence.framing.height), more "
                       + "than the \(maximumFramePixels) pixels a preview frame holds; choose a smaller --size")
        }
    }

    func run() throws {
        let page = URL(fileURLWithPath: output).standardizedFileURL
        let scratch = framesFolder == nil ? try FrameSource.scratchFolder(.preview) : nil
        defer { scratch?.remove() }
        let folder = URL(fileURLWithPath: scratch?.path ?? framesFolder!).standardizedFileURL
        let source = FrameSource(input: input, clips: clip, script: script, options: options, quiet: quiet,
                                 outputs: [output])
        let rendered = try source.render(into: folder)
        try Preview.checkFrameSizes(rendered)

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
        let sequences = try rendered.sequences.map { sequence in
            let frames = try zip(sequence.plans, sequence.paths).map { plan, path in
                guard let bytes = FileManager.default.contents(atPath: path) else {
                    throw fail("\(path): cannot read the rendered frame")
                }
                let reference = referencingFiles
                    ? relativePath(from: page.deletingLastPathComponent(), to: URL(fileURLWithPath: path)) : nil
                return PreviewSequence.Frame(number: plan.number, seconds: plan.seconds, png: Array(bytes),
                                             reference: reference, path: path)
            }
            return PreviewSequence(name: sequence.name, clip: sequence.clip, width: sequence.framing.width,
                                   height: sequence.framing.height, frames: frames)
        }
        let preview: PreviewPage
        do {
            preview = try PreviewPage(title: title ?? rendered.document.name, document: rendered.document,
                                      fps: rendered.fps, sequences: sequences, script: rendered.script)
        } catch {
            throw fail("\(error)")
        }
        let pictures = "\(preview.images.images.count) " + (referencingFiles ? "distinct" : "picture(s)")
        return (preview.htmlBytes(), "\(preview.clips.count) clip(s), \(preview.frameCount) frame(s), \(pictures)")
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
