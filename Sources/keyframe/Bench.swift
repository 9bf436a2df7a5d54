import ArgumentParser
import Foundation
import KeyframeBenchmarks
import KeyframeImport

/// `keyframe bench`: performance measurements with a baseline taken in the same run.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a benchmark and print ratios against a baseline measured in the same run.",
        subcommands: [BenchConvert.self, BenchEngine.self, BenchRender.self, BenchPNG.self, BenchExport.self,
                      BenchPreview.self, BenchBatch.self])
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
        let folders = try benchFolders(inputs)
        let results: [ConversionBenchmark.Result]
        do { results = try ConversionBenchmark.run(folders: folders, repetitions: repetitions) } catch {
            throw fail("\(error)")
        }
        try Output.out(ConversionBenchmark.report(results))
    }
}

/// The export folders a benchmark measures: `inputs`, or every folder of `../shared/corpus/animate_atlas`.
func benchFolders(_ inputs: [String]) throws -> [URL] {
    if !inputs.isEmpty { return inputs.map { URL(fileURLWithPath: $0) } }
    let corpus = URL(fileURLWithPath: "../shared/corpus/animate_atlas")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
    guard !names.isEmpty else { throw fail("no inputs given and ../shared/corpus/animate_atlas not found") }
    return names.sorted().map { corpus.appendingPathComponent($0) }
}
