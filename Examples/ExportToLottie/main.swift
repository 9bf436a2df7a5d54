// Exports every clip of an export to Lottie from code and writes the files atomically into a folder.
//
//     swift run ExportToLottie Samples/dragonbones-waver out/waver-lottie
import Foundation
import KeyframeExport
import KeyframeFiles
import KeyframeImport

let arguments = Array(CommandLine.arguments.dropFirst())
let input = URL(fileURLWithPath: arguments.first ?? "Samples/dragonbones-waver")
let output = URL(fileURLWithPath: arguments.count > 1 ? arguments[1] : "lottie")

let detected = try Importer.detect(input)
let document = try Importer.importDocument(at: input)
var options = ExportOptions()  // every clip
options.lottie = LottieExportSettings(profile: .portable, images: .embed)
guard let exporter = Exporters.exporter(for: .lottie) else { fatalError("no Lottie exporter") }
let result = try exporter.export(document, assetsFolder: detected.folder, options: options)

try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
for clip in result.clips {
    for file in [clip.main] + clip.companions {
        let url = output.appendingPathComponent(file.relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(file.bytes, to: url.path)
        print("\(clip.clip): \(file.relativePath), \(file.bytes.count) bytes")
    }
}
for diagnostic in result.diagnostics { print("\(diagnostic.severity): \(diagnostic.message)") }
