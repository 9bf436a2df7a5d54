import ArgumentParser
import KeyframeBenchmarks

/// `keyframe bench engine`: per-tick cost of advancing and sampling many animators, against plain interpolation.
struct BenchEngine: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engine",
        abstract: "Engine throughput against plain interpolation.",
        discussion: """
            Creates N animators with cubic Bézier curves on one virtual clock and times ticks of advancing them \
            and reading every animator's value; in the same run it times N animators with linear curves and N \
            plain linear interpolations over flat arrays. Prints the median time per tick, the mean thread CPU \
            time per tick and the ratios. Build in release (swift build -c release) before measuring. Results are \
            recorded in docs/performance.md.
            """)

    @Option(help: "Animators (and plain interpolations) per tick.")
    var animators = 10_000

    @Option(help: "Ticks measured per workload (after one warm-up tick).")
    var ticks = 120

    @Option(help: "Runs of the whole benchmark; the fastest of each workload is kept.")
    var repetitions = 3

    func validate() throws {
        try NumericBounds.animators.check(animators, "--animators")
        try NumericBounds.ticks.check(ticks, "--ticks")
        try NumericBounds.repetitions.check(repetitions, "--repetitions")
    }

    func run() throws {
        let report = EngineBenchmark.run(animators: animators, ticks: ticks, repetitions: repetitions)
        try Output.out(report.description + "\n")
    }
}
