import Foundation

extension Importer {
    /// The sprite sheet in a folder that holds no other export: the first file in name order that is a Sparrow
    /// atlas (`.xml` with a `<TextureAtlas>` root) or a JSON sheet (`frames` beside `meta`).
    static func spriteSheet(in source: SourceFolder, names: [String]) -> String? {
        for name in names {
            let lower = name.lowercased()
            if lower.hasSuffix(".xml") {
                // Only regular files inside the folder, and on disk only their first 4 KiB (as for Flump's XML).
                guard source.fileExists(name) else { continue }
                let head: [UInt8]
                if source.memory == nil {
                    guard let handle = try? FileHandle(forReadingFrom: source.url.appendingPathComponent(name)) else { continue }
                    defer { try? handle.close() }
                    head = [UInt8]((try? handle.read(upToCount: 4096)) ?? Data())
                } else {
                    guard let bytes = try? source.read(name) else { continue }
                    head = bytes
                }
                if SpriteSheetXMLReader.isSheet(head) { return name }
            } else if lower.hasSuffix(".json") {
                guard let value = source.peekJSON(name, limit: 64 << 20) else { continue }
                if SpriteSheetJSONReader.isSheet(value) { return name }
            }
        }
        return nil
    }
}
