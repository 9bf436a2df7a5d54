import KeyframeJSON
import KeyframeModel

/// Converts a Flump export (`library.json` or `library.xml` + atlas PNGs) into a normalized document.
enum FlumpImporter {
    static func importDocument(folder: SourceFolder, file: String, options: ImportOptions) throws(ImportError)
        -> Document
    {
        throw ImportError(.unrecognizedInput(path: file, reason: "Flump import is not available yet"))
    }
}
