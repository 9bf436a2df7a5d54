import ArgumentParser
import Foundation
import KeyframeBenchmarks

/// `keyframe bench batch`: the batch runner against bare in-process conversion of the same exports.
struct BenchBatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Batch conversion: --jobs 1 vs 2, batch overhead over a bare conversion loop, and a no-change rerun.",
        discussion: """
            Over every export under the roots (default: ../shared/corpus), measured in the same run: the baseline, \
            a plain loop that imports each export, writes its JSON bytes and nothing else; `batch --jobs 1` and \
            `--jobs 2` into fresh output folders; and a second `--jobs 2` run with nothing changed. Prints the \
            speed-up of 2 jobs over 1, batch's overhead over the baseline, and the no-change run as a share of the \
            first, in wall and in process CPU time. The best of --repetitions is kept for each.
            """)

    @Argument(help: "Folders to search for exports (default: ../shared/corpus).")
    var roots: [String] = []

    @Option(help: "Repetitions; the fastest is kept.")
    var repetitions = 3

    func validate() throws {
        try NumericBounds.repetitions.check(repetitions, "--repetitions")
    }

    func run() throws {
        let rootURLs = roots.isEmpty ? [URL(fileURLWithPath: "../shared/corpus")] : roots.map { URL(fileURLWithPath: $0) }
        var configuration = BatchBenchmark.Configuration(roots: rootURLs, toolVersion: Keyframe.configuration.version)
        configuration.repetitions = repetitions
        let report: BatchBenchmark.Report
        do { report = try BatchBenchmark.run(configuration) } catch { throw fail(error.message) }
        try Output.out(report.description + "\n")
    }
}
