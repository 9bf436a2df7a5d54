import ArgumentParser
import Foundation
import KeyframeExport
import KeyframeImport
import KeyframeModel

/// `keyframe bench export`: Lottie export time against conversion of the same export, measured in the same run.
struct BenchExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Lottie export time (every clip, images included) against converting the same export.")

    @Argument(help: "Export folders (default: every folder in ../shared/corpus/animate_atlas).")
    var inputs: [String] = []

    @Option(help: "Repetitions per export; the fastest is kept.")
    var repetitions = 3

    @Option(help: "The Lottie profile to export.")
    var profile: LottieExportSettings.Profile = .portable

    func run() throws {
        let folders = try benchFolders(inputs)
        print("export | convert ms | lottie export ms | export / convert | clips | bytes")
        var totalConvert = 0.0, totalExport = 0.0
        for folder in folders {
            var convert = Double.infinity, export = Double.infinity
            var clips = 0, bytes = 0
            for _ in 0..<max(repetitions, 1) {
                let start = DispatchTime.now().uptimeNanoseconds
                let document: Document
                do { document = try Importer.importDocument(at: folder) } catch { throw fail("\(error)") }
                let converted = DispatchTime.now().uptimeNanoseconds
                var options = ExportOptions()
                options.lottie.profile = profile
                let result: ExportResult
                do {
                    result = try LottieExporter().export(document, assetsFolder: try Importer.detect(folder).folder,
                                                         options: options)
                } catch { throw fail("\(folder.lastPathComponent): \(error)") }
                let exported = DispatchTime.now().uptimeNanoseconds
                convert = min(convert, Double(converted - start) / 1e6)
                export = min(export, Double(exported - converted) / 1e6)
                clips = result.clips.count
                bytes = result.clips.reduce(0) { $0 + $1.main.bytes.count + $1.companions.reduce(0) { $0 + $1.bytes.count } }
            }
            totalConvert += convert
            totalExport += export
            print(String(format: "%@ | %.1f | %.1f | %.2f× | %d | %d", folder.lastPathComponent, convert, export,
                         export / convert, clips, bytes))
        }
        print(String(format: "total | %.1f | %.1f | %.2f×", totalConvert, totalExport, totalExport / totalConvert))
    }
}
