import ArgumentParser
import KeyframeBenchmarks

/// `keyframe bench`: performance measurements with a baseline taken in the same run.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a benchmark and print ratios against a baseline measured in the same run.",
        subcommands: [BenchConvert.self, BenchEngine.self, BenchRender.self, BenchExport.self, BenchPreview.self,
                      BenchBatch.self])
}

/// `keyframe bench convert`: conversion throughput vs a bare JSONSerialization parse.
struct BenchConvert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Conversion throughput (MB/s) against Foundation's JSONSerialization parsing the same bytes.")

    @Argument(help: "Export folders (default: every folder in ../shared/corpus/animate_atlas).")
    var inputs: [String] = []

    @Option(help: "Repetitions per export; the fastest is kept.")
    var repetitions = 5

    func validate() throws {
        try NumericBounds.repetitions.check(repetitions, "--repetitions")
    }

    func run() throws {
        let results: [ConversionBenchmark.Result]
        do throws(BenchmarkError) {
            let folders = try BenchmarkInputs.folders(inputs, defaultFolder: "../shared/corpus/animate_atlas")
            results = try ConversionBenchmark.run(folders: folders, repetitions: repetitions)
        } catch {
            throw fail(error.message)
        }
        try Output.out(ConversionBenchmark.report(results))
    }
}
