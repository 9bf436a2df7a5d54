import ArgumentParser
import Foundation
import KeyframeDiff
import KeyframeFiles
import KeyframeImport
import KeyframeRender

/// `keyframe diff A B`: what changed between two versions of an export (or two normalized documents).
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show what changed between two versions of an export: structure and motion (exit 1 when anything did).",
        discussion: """
            A and B are anything `convert` accepts (an export folder, its main JSON, a normalized JSON). Reports \
            clips, compositions, nodes and sprites added, removed, renamed or changed, and for every node whose \
            motion changed the largest position, rotation, scale, skew and alpha difference with the frame where it \
            occurs, and the frames where what it shows differs. Only the documents are compared: the same document \
            written differently (its normalized JSON, a re-encoded atlas) has no change. Exit 0 and "no change" \
            when nothing changed beyond --tolerance, 1 when something did (or for an input error), 2 for usage \
            errors.
            """)

    @Argument(help: "The older version.", completion: .file())
    var before: String

    @Argument(help: "The newer version.", completion: .file())
    var after: String

    @Option(help: ArgumentHelp(
        "Largest motion difference that still counts as equal: pixels, degrees, percentage points of scale and alpha.",
        valueName: "N"))
    var tolerance = DiffOptions.defaultTolerance

    @Flag(help: "Print the report as JSON instead of text.")
    var json = false

    @Option(help: ArgumentHelp("Also write a self-contained HTML page with the frames that differ side by side.",
                               valueName: "FILE.html"), completion: .file(extensions: ["html"]))
    var html: String?

    @Option(name: .customLong("assets-a"), help: ArgumentHelp("Folder of A's atlas images (default: A's folder).",
                                                              valueName: "DIR"), completion: .directory)
    var assetsBefore: String?

    @Option(name: .customLong("assets-b"), help: ArgumentHelp("Folder of B's atlas images (default: B's folder).",
                                                              valueName: "DIR"), completion: .directory)
    var assetsAfter: String?

    @OptionGroup var scaleFactor: ScaleFactorOption

    mutating func validate() throws {
        try NumericBounds.motionTolerance.check(tolerance, "--tolerance")
    }

    func run() throws {
        var inputs = CommandInputs()
        let a = try side(before, assets: assetsBefore, inputs: &inputs)
        let b = try side(after, assets: assetsAfter, inputs: &inputs)
        try InputDocument.protect(inputs, outputs: [html])
        let diff = DocumentDiff(before: a, after: b, options: DiffOptions(tolerance: tolerance))
        if let html {
            let page = DiffPage.html(diff, frames: DiffFrames(diff: diff, before: a, after: b))
            do { try writeAtomically(page, to: html) } catch { throw fail("\(error)") }
        }
        // JSON escapes by its own rules; text goes through the terminal rule.
        if json { try Output.out(diff.jsonBytes) } else { try Output.out(diff.text) }
        if diff.hasChanges { throw ExitCode(1) }
    }

    /// Imports `input` and, when its images can be read, decodes them (otherwise the diff says so).
    private func side(_ input: String, assets: String?, inputs: inout CommandInputs) throws -> DiffSide {
        let loaded = try InputDocument.load(input, options: ImportOptions(scaleFactor: scaleFactor.value))
        let assetsFolder = assets.map { InputFolder($0) } ?? loaded.inputFolder
        InputDocument.add(loaded.document, folder: loaded.folder, format: loaded.format, mainFile: loaded.mainFile,
                          assets: assetsFolder, to: &inputs)
        let folder = assets.map { URL(fileURLWithPath: $0) } ?? loaded.folder
        do {
            return DiffSide(label: input, document: loaded.document,
                            scene: try RenderScene(document: loaded.document, assetsFolder: folder))
        } catch {
            return DiffSide(label: input, document: loaded.document, scene: nil, missingImages: "\(error)")
        }
    }
}
