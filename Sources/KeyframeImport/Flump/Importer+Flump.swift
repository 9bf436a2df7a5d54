import Foundation
import KeyframeJSON

extension Importer {
    /// The Flump library in a folder that has no `library.json`/`library.xml`: exports renamed by their runtimes
    /// (StageXL's `flumpLibrary.json`, FlumpOBJC's `<name>.xml`). A single `.xml` file qualifies, as does the first
    /// JSON file (in name order) whose top level has `movies` and `textureGroups` or `atlases`.
    static func flumpLibrary(in folder: URL, names: [String]) -> String? {
        let xml = names.filter { $0.lowercased().hasSuffix(".xml") }
        if xml.count == 1 { return xml[0] }
        for name in names where name.lowercased().hasSuffix(".json") {
            let url = folder.appendingPathComponent(name)
            guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int,
                size <= 64 << 20, let data = FileManager.default.contents(atPath: url.path),
                let value = try? JSONParser.parse([UInt8](data))
            else { continue }
            if value["movies"] != nil && (value["textureGroups"] != nil || value["atlases"] != nil) { return name }
        }
        return nil
    }
}
