import ArgumentParser
import Foundation
import KeyframeFiles
import KeyframeImport
import KeyframeModel
import KeyframeRender

/// Imports INPUT for every command, so that errors name files as the user wrote the path
/// (`Samples/walker/Animation.json:11:119`, not `Animation.json:11:119`).
struct InputDocument {
    /// INPUT as the user gave it.
    var input: String
    /// The document.
    var document: Document
    /// Where the export's files are (the default atlas-image folder).
    var folder: URL
    /// Which format INPUT holds.
    var format: DetectedFormat
    /// The export's folder as the user wrote it (see ``displayFolder(input:)``).
    var displayFolder: String
    /// The export's folder as every path its files name is resolved in (the default atlas-image folder): opened and
    /// named in messages as the user wrote it.
    var inputFolder: InputFolder
    /// The file INPUT was detected by, relative to ``folder`` (`Animation.json`, a normalized document's file).
    var mainFile: String

    /// How errors and warnings are printed (`--diagnostics-format`).
    var diagnostics: DiagnosticsFormat = .plain

    /// Imports `input` with `options`.
    ///
    /// - Throws: `ExitCode(1)` after printing the import error with file names as the user gave them, in the
    ///   `diagnostics` format.
    static func load(_ input: String, options: ImportOptions = ImportOptions(),
                     diagnostics: DiagnosticsFormat = .plain) throws(ExitCode) -> InputDocument
    {
        let url = URL(fileURLWithPath: input)
        do {
            let detected = try Importer.detect(url)
            let document = try Importer.importDocument(at: url, options: options)
            let display = displayFolder(input: input)
            return InputDocument(input: input, document: document, folder: detected.folder, format: detected.format,
                                 displayFolder: display, inputFolder: InputFolder(display, mainFile: detected.file),
                                 mainFile: detected.file, diagnostics: diagnostics)
        } catch {
            switch diagnostics {
            case .plain: throw fail(describe(error, input: input))
            case .build:
                try DiagnosticsOption.print(buildMessages(error, input: input))
                throw ExitCode(1)
            }
        }
    }

    /// The build messages of an import error of `input` (``describe(_:input:)`` in the build form): files inside the
    /// export's folder as the user wrote it, or the input itself when the folder cannot be told.
    static func buildMessages(_ error: ImportError, input: String) -> [BuildMessage] {
        let known = Importer.exportFolder(of: URL(fileURLWithPath: input)) != nil
        return error.buildMessages(folder: known ? displayFolder(input: input) : input)
    }

    /// The message for an import error of `input`: file names carry the export's folder as the user wrote it; an
    /// error that names no file names the input.
    static func describe(_ error: ImportError, input: String) -> String {
        let located = error.located(in: displayFolder(input: input))
        if case .symbolCycle = error.kind { return "\(input): \(located)" }
        return "\(located)"
    }

    /// The export's folder written the way `input` was: `input` itself for a folder (the folder above it for a
    /// BetterTextureAtlas `LIBRARY/`), its parent for a file (empty for a file in the working folder). Reads no file,
    /// so an export that fails to import is named the same way.
    static func displayFolder(input: String) -> String {
        var trimmed = input
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let place = Importer.exportFolder(of: URL(fileURLWithPath: input)) else { return "" }
        if place.file != nil { return PathText.parent(trimmed) }
        if URL(fileURLWithPath: input).standardizedFileURL.path == place.folder.path { return trimmed }
        // A LIBRARY/ folder: the export is the folder above it.
        if (trimmed as NSString).lastPathComponent == "LIBRARY" { return PathText.parent(trimmed) }
        return trimmed + "/.."
    }

    /// The files this document was read from — INPUT's file for a normalized document, else every file the import
    /// read — and its atlas images in `assets` (the export's folder unless `--assets DIR`): what no output of the
    /// command may replace.
    func commandInputs(assets: InputFolder? = nil) -> CommandInputs {
        var inputs = CommandInputs()
        InputDocument.add(document, folder: folder, format: format, mainFile: mainFile,
                          assets: assets ?? inputFolder, to: &inputs)
        return inputs
    }

    /// Adds the files `document` was read from (in `folder`: `mainFile` for a normalized document, else the files
    /// its provenance lists) and its atlas images in `assets` to `inputs`.
    static func add(_ document: Document, folder: URL, format: DetectedFormat, mainFile: String, assets: InputFolder,
                    to inputs: inout CommandInputs) {
        inputs.add(folder.appendingPathComponent(mainFile).path)
        if format != .keyframe {
            for file in document.source.files { inputs.add(folder.appendingPathComponent(file).path) }
        }
        for (index, image) in document.assets.images.enumerated() {
            if let file = try? AtlasLibrary.imageFile(image, index: index, in: assets) { inputs.add(file.path) }
        }
    }

    /// Makes `inputs` the files no write of this command replaces, after checking `outputs` (the files the command
    /// names before it writes anything) against them.
    ///
    /// - Throws: `ExitCode(1)` naming the first output that is an input.
    static func protect(_ inputs: CommandInputs, outputs: [String?] = []) throws(ExitCode) {
        for case let output? in outputs {
            do { try inputs.check(output) } catch { throw fail("\(error)") }
        }
        AtomicFile.protect(inputs)
    }

    /// The message for an error reading the document's atlas images from `assets` (`--assets DIR`, or the export's
    /// folder): a path of a normalized document is named with the document's file and JSON path.
    func describe(_ error: RenderError, assets: String?) -> String {
        var message = "\(error)"
        if case .imageOutsideFolder = error.kind, format == .keyframe { message = "\(input): \(message)" }
        if case .missingImage = error.kind, format == .keyframe, assets == nil {
            message += " (a normalized JSON names its images relative to the export; pass --assets DIR)"
        }
        return message
    }

    /// Prints the document's warning diagnostics on standard error (`keyframe: warning: …`, or in the build form
    /// `PATH:LINE:COLUMN: warning: …`), their files named with the export's path as the user gave it.
    func printWarnings() throws(ExitCode) {
        if diagnostics == .build {
            try DiagnosticsOption.print(document.diagnostics.filter { $0.severity == .warning }
                .buildMessages(folder: displayFolder))
            return
        }
        for var diagnostic in document.diagnostics where diagnostic.severity == .warning {
            if let file = diagnostic.file, !file.hasPrefix("/"), !displayFolder.isEmpty {
                diagnostic.file = displayFolder.hasSuffix("/") ? displayFolder + file : displayFolder + "/" + file
            }
            try Output.warn("\(diagnostic)")
        }
    }
}
