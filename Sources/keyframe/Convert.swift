import ArgumentParser
import Foundation
import KeyframeImport
import KeyframeModel

/// `keyframe convert`: writes the normalized JSON of an export.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert an export into normalized keyframe JSON.",
        discussion: "INPUT is an export folder, its main JSON file, or a normalized Keyframe JSON.")

    @Argument(help: "The export to convert.")
    var input: String

    @Option(name: .shortAndLong, help: "Write the JSON here (default: standard output).")
    var output: String?

    @Option(help: "Keep only the clip with this name.")
    var clip: String?

    @Flag(help: "Fail when the conversion reports any warning diagnostic.")
    var strict = false

    @OptionGroup var scaleFactor: ScaleFactorOption

    func run() throws {
        let document: Document
        do {
            document = try Importer.importDocument(at: URL(fileURLWithPath: input),
                                                   options: ImportOptions(clip: clip, strict: strict, scaleFactor: scaleFactor.value))
        } catch {
            throw fail("\(error)")
        }
        for diagnostic in document.diagnostics where diagnostic.severity == .warning {
            FileHandle.standardError.write(Data("keyframe: \(diagnostic)\n".utf8))
        }
        let bytes = document.jsonBytes()
        if let output {
            do { try writeAtomically(bytes, to: output) } catch {
                throw fail("\(error)")
            }
        } else {
            FileHandle.standardOutput.write(Data(bytes))
        }
    }
}
