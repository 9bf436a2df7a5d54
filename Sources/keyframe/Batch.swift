import ArgumentParser
import Foundation
import KeyframeBatch
import KeyframeExport
import KeyframeImport
import KeyframePNG

/// `keyframe batch`: converts every export of a tree into OUT, in parallel and incrementally (see KeyframeBatch).
struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert every export under some folders into an output tree, in parallel, only what changed.",
        discussion: """
            Outputs mirror the input tree: OUT/<path>/<name>.json (normalized), <name>.lottie.json and \
            <name>.ca.json (one clip; with several clips a <name>.lottie/ or <name>.ca/ folder with <clip>.json \
            files), OUT/<path>/preview/<name>.png. A manifest in OUT (.keyframe-manifest.json) records each export's \
            input hashes, options and tool version: unchanged exports are skipped. Failed exports are reported and \
            the rest still converted; the exit code is then 1. With --verify GOLDEN_ROOT every export's frames are \
            also rendered as `keyframe verify` would and compared with GOLDEN_ROOT/<path>/<name>/<clip>-NNNN.png \
            (--record writes them); diff pictures go to OUT/<path>/verify/<name>/.
            """)

    @Argument(help: ArgumentHelp("Folders (or files) to search for exports.", valueName: "ROOT"))
    var roots: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp("The output folder.", valueName: "OUT"))
    var output: String

    @Option(help: ArgumentHelp("What to write per export; repeat for several (default: normalized).",
                               valueName: "normalized|lottie|core-animation|spritesheet"))
    var to: [String] = []

    @Option(help: ArgumentHelp("A file listing exports, one path per line, relative to the file's folder.",
                               valueName: "FILE"))
    var inputs: String?

    @Flag(help: "Write each player format as the folder <name>.lottie/ or <name>.ca/ (one <clip>.json per clip), even for one clip.")
    var playerFolders = false

    @Flag(help: "Also render a contact sheet per export into OUT/<path>/preview/<name>.png.")
    var renderPreviews = false

    @Option(name: .customLong("export-png"),
            help: ArgumentHelp("The PNG preset of the pictures Lottie and Core Animation outputs write: compact (default) or fast (as `keyframe export --png`).",
                               valueName: "compact|fast"))
    var exportPNG: PNGPreset?

    @Option(help: ArgumentHelp("Lottie: the players to target, portable (default) or full (as `keyframe export --profile`).",
                               valueName: "portable|full"))
    var profile: LottieExportSettings.Profile?

    @Flag(help: "Write the Lottie and Core Animation JSON indented, for people to read (as `keyframe export --pretty`).")
    var pretty = false

    @Option(help: ArgumentHelp("Read options from this JSON file (the SwiftPM plugin's keyframe-assets.json: to, strict, previews, profile, png, pretty), when the batch runs; options given here as well add to it (--to replaces its list).",
                               valueName: "FILE.json"))
    var config: String?

    @Option(help: ArgumentHelp("Keep the manifest, its journal, the stat cache and the lock in this folder instead of OUT, so OUT holds nothing but outputs.",
                               valueName: "DIR"))
    var state: String?

    @Flag(help: "Record the content hash of this keyframe executable with its version, so that a rebuilt keyframe converts everything again (for builds that compile keyframe from source, such as the SwiftPM plugin).")
    var toolDigest = false

    @Option(help: "Exports converted at the same time (default: all cores). Output is identical for any value.")
    var jobs: Int?

    @Flag(help: "Treat warning diagnostics as failures.")
    var strict = false

    @Flag(help: "Stop starting exports after the first failure.")
    var failFast = false

    @Flag(help: "Remove the outputs of exports that no longer exist.")
    var prune = false

    @Flag(help: "Convert every export, even those the manifest says are up to date.")
    var force = false

    @Option(help: ArgumentHelp("Write a JSON report here.", valueName: "FILE.json"))
    var report: String?

    @Option(help: ArgumentHelp("Write a JUnit XML report here (one test case per export).", valueName: "FILE.xml"))
    var junit: String?

    @Flag(help: "Leave durations out of the reports, so their bytes depend only on inputs and outputs.")
    var noTimings = false

    @OptionGroup var scaleFactor: ScaleFactorOption

    @OptionGroup var diagnostics: DiagnosticsOption

    @OptionGroup(title: "Verification") var verification: BatchVerifyArguments

    func validate() throws {
        if roots.isEmpty && inputs == nil { throw ValidationError("give at least one ROOT or --inputs FILE") }
        for value in to where BatchTarget(argument: value) == nil {
            throw ValidationError("--to \(value): expected normalized, lottie, core-animation or spritesheet")
        }
        try NumericBounds.jobs.check(jobs, "--jobs")
    }

    func run() throws {
        var options = BatchOptions(toolVersion: Keyframe.configuration.version)
        if let config {
            do throws(BatchError) { options = try BatchConfigFile.read(config).applied(to: options) } catch {
                if diagnostics.format == .build, let located = error.located {
                    try DiagnosticsOption.print([located])
                    throw ExitCode(1)
                }
                throw fail(error.message)
            }
        }
        if !to.isEmpty { options.targets = to.compactMap { BatchTarget(argument: $0) } }
        options.previews = options.previews || renderPreviews
        options.playerFolders = playerFolders
        options.strict = options.strict || strict
        options.prettyJSON = options.prettyJSON || pretty
        if let exportPNG { options.pictures = exportPNG }
        if let profile { options.lottieProfile = profile }
        options.stateFolder = state.map { URL(fileURLWithPath: $0) }
        options.buildMessages = diagnostics.format == .build
        if toolDigest {
            guard let executable = Bundle.main.executablePath else { throw fail("--tool-digest: cannot tell where this executable is") }
            options.toolFile = URL(fileURLWithPath: executable).resolvingSymlinksInPath().path
        }
        options.failFast = failFast
        options.prune = prune
        options.force = force
        options.jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        options.scaleFactor = scaleFactor.value
        options.verify = try verification.options()
        // An exporter this build lacks is a usage error, before anything is searched or written.
        for target in options.orderedTargets {
            if case .exporter(let format) = target, Exporters.exporter(for: format) == nil {
                let available = (["normalized"] + Exporters.available.map(\.rawValue)).joined(separator: ", ")
                throw ValidationError("--to \(format.rawValue) is not available in this build (available: \(available))")
            }
        }
        let outputURL = URL(fileURLWithPath: output)
        let batchReport: BatchReport
        let bar = ProgressBar.forStandardError()
        do throws(BatchError) {
            var exports = try BatchDiscovery.discover(roots: roots.map { URL(fileURLWithPath: $0) }, excluding: outputURL)
            if let inputs { exports += try BatchDiscovery.read(list: URL(fileURLWithPath: inputs)) }
            batchReport = try BatchRunner(exports: exports, output: outputURL, options: options).run { done, total, _ in
                bar?.update(label: "batch", done: done, total: total, unit: "exports")
            }
        } catch {
            try? bar?.finish()
            if error.kind == .usage { throw ValidationError(error.message) }
            throw fail(error.message)
        }
        try bar?.finish()
        for notice in batchReport.notices { try Output.err("keyframe: note: \(notice)\n") }
        // Build form: files under a ROOT (or the --inputs list's folder) named through it as the user wrote it.
        var given = roots.map { (absolute: URL(fileURLWithPath: $0).standardizedFileURL.path, shown: $0) }
        if let inputs {
            let list = URL(fileURLWithPath: inputs)
            given.append((list.deletingLastPathComponent().standardizedFileURL.path,
                          (inputs as NSString).deletingLastPathComponent))
        }
        given.sort { $0.absolute.count > $1.absolute.count }
        for result in batchReport.results {
            if diagnostics.format == .build {
                try DiagnosticsOption.print(result.messages.map { $0.renamingFolders(given) })
            } else if let error = result.error {
                try Output.err("keyframe: error: \(error)\n")
            }
            let lines = result.verification?.errorLines(id: result.id, outPrefix: output.hasSuffix("/") ? output : output + "/")
            if let lines, let first = lines.first {
                try Output.err("keyframe: error: \(first)\n" + lines.dropFirst().map { $0 + "\n" }.joined())
            }
        }
        do {
            if let report { try writeAtomically(batchReport.jsonBytes(timings: !noTimings), to: report) }
            if let junit { try writeAtomically(batchReport.junitBytes(timings: !noTimings), to: junit) }
            if let html = verification.verifyHtml, let golden = verification.verify {
                let record = RecordCommand.text(
                    CommandLine.arguments, dropping: ["--verify-html", "--report", "--junit", "--jobs"],
                    droppingFlags: ["--no-timings", "--fail-fast"])
                let page = batchReport.verificationHTML(output: outputURL, goldenRoot: URL(fileURLWithPath: golden),
                                                        recordCommand: record)
                try writeAtomically(Array(page.utf8), to: html)
            }
        } catch {
            throw fail("\(error)")
        }
        try Output.out(batchReport.summary() + warningPreview(batchReport))
        if batchReport.hasFailures { throw ExitCode(1) }
    }

    /// The first warnings of the run, each with its export, and where to find the rest: what the summary's count
    /// refers to (nothing in the build form, which prints every warning as it goes).
    func warningPreview(_ report: BatchReport, limit: Int = 3) -> String {
        guard diagnostics.format != .build else { return "" }
        let all = report.results.flatMap { result in result.warnings.map { "\(result.id): \($0)" } }
        guard !all.isEmpty else { return "" }
        var text = all.prefix(limit).map { "\($0)\n" }.joined()
        let rest = all.count - min(all.count, limit)
        let more = rest > 0 ? "\(rest) more warning\(rest == 1 ? "" : "s"); " : ""
        text += self.report.map { "\(more)every warning is in \($0)\n" }
            ?? "\(more)--report FILE.json lists every warning with its export\n"
        return text
    }
}
