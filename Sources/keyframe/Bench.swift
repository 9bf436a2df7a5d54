import ArgumentParser
import Foundation
import KeyframeBenchmarks

/// `keyframe bench`: performance measurements with a baseline taken in the same run.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a benchmark and print ratios against a baseline measured in the same run.",
        subcommands: [BenchConvert.self, BenchEngine.self, BenchRender.self, BenchPNG.self, BenchExport.self,
                      BenchPreview.self, BenchBatch.self, BenchScaling.self])
}

/// `keyframe bench convert`: conversion against parsing the same bytes — `JSONSerialization`, node's `JSON.parse`
/// and, for DragonBones and Flump, the official runtime's own parse — in the same run.
struct BenchConvert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Conversion time against JSONSerialization, node's JSON.parse and the official runtimes' parse of "
            + "the same bytes.",
        discussion: """
            For each export: the conversion (import + normalized JSON bytes) against Foundation's JSONSerialization \
            parsing every JSON file of the export, node's JSON.parse of the same files, and — DragonBones, Flump — \
            the official runtime parsing them in node (DragonBonesJS's parseDragonBonesData and \
            parseTextureAtlasData; pixi-flump's FlumpLibrary.create). The runtimes are not part of Keyframe: fetch \
            them as ../shared/tools/oracles/README.md says (into /tmp: /tmp/db-core.js, /tmp/pixi-flump.js are \
            used when present). Fastest of --repetitions for each; wall and CPU ratios.
            """)

    @Argument(help: "Export folders (default: every folder in ../shared/corpus/animate_atlas, dragonbones and flump).")
    var inputs: [String] = []

    @Option(help: "Repetitions per export; the fastest is kept.")
    var repetitions = 5

    @Option(help: ArgumentHelp("DragonBonesJS's core, dragonBones.js (default: $DB_CORE, else /tmp/db-core.js).",
                               valueName: "FILE"))
    var dragonbonesRuntime: String?

    @Option(help: ArgumentHelp("pixi-flump-runtime's pixi-flump.js (default: $FLUMP_RUNTIME, else /tmp/pixi-flump.js).",
                               valueName: "FILE"))
    var flumpRuntime: String?

    @Flag(help: "Do not run node (no JSON.parse or runtime figures).")
    var noNode = false

    func validate() throws {
        try NumericBounds.repetitions.check(repetitions, "--repetitions")
    }

    func run() throws {
        var configuration = ConversionBenchmark.Configuration()
        configuration.repetitions = repetitions
        configuration.node = !noNode
        let environment = ProcessInfo.processInfo.environment
        if !noNode {
            configuration.dragonBonesRuntime = dragonbonesRuntime ?? environment["DB_CORE"] ?? "/tmp/db-core.js"
            configuration.flumpRuntime = flumpRuntime ?? environment["FLUMP_RUNTIME"] ?? "/tmp/pixi-flump.js"
        }
        let results: [ConversionBenchmark.Result]
        do throws(BenchmarkError) {
            var folders: [URL] = []
            if inputs.isEmpty {
                for family in ["animate_atlas", "dragonbones", "flump"] {
                    folders += try BenchmarkInputs.folders([], defaultFolder: "../shared/corpus/" + family)
                }
            } else {
                folders = try BenchmarkInputs.folders(inputs, defaultFolder: "")
            }
            results = try ConversionBenchmark.run(folders: folders, configuration: configuration)
        } catch {
            throw fail(error.message)
        }
        try Output.out(ConversionBenchmark.report(results))
    }
}
