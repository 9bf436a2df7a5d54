import Foundation
import KeyframeFiles

/// One export a batch converts: where it is, what its outputs are called, and which files it reads.
public struct BatchExport: Sendable, Equatable {
    /// A stable identifier and the key in the manifest and report: the export's path relative to its root
    /// (`characters/walker`, `ui/button.json`), or its name when it is a root itself.
    public var id: String
    /// The base name of its outputs (`walker` → `walker.json`, `walker.lottie.json`).
    public var name: String
    /// Where its outputs go, relative to OUT (`characters`; empty for the top).
    public var outputFolder: String
    /// What the importer is given: the export folder or the file.
    public var source: URL
    /// The folder whose files are the export's inputs (the export folder, or the file's folder).
    public var inputFolder: URL
    /// The input files, relative to ``inputFolder``, sorted: every regular file of an export folder (recursively,
    /// hidden files excepted), or the single file.
    public var inputFiles: [String]
    /// The total size of the inputs in bytes: larger exports are started first.
    public var size: Int

    public init(id: String, name: String, outputFolder: String, source: URL, inputFolder: URL, inputFiles: [String],
                size: Int) {
        self.id = id
        self.name = name
        self.outputFolder = outputFolder
        self.source = source
        self.inputFolder = inputFolder
        self.inputFiles = inputFiles
        self.size = size
    }

    /// `name` inside the export's output folder, relative to OUT.
    public func outputPath(_ fileName: String) -> String {
        outputFolder.isEmpty ? fileName : outputFolder + "/" + fileName
    }
}

extension BatchExport {
    /// The export's folder as the paths its files name are resolved in (`InputFolder`): atlas images are read
    /// from inside it, and messages name them relative to it, as a batch names every file of an export.
    public var imagesFolder: InputFolder {
        let main = source.standardizedFileURL.path == inputFolder.standardizedFileURL.path ? nil : source.lastPathComponent
        return InputFolder(inputFolder.path, displayName: "", mainFile: main)
    }
}
