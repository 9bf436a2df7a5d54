import ArgumentParser
import Foundation
import KeyframeExport
import KeyframeImport
import KeyframeModel

extension ExportFormat: ExpressibleByArgument {}
extension CALayerTreeFile.Format: ExpressibleByArgument {}

/// `keyframe export`: writes a document's clips in a player's format (Lottie, Core Animation).
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export an export's clips for players: Lottie or Core Animation keyframe data.",
        discussion: """
            INPUT is anything `convert` reads. One file per clip: with one clip, -o names the file; with several, \
            -o is a folder and each clip is written as <clip>.json in it.
            """)

    @Argument(help: "The export or normalized JSON to export.", completion: .file())
    var input: String

    @Option(help: "The format to write.")
    var to: ExportFormat

    @Option(name: .shortAndLong, help: ArgumentHelp("The file (one clip) or folder (several clips) to write.", valueName: "PATH"),
            completion: .file())
    var output: String

    @Option(help: "Export only this clip (repeat for several; default: every clip).")
    var clip: [String] = []

    @Flag(help: "Fail when the conversion or the export reports any warning diagnostic.")
    var strict = false

    @Option(help: ArgumentHelp("Folder holding the atlas images (default: the input's folder).", valueName: "DIR"),
            completion: .directory)
    var assets: String?

    @OptionGroup var scaleFactor: ScaleFactorOption

    @Option(name: .customLong("format"),
            help: ArgumentHelp("Core Animation: write the layer tree as json (default) or plist.", valueName: "json|plist"))
    var coreAnimationFormat: CALayerTreeFile.Format?

    func run() throws {
        if coreAnimationFormat != nil && to != .coreAnimation {
            throw ValidationError("--format applies to --to core-animation only")
        }
        guard let exporter = Exporters.exporter(for: to) else {
            throw fail("export --to \(to.rawValue) is not available in this build")
        }
        let loaded = try InputDocument.load(input, options: ImportOptions(strict: strict, scaleFactor: scaleFactor.value))
        let document = loaded.document
        let assetsFolder = assets.map { URL(fileURLWithPath: $0) } ?? loaded.folder
        try loaded.printWarnings()
        var options = ExportOptions(clips: clip.isEmpty ? nil : clip, strict: strict)
        if let coreAnimationFormat { options.coreAnimationFormat = coreAnimationFormat }
        let result: ExportResult
        do {
            result = try exporter.export(document, assetsFolder: assetsFolder, options: options)
        } catch {
            throw fail("\(input): \(error)")
        }
        for diagnostic in result.diagnostics where diagnostic.severity == .warning {
            try Output.warn("\(diagnostic)")
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
            try Output.out("\(exported.clip): \(mainPath)\n")
        }
    }
}
