import ArgumentParser
import Foundation
import KeyframeBenchmarks

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
        var configuration = PreviewBenchmark.Configuration(input: URL(fileURLWithPath: input))
        configuration.clip = clip
        configuration.frames = frames
        configuration.size = size
        configuration.repetitions = repetitions
        let report: PreviewBenchmark.Report
        do { report = try PreviewBenchmark.run(configuration) } catch { throw fail(error.message) }
        try Output.out(report.description + "\n")
    }
}
