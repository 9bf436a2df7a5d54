import KeyframeJSON

/// A Friday Night Funkin' character JSON beside a sheet: it names the sheet's image and lists the animations a
/// game plays from it, with their frame rates.
///
/// Two shapes are read: Psych Engine's (`image`, `animations: [{anim, name (the prefix), fps, loop, indices}]`) and
/// the base game's (`assetPath`, `animations: [{name, prefix, frameRate, looped, frameIndices}]`). A sidecar
/// belongs to the sheet when its image's last path component, without extension, is the sheet's or its image's.
struct SpriteSheetSidecar {
    var file: String
    /// The first animation's frame rate, if it gives one.
    var frameRate: Double?
    /// Every animation's frame rate.
    var otherRates: [Double]
    var animations: [SpriteSheetGrouping.Declared]

    /// The sidecar of `sheet` (whose atlas image is `image`) in `folder`, if one is there.
    static func find(in folder: SourceFolder, sheet: String, image: String) -> SpriteSheetSidecar? {
        func stem(_ path: String) -> String {
            let base = path.split(separator: "/").last.map(String.init) ?? path
            if let dot = base.lastIndex(of: "."), dot > base.startIndex { return String(base[..<dot]).lowercased() }
            return base.lowercased()
        }
        let wanted = Set([stem(sheet), stem(image)])
        for name in folder.listFiles() where name != sheet && name.lowercased().hasSuffix(".json") {
            guard let root = folder.peekJSON(name, limit: 16 << 20),
                let imageName = (root["image"] ?? root["assetPath"])?.stringValue, wanted.contains(stem(imageName)),
                let entries = root["animations"]?.arrayValue
            else { continue }
            var result = SpriteSheetSidecar(file: name, frameRate: nil, otherRates: [], animations: [])
            for entry in entries {
                let baseGame = entry["prefix"] != nil
                guard let clip = (baseGame ? entry["name"] : entry["anim"] ?? entry["name"])?.stringValue,
                    let prefix = (baseGame ? entry["prefix"] : entry["name"])?.stringValue
                else { continue }
                let indices = (entry["frameIndices"] ?? entry["indices"])?.arrayValue?.compactMap { value -> Int? in
                    guard let number = value.doubleValue, number.isFinite, abs(number) < 1e15 else { return nil }
                    return Int(number)
                }
                let loops = (entry["looped"] ?? entry["loop"])?.boolValue ?? false
                result.animations.append(.init(name: clip, selection: .prefix(prefix, indices: indices), loops: loops))
                if let fps = (entry["frameRate"] ?? entry["fps"])?.doubleValue {
                    if result.frameRate == nil { result.frameRate = fps }
                    if !result.otherRates.contains(fps) { result.otherRates.append(fps) }
                }
            }
            return result
        }
        return nil
    }
}
