import ArgumentParser
import Foundation
import KeyframeImport
import KeyframeModel

/// Imports INPUT for every command, so that errors name files as the user wrote the path
/// (`Samples/walker/Animation.json:11:119`, not `Animation.json:11:119`).
struct InputDocument {
    /// The document.
    var document: Document
    /// Where the export's files are (the default atlas-image folder).
    var folder: URL
    /// Which format INPUT holds.
    var format: DetectedFormat
    /// The export's folder as the user wrote it (see ``displayFolder(input:folder:)``).
    var displayFolder: String

    /// Imports `input` with `options`.
    ///
    /// - Throws: `ExitCode(1)` after printing the import error with file names as the user gave them.
    static func load(_ input: String, options: ImportOptions = ImportOptions()) throws(ExitCode) -> InputDocument {
        let url = URL(fileURLWithPath: input)
        do {
            let detected = try Importer.detect(url)
            let document = try Importer.importDocument(at: url, options: options)
            return InputDocument(document: document, folder: detected.folder, format: detected.format,
                                 displayFolder: displayFolder(input: input, folder: detected.folder))
        } catch {
            throw fail(describe(error, input: input))
        }
    }

    /// The message for an import error of `input`: file names carry the export's folder as the user wrote it; an
    /// error that names no file names the input.
    static func describe(_ error: ImportError, input: String) -> String {
        let url = URL(fileURLWithPath: input)
        guard let detected = try? Importer.detect(url) else { return "\(error)" }
        let located = error.located(in: displayFolder(input: input, folder: detected.folder))
        if case .symbolCycle = error.kind { return "\(input): \(located)" }
        return "\(located)"
    }

    /// The export's `folder`, written the way `input` was: `input` itself for a folder, its parent for a file.
    static func displayFolder(input: String, folder: URL) -> String {
        let given = URL(fileURLWithPath: input).standardizedFileURL
        var trimmed = input
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        if given.path == folder.path { return trimmed }
        if given.deletingLastPathComponent().path == folder.path {
            return PathText.parent(trimmed)
        }
        return folder.path
    }

    /// Prints the document's warning diagnostics on standard error (`keyframe: warning: …`), their files named
    /// with the export's path as the user gave it.
    func printWarnings() throws(ExitCode) {
        for var diagnostic in document.diagnostics where diagnostic.severity == .warning {
            if let file = diagnostic.file, !file.hasPrefix("/"), !displayFolder.isEmpty {
                diagnostic.file = displayFolder.hasSuffix("/") ? displayFolder + file : displayFolder + "/" + file
            }
            try Output.warn("\(diagnostic)")
        }
    }
}
