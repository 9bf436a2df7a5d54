import ArgumentParser
import Foundation
import KeyframeExport
import KeyframeImport
import KeyframeModel

extension ExportFormat: ExpressibleByArgument {}
extension LottieExportSettings.Profile: ExpressibleByArgument {}
extension LottieExportSettings.Images: ExpressibleByArgument {}

/// `keyframe export`: writes a document's clips in a player's format (Lottie, Core Animation).
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export an export's clips for players: Lottie or Core Animation keyframe data.",
        discussion: """
            INPUT is anything `convert` reads. One file per clip: with one clip, -o names the file; with several, \
            -o is a folder and each clip is written as <clip>.json in it.
            """)

    @Argument(help: "The export or normalized JSON to export.")
    var input: String

    @Option(help: "The format to write.")
    var to: ExportFormat

    @Option(name: .shortAndLong, help: ArgumentHelp("The file (one clip) or folder (several clips) to write.", valueName: "PATH"))
    var output: String

    @Option(help: "Export only this clip (repeat for several; default: every clip).")
    var clip: [String] = []

    @Flag(help: "Fail when the conversion or the export reports any warning diagnostic.")
    var strict = false

    @Option(help: ArgumentHelp("Folder holding the atlas images (default: the input's folder).", valueName: "DIR"))
    var assets: String?

    @OptionGroup var scaleFactor: ScaleFactorOption

    @Option(help: ArgumentHelp("Lottie: the players to target, portable (rlottie, ThorVG, lottie-web, lottie-ios) or full.",
                               valueName: "portable|full"))
    var profile: LottieExportSettings.Profile = .portable

    @Option(help: ArgumentHelp("Lottie: images embedded as data URLs, or written to images/ beside the file.",
                               valueName: "embed|folder"))
    var images: LottieExportSettings.Images = .embed

    func run() throws {
        guard let exporter = Exporters.exporter(for: to) else {
            throw fail("export --to \(to.rawValue) is not available in this build")
        }
        let inputURL = URL(fileURLWithPath: input)
        let document: Document
        let assetsFolder: URL
        do {
            let detected = try Importer.detect(inputURL)
            document = try Importer.importDocument(
                at: inputURL, options: ImportOptions(strict: strict, scaleFactor: scaleFactor.value))
            assetsFolder = assets.map { URL(fileURLWithPath: $0) } ?? detected.folder
        } catch {
            throw fail("\(error)")
        }
        for diagnostic in document.diagnostics where diagnostic.severity == .warning {
            FileHandle.standardError.write(Data("keyframe: \(diagnostic)\n".utf8))
        }
        let result: ExportResult
        var options = ExportOptions(clips: clip.isEmpty ? nil : clip, strict: strict)
        options.lottie = LottieExportSettings(profile: profile, images: images)
        do {
            result = try exporter.export(document, assetsFolder: assetsFolder, options: options)
        } catch {
            throw fail("\(input): \(error)")
        }
        for diagnostic in result.diagnostics where diagnostic.severity == .warning {
            FileHandle.standardError.write(Data("keyframe: \(diagnostic)\n".utf8))
        }
        // One clip: -o is the main file. Several: -o is a folder holding each clip's files.
        let single = result.clips.count == 1 && !output.hasSuffix("/")
        for exported in result.clips {
            let mainPath = single ? output : (output as NSString).appendingPathComponent(exported.main.relativePath)
            let folder = (mainPath as NSString).deletingLastPathComponent
            for file in exported.companions + [exported.main] {
                let path = file == exported.main ? mainPath : (folder as NSString).appendingPathComponent(file.relativePath)
                do { try writeAtomically(file.bytes, to: path) } catch {
                    throw fail("\(error)")
                }
            }
            print("\(exported.clip): \(mainPath)")
        }
    }
}
