import Foundation
import KeyframeJSON

extension Importer {
    /// The Flump library in a folder that has no `library.json`/`library.xml`: exports renamed by their runtimes
    /// (StageXL's `flumpLibrary.json`, FlumpOBJC's `<name>.xml`): the first `.xml` file whose root element is
    /// `<resources>` (Flump's XML root; Starling or DragonBones XML atlases have other roots), else the first JSON
    /// file (in name order) whose top level has `movies` and `textureGroups` or `atlases`.
    static func flumpLibrary(in source: SourceFolder, names: [String]) -> String? {
        let folder = source.url
        for name in names where name.lowercased().hasSuffix(".xml") {
            // Only regular files inside the folder: opening a named pipe would wait for a writer.
            guard source.fileExists(name) else { continue }
            guard let handle = try? FileHandle(forReadingFrom: folder.appendingPathComponent(name)) else { continue }
            defer { try? handle.close() }
            let head = String(decoding: (try? handle.read(upToCount: 4096)) ?? Data(), as: UTF8.self)
            if head.range(of: "<resources", options: []) != nil { return name }
        }
        for name in names where name.lowercased().hasSuffix(".json") {
            // Parsed once: the import finds it parsed (a DragonBones skeleton under another name, an atlas).
            guard let value = source.peekJSON(name, limit: 64 << 20) else { continue }
            if value["movies"] != nil && (value["textureGroups"] != nil || value["atlases"] != nil) { return name }
        }
        return nil
    }
}
