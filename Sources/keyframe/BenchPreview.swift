import ArgumentParser
import Foundation
import KeyframeImport
import KeyframeModel

/// `keyframe bench preview`: the cost of `preview` against `render` of the same frames, measured in the same run.
struct BenchPreview: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Time `preview` against `render` of the same frames (ratio; goal ≤ 1.2×).",
        discussion: """
            Both import INPUT and render the same frames through the same render session (one worker, fast PNG); \
            `render` writes the frames into a folder, `preview` also reads them back and writes the page. The \
            output rate is chosen so the clip lasts FRAMES frames. Runs alternate; the fastest of each is kept.
            """)

    @Argument(help: "The export to measure (default: Samples/animate-walker).")
    var input = "Samples/animate-walker"

    @Option(help: "The clip (default: the first).")
    var clip: String?

    @Option(help: "Frames to render.")
    var frames = 100

    @Option(help: "Output size (square).")
    var size = 512

    @Option(help: "Repetitions; the fastest is kept.")
    var repetitions = 5

    func validate() throws {
        try NumericBounds.benchFrames.check(frames, "--frames")
        try NumericBounds.side.check(size, "--size")
        try NumericBounds.repetitions.check(repetitions, "--repetitions")
    }

    func run() throws {
        let url = URL(fileURLWithPath: input)
        let document: Document
        do { document = try Importer.importDocument(at: url) } catch { throw fail("\(error)") }
        guard let chosen = clip.flatMap({ document.clip(named: $0) }) ?? document.clips.first else {
            throw fail("\(input) has no clip \(clip ?? "")")
        }
        let seconds = chosen.duration.value / document.frameRate.framesPerSecond
        let fps = Double(frames) / seconds
        let options = try RenderOptions.parse(["--fps", String(fps), "--size", "\(size)x\(size)", "--jobs", "1",
                                               "--fit", "content", "--frames", "0..\(frames - 1)"])
        let source = FrameSource(input: input, clips: [chosen.name], script: nil, options: options, quiet: true)
        var best = (render: Double.infinity, preview: Double.infinity)
        var cpu = (render: Double.infinity, preview: Double.infinity)
        var pageSize = 0
        for _ in 0..<max(1, repetitions) {
            let renderFolder = try FrameSource.scratchFolder(.benchRender)
            var start = DispatchTime.now().uptimeNanoseconds
            var cpuStart = BenchPreview.processorSeconds()
            _ = try source.render(into: URL(fileURLWithPath: renderFolder.path))
            best.render = min(best.render, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            cpu.render = min(cpu.render, BenchPreview.processorSeconds() - cpuStart)
            renderFolder.remove()

            let previewScratch = try FrameSource.scratchFolder(.benchPreview)
            let previewFolder = URL(fileURLWithPath: previewScratch.path)
            let page = previewFolder.appendingPathComponent("page.html")
            start = DispatchTime.now().uptimeNanoseconds
            cpuStart = BenchPreview.processorSeconds()
            let rendered = try source.render(into: previewFolder.appendingPathComponent("frames"))
            let (bytes, _) = try Preview.page(for: rendered, at: page, referencingFiles: false, title: nil)
            try writeAtomically(bytes, to: page.path)
            best.preview = min(best.preview, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            cpu.preview = min(cpu.preview, BenchPreview.processorSeconds() - cpuStart)
            pageSize = bytes.count
            previewScratch.remove()
        }
        try Output.out(line: "\(URL(fileURLWithPath: input).lastPathComponent) \(chosen.name): \(frames) frames at \(size)², "
              + "fastest of \(repetitions)")
        try Output.out(line: String(format: "render  %8.1f ms wall  %8.1f ms CPU  %6.1f frames/s", best.render * 1000,
                     cpu.render * 1000, Double(frames) / best.render))
        try Output.out(line: String(format: "preview %8.1f ms wall  %8.1f ms CPU  %6.1f frames/s  page %@", best.preview * 1000,
                     cpu.preview * 1000, Double(frames) / best.preview, Preview.megabytes(pageSize)))
        try Output.out(line: String(format: "preview / render: %.3f× wall, %.3f× CPU", best.preview / best.render,
                     cpu.preview / cpu.render))
    }

    /// CPU time used by this process so far (less disturbed than wall time when other processes share the cores).
    static func processorSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
