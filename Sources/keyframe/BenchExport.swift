import ArgumentParser
import KeyframeBenchmarks
import KeyframeExport
import KeyframePNG

/// `keyframe bench export`: export time against conversion of the same inputs and against encoding the export's
/// pictures alone, measured in the same run.
struct BenchExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export time (every clip, in memory, pictures included) against converting the same export and "
            + "encoding its pictures alone, in the same run.")

    @Argument(help: "Export folders (default: every folder in ../shared/corpus/animate_atlas).")
    var inputs: [String] = []

    @Option(help: "The format to export.")
    var to: ExportFormat = .coreAnimation

    @Option(help: "The Lottie profile to export (with --to lottie).")
    var profile: LottieExportSettings.Profile = .portable

    @Option(help: ArgumentHelp("The PNG preset of the exported pictures.", valueName: "compact|fast"))
    var png: PNGPreset = .compact

    @Option(help: "Repetitions per export; the fastest of each is kept.")
    var repetitions = 5

    @Option(help: "Clips exported in parallel, as for export (default: all cores).")
    var jobs: Int?

    @Flag(help: "Also export each input that has meshes with its meshes left out, and compare time and bytes.")
    var meshes = false
    @Flag(help: ArgumentHelp("Remove every node's filters after the import: the baseline of filtered exports (their cost when the filters are left out rather than drawn into pictures)."))
    var withoutFilters = false

    func validate() throws {
        try NumericBounds.repetitions.check(repetitions, "--repetitions")
        try NumericBounds.jobs.check(jobs, "--jobs")
    }

    func run() throws {
        var configuration = ExportBenchmark.Configuration(format: to)
        configuration.options.lottie.profile = profile
        configuration.options.pictures = png
        configuration.options.jobs = jobs
        configuration.repetitions = repetitions
        configuration.comparesMeshes = meshes
        configuration.withoutFilters = withoutFilters
        let results: [ExportBenchmark.Result]
        do throws(BenchmarkError) {
            let folders = try BenchmarkInputs.folders(inputs, defaultFolder: "../shared/corpus/animate_atlas")
            results = try ExportBenchmark.run(folders: folders, configuration: configuration)
        } catch {
            throw fail(error.message)
        }
        try Output.out(ExportBenchmark.report(results, configuration: configuration))
    }
}
