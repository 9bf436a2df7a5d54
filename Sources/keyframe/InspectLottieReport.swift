import Foundation
import KeyframeExport
import KeyframeImport
import KeyframeModel
import KeyframeRender

extension Inspect {
    /// `inspect --lottie-report`: runs the Lottie export in memory for each profile and prints, per clip, what is
    /// exact (layers, pictures, rewrites), approximated and dropped, followed by the export's warnings.
    func printLottieReport(_ loaded: InputDocument) throws {
        let document = loaded.document
        let exporter = LottieExporter()
        let library: AtlasLibrary
        do {
            library = try AtlasLibrary(document: document, folder: loaded.inputFolder)
        } catch {
            throw fail(loaded.describe(error, assets: nil))
        }
        for profile in LottieExportSettings.Profile.allCases {
            var options = ExportOptions()
            options.lottie.profile = profile
            let outcome: (result: ExportResult, reports: [String: LottieReport])
            do {
                outcome = try exporter.exportWithReports(document, library: library, clips: document.clips,
                                                         options: options)
            } catch {
                throw fail("\(input): \(error)")
            }
            print("Lottie \(profile.rawValue):")
            for clip in document.clips {
                guard let report = outcome.reports[clip.name] else { continue }
                print("  \(clip.name): \(report.summary)")
            }
            for diagnostic in outcome.result.diagnostics where diagnostic.severity == .warning {
                print("  \(diagnostic)")
            }
        }
    }
}
