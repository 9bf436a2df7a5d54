import ArgumentParser
import KeyframeBenchmarks

/// `keyframe bench scaling`: how import, drawing and `play` grow with the number of bones and animators.
struct BenchScaling: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scaling",
        abstract: "Cost per bone and per animator at growing sizes (linear growth shows as a constant cost).",
        discussion: """
            Imports DragonBones skeletons of 1,000, 5,000 and 10,000 bones (chains 100 bones deep) and draws one \
            frame of each; refuses a chain of 100,000 bones (the model's nesting budget); reads and plays the first \
            tick of scripts of 10,000 and 100,000 animators that all start at once. Prints thread CPU time, the \
            fastest of three runs. Build in release (swift build -c release) before measuring.
            """)

    func run() throws {
        let report: ScalingBenchmark.Report
        do { report = try ScalingBenchmark.run() } catch { throw fail("\(error)") }
        try Output.out(report.description)
    }
}
