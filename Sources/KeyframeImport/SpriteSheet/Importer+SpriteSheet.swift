import Foundation

extension Importer {
    /// The sprite sheet in a folder that holds no other export: the first file in name order that is a Sparrow
    /// atlas (`.xml` with a `<TextureAtlas>` root) or a JSON sheet (`frames` beside `meta`).
    static func spriteSheet(in source: SourceFolder, names: [String]) -> String? {
        for name in names {
            let lower = name.lowercased()
            if lower.hasSuffix(".xml") {
                guard source.fileExists(name), let bytes = try? source.read(name) else { continue }
                if SpriteSheetXMLReader.isSheet(bytes) { return name }
            } else if lower.hasSuffix(".json") {
                guard let value = source.peekJSON(name, limit: 64 << 20) else { continue }
                if SpriteSheetJSONReader.isSheet(value) { return name }
            }
        }
        return nil
    }
}
