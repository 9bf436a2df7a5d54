import ArgumentParser
import Foundation
import KeyframeBenchmarks
import KeyframeImport
import KeyframePNG
import KeyframeRaster
import KeyframeRender

/// How the benchmark frames a clip.
enum BenchScale: String, ExpressibleByArgument, CaseIterable {
    case native, fit
}

/// `keyframe bench render`: rendering throughput on real clips, against libpng encoding the same frames.
struct BenchRender: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Rendering throughput on real clips against libpng encoding the same frames alone.",
        discussion: """
            For the first clip of each export: pose sampling, rasterizing and PNG encoding are timed separately \
            on the same frames, then the whole pipeline (sample + raster + encode + write) with one worker and \
            with --jobs workers. Prints milliseconds per frame, frames per second, end-to-end over encode-only, \
            and the parallel speed-up; the best of --repetitions runs is kept. Also prints the rasterizer's \
            synthetic fill rates.
            """)

    @Argument(help: "Exports to measure (default: every folder in ../shared/corpus/animate_atlas).")
    var inputs: [String] = []

    @Option(help: "Frame side in pixels (the clip's content is scaled to fit). Repeat for several sizes.")
    var size: [Int] = [1024, 512]

    @Option(help: "native: content at its authored scale, centred (scaled down only if larger); fit: content scaled to fill the frame, as --size does.")
    var scale: [BenchScale] = [.native, .fit]

    @Option(help: "Frames per clip (short clips repeat).")
    var frames = 48

    @Option(help: "Repetitions; the fastest is kept.")
    var repetitions = 3

    @Option(help: "Workers for the parallel measurement.")
    var jobs = 2

    @Option(help: "PNG settings: fast or compact.")
    var png: PNGPreset = .fast

    func validate() throws {
        try NumericBounds.side.check(size, "--size")
        try NumericBounds.benchFrames.check(frames, "--frames")
        try NumericBounds.repetitions.check(repetitions, "--repetitions")
        try NumericBounds.jobs.check(jobs, "--jobs")
    }

    func run() throws {
        let folders: [URL]
        do { folders = try BenchmarkInputs.folders(inputs, defaultFolder: "../shared/corpus/animate_atlas") } catch {
            throw fail(error.message)
        }
        var scenes: [(name: String, scene: RenderScene)] = []
        for folder in folders {
            do {
                let document = try Importer.importDocument(at: folder)
                scenes.append((folder.lastPathComponent,
                               try RenderScene(document: document, assetsFolder: try Importer.detect(folder).folder)))
            } catch {
                throw fail("\(folder.path): \(error)")
            }
        }
        let scratchFolder = try FrameSource.scratchFolder(.benchRender)
        defer { scratchFolder.remove() }
        let scratch = URL(fileURLWithPath: scratchFolder.path)
        for mode in scale {
          for side in size {
            var configuration = RenderBenchmark.Configuration(scratchFolder: scratch)
            configuration.size = side
            configuration.upscale = mode == .fit
            configuration.frames = frames
            configuration.repetitions = repetitions
            configuration.jobs = jobs
            configuration.png = PNGEncodingOptions(preset: png)
            let results: [RenderBenchmark.Result]
            do { results = try RenderBenchmark.run(scenes, configuration: configuration) } catch {
                throw fail("\(error)")
            }
            try Output.out("render \(side)×\(side), content \(mode == .fit ? "scaled to fit" : "at authored scale"), \(png.rawValue) PNG, best of \(repetitions) "
                      + "(ms per frame; e2e = sample + raster + encode + write, one worker):\n")
            try Output.out(RenderBenchmark.report(results, jobs: jobs) + "\n")
          }
        }
        let raster = RasterBenchmark.run(RasterBenchmark.Configuration(frames: 20))
        try Output.out("\(raster)\n")
    }
}
