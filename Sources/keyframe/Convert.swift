import ArgumentParser
import Foundation
import KeyframeImport
import KeyframeJSON
import KeyframeModel

/// `keyframe convert`: writes the normalized JSON of an export.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert an export into normalized keyframe JSON.",
        discussion: "INPUT is an export folder, its main JSON file, or a normalized Keyframe JSON.")

    @Argument(help: "The export to convert.", completion: .file())
    var input: String

    @Option(name: .shortAndLong, help: "Write the JSON here (default: standard output).", completion: .file(extensions: ["json"]))
    var output: String?

    @Option(help: "Keep only the clip with this name.")
    var clip: String?

    @Flag(help: "Fail when the conversion reports any warning diagnostic.")
    var strict = false

    @Flag(help: "Write the JSON without indentation or line breaks (same content, about a third smaller).")
    var compact = false

    @Flag(help: "Print what was written (path, size, clips, diagnostics) as JSON; needs -o.")
    var json = false

    @OptionGroup var scaleFactor: ScaleFactorOption

    @OptionGroup var diagnostics: DiagnosticsOption

    func validate() throws {
        if json && output == nil {
            throw ValidationError("--json prints a report of what was written, so it needs -o FILE "
                                  + "(without -o the document itself goes to standard output)")
        }
    }

    func run() throws {
        // The atlas images' pixels are not needed for the JSON: a missing one is a warning (sizes from the atlas JSON).
        let loaded = try InputDocument.load(input, options: ImportOptions(clip: clip, strict: strict,
                                                                          scaleFactor: scaleFactor.value,
                                                                          allowMissingImages: true),
                                         diagnostics: diagnostics.format)
        let document = loaded.document
        try InputDocument.protect(loaded.commandInputs(), outputs: [output])
        try loaded.printWarnings()
        let bytes = compact ? JSONWriter.writeCompact(document.json) : document.jsonBytes()
        guard let output else {
            try Output.out(bytes)
            return
        }
        do { try writeAtomically(bytes, to: output) } catch {
            throw fail("\(error)")
        }
        if json {
            let report: JSONValue = [
                "input": .string(input),
                "format": .string(document.source.format.rawValue),
                "output": ["path": .string(output), "bytes": .number(Double(bytes.count))],
                "clips": .array(document.clips.map { clip in
                    ["name": .string(clip.name), "frames": .number(clip.duration.value),
                     "seconds": .number(document.frameRate.secondsValue(for: clip.duration))]
                }),
                "diagnostics": .array(document.diagnostics.map(\.json)),
            ]
            try Output.report(JSONWriter.write(report) + [0x0A])
        }
    }
}
