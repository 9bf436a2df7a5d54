import ArgumentParser
import Foundation
import KeyframeBenchmarks
import KeyframeImport
import KeyframeRender

/// `keyframe bench png`: the fast PNG preset on real rendered frames against zlib, in the same run.
struct BenchPNG: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "png",
        abstract: "The fast PNG preset on rendered frames against zlib level 1 (time and bytes), in the same run.",
        discussion: """
            For the first clip of each export, --frames frames are rendered once (untimed); then the fast preset \
            and zlib level 1 with the up filter and run-length strategy (the fast preset before Keyframe had its own \
            compressor) encode them in turn, the order alternating between repetitions, the fastest kept. Prints \
            milliseconds per frame (thread CPU time, wall clock in brackets), bytes against zlib level 1 with the best \
            filter setting for each frame, and whether libpng decodes every fast file to exactly its frame.
            """)

    @Argument(help: "Exports to measure (default: every folder in ../shared/corpus/animate_atlas).")
    var inputs: [String] = []

    @Option(help: "Frame side in pixels. Repeat for several sizes.")
    var size: [Int] = [1024]

    @Option(help: "native: content at its authored scale, centred (scaled down only if larger); fit: content scaled to fill the frame.")
    var scale: [BenchScale] = [.native, .fit]

    @Option(help: "Frames per clip (short clips repeat).")
    var frames = 24

    @Option(help: "Repetitions; the fastest is kept.")
    var repetitions = 3

    func validate() throws {
        try NumericBounds.side.check(size, "--size")
        try NumericBounds.benchFrames.check(frames, "--frames")
        try NumericBounds.repetitions.check(repetitions, "--repetitions")
    }

    func run() throws {
        let scenes = try benchScenes(inputs)
        for mode in scale {
            for side in size {
                var configuration = FrameEncodingBenchmark.Configuration()
                configuration.size = side
                configuration.upscale = mode == .fit
                configuration.frames = frames
                configuration.repetitions = repetitions
                let results: [FrameEncodingBenchmark.Result]
                do { results = try FrameEncodingBenchmark.run(scenes, configuration: configuration) } catch {
                    throw fail("\(error)")
                }
                try Output.out("png \(side)×\(side), content \(mode == .fit ? "scaled to fit" : "at authored scale"), "
                               + "best of \(repetitions), ms per frame (thread CPU; wall in brackets); zlib = level 1, "
                               + "up, run-length; z1 best = zlib level 1 with the best filter setting per frame:\n")
                try Output.out(FrameEncodingBenchmark.report(results) + "\n")
            }
        }
    }
}

/// The first clip's scene of each export a render benchmark measures (`inputs`, or the Animate corpus).
func benchScenes(_ inputs: [String]) throws -> [(name: String, scene: RenderScene)] {
    var scenes: [(name: String, scene: RenderScene)] = []
    let folders: [URL]
    do { folders = try BenchmarkInputs.folders(inputs, defaultFolder: "../shared/corpus/animate_atlas") } catch {
        throw fail(error.message)
    }
    for folder in folders {
        do {
            let document = try Importer.importDocument(at: folder)
            scenes.append((folder.lastPathComponent,
                           try RenderScene(document: document, assetsFolder: try Importer.detect(folder).folder)))
        } catch {
            throw fail("\(folder.path): \(error)")
        }
    }
    return scenes
}
