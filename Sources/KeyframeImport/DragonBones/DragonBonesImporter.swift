import KeyframeJSON
import KeyframeModel

/// Converts a DragonBones export (`*_ske.json` + `*_tex.json`/png) into a normalized document.
enum DragonBonesImporter {
    static func importDocument(folder: SourceFolder, file: String, options: ImportOptions) throws(ImportError)
        -> Document
    {
        throw ImportError(.unrecognizedInput(path: file, reason: "DragonBones import is not available yet"))
    }
}
