import ArgumentParser
import Dispatch
import Foundation
import KeyframeExport
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframeRaster

/// `keyframe bench export`: export time against conversion of the same inputs, measured in the same run.
struct BenchExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export time (every clip, in memory, images included) against converting the same export, in the same run.")

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

    func validate() throws {
        try NumericBounds.repetitions.check(repetitions, "--repetitions")
        try NumericBounds.jobs.check(jobs, "--jobs")
    }

    func run() throws {
        guard let exporter = Exporters.exporter(for: to) else {
            throw fail("export --to \(to.rawValue) is not available in this build")
        }
        var options = ExportOptions()
        options.lottie.profile = profile
        options.pictures = png
        options.jobs = jobs
        let folders = try benchFolders(inputs)
        try Output.out(line: "export, \(to.rawValue): best of \(max(repetitions, 1)), "
                       + (jobs.map { "\($0) job\($0 == 1 ? "" : "s")" } ?? "all cores")
                       + "; ratio = export / convert (goal ≤ 1×)")
        let lottie = to == .lottie
        try Output.out(line: "name".padding(toLength: 44, withPad: " ", startingAt: 0)
                       + "  clips  convert ms  export ms   ratio   output KB" + (lottie ? "  png ms" : ""))
        var totalConvert = 0.0, totalExport = 0.0, totalPNG = 0.0
        for folder in folders {
            var convert = Double.infinity, export = Double.infinity
            var clips = 0, bytes = 0
            do {
                let assets = try Importer.detect(folder).folder
                for _ in 0..<max(repetitions, 1) {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let document = try Importer.importDocument(at: folder)
                    let middle = DispatchTime.now().uptimeNanoseconds
                    let result = try exporter.export(document, assetsFolder: assets, options: options)
                    let end = DispatchTime.now().uptimeNanoseconds
                    convert = min(convert, Double(middle - start) / 1e9)
                    export = min(export, Double(end - middle) / 1e9)
                    clips = result.clips.count
                    bytes = result.clips.reduce(0) { $0 + $1.main.bytes.count + $1.companions.reduce(0) { $0 + $1.bytes.count } }
                }
            } catch {
                throw fail("\(folder.path): \(error)")
            }
            totalConvert += convert
            totalExport += export
            var pngColumn = ""
            if lottie {
                let png = try pictureEncodingTime(folder, options: options)
                totalPNG += png
                pngColumn = String(format: "  %6.1f", png * 1e3)
            }
            try Output.out(line: folder.lastPathComponent.padding(toLength: 44, withPad: " ", startingAt: 0)
                           + String(format: "  %5d  %10.2f  %9.2f  %5.2f×  %10.1f", clips, convert * 1e3, export * 1e3,
                                    export / convert, Double(bytes) / 1024) + pngColumn)
        }
        try Output.out(line: "total".padding(toLength: 44, withPad: " ", startingAt: 0)
                       + String(format: "         %10.2f  %9.2f  %5.2f×", totalConvert * 1e3, totalExport * 1e3,
                                totalExport / totalConvert)
                       + (lottie ? String(format: "             %6.1f", totalPNG * 1e3) : ""))
        if lottie {
            try Output.out(line: "png ms: encoding the export's distinct pictures alone (the same preset, one thread, "
                           + "best of \(max(repetitions, 1))) — a floor no export that writes them can go below on one core")
        }
    }

    /// The time to PNG-encode the pictures a Lottie export of `folder` writes (its `images/` files, decoded first,
    /// untimed), one after another on one thread with the exporter's preset; the fastest of the repetitions.
    private func pictureEncodingTime(_ folder: URL, options: ExportOptions) throws -> Double {
        var folderOptions = options
        folderOptions.lottie.images = .folder
        let document = try Importer.importDocument(at: folder)
        let result = try LottieExporter().export(document, assetsFolder: try Importer.detect(folder).folder,
                                                 options: folderOptions)
        var seen: Set<String> = []
        var bitmaps: [Bitmap] = []
        for clip in result.clips {
            for file in clip.companions where seen.insert(file.relativePath).inserted {
                bitmaps.append(try PNGDecoder().decode(file.bytes))
            }
        }
        var best = Double.infinity
        var encoder = PNGEncoder(options: PNGEncodingOptions(preset: options.pictures))
        for _ in 0..<max(repetitions, 1) {
            let start = DispatchTime.now().uptimeNanoseconds
            for bitmap in bitmaps { _ = try encoder.encode(bitmap) }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best
    }
}
