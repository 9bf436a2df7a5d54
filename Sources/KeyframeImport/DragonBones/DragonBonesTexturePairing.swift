import KeyframeModel

/// Pairs DragonBones image and mesh displays with atlas textures before normalizing, and counts what stays unpaired.
///
/// The runtime looks a display's texture up by its exact name (`path`, else `name`). A skeleton exported beside a
/// TexturePacker atlas often names its textures `armL` while the atlas names them `parts/armL` (after the image
/// extension is dropped, as TexturePacker loaders do). No runtime matches those, so a looser pairing is made only when
/// it is unambiguous — exactly one texture is `<folders>/<name>` — and is reported in one warning naming every
/// pairing (`texture-paired-by-folder`); a name that fits several textures is left unpaired and the warning lists
/// them (`texture-pairing-ambiguous`). Finally one warning counts the displays that have no texture at all
/// (`textures-missing`), so a render that would draw nothing says why in one line.
struct DragonBonesTexturePairing {
    /// Texture names in the atlases.
    let textures: Set<String>

    /// The texture a display name stands for: itself when the atlases have it, else the one texture whose name is
    /// `<folder>/<name>` (any depth of folders), else `nil`. `candidates` lists every folder match.
    func resolve(_ name: String) -> (texture: String?, candidates: [String]) {
        if textures.contains(name) { return (name, [name]) }
        guard !name.isEmpty else { return (nil, []) }
        let suffix = "/" + name
        let matches = textures.filter { $0.hasSuffix(suffix) }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        return (matches.count == 1 ? matches[0] : nil, matches)
    }

    /// Rewrites every image and mesh display's texture name in `data` to its paired texture, and adds the
    /// diagnostics described above to `diagnostics`.
    func apply(to data: inout DragonBonesWire.Data, file: String, diagnostics: inout DiagnosticCollector) {
        var paired: [String: String] = [:]
        var ambiguous: [String: [String]] = [:]
        var missing = Set<String>()
        var total = 0
        var unpaired = 0
        for a in data.armatures.indices {
            for s in data.armatures[a].skins.indices {
                for (slot, displays) in data.armatures[a].skins[s].displays {
                    var list = displays
                    for d in list.indices where list[d].type == "image" || list[d].type == "mesh" {
                        total += 1
                        let name = list[d].path
                        let (texture, candidates) = resolve(name)
                        if let texture {
                            if texture != name { paired[name] = texture }
                            list[d].path = texture
                        } else {
                            unpaired += 1
                            missing.insert(name)
                            if candidates.count > 1 { ambiguous[name] = candidates }
                        }
                    }
                    data.armatures[a].skins[s].displays[slot] = list
                }
            }
        }
        func sorted(_ names: some Sequence<String>) -> [String] {
            names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        }
        if !paired.isEmpty {
            let pairs = sorted(paired.keys).map { "\"\($0)\" → \"\(paired[$0]!)\"" }.joined(separator: ", ")
            diagnostics.add(Diagnostic(
                severity: .warning, code: "texture-paired-by-folder",
                message: "\(paired.count) display texture name(s) matched no atlas texture exactly and were paired with "
                    + "the only texture of that name inside a folder (no runtime does this; rename to silence): \(pairs)",
                file: file))
        }
        if !ambiguous.isEmpty {
            let lists = sorted(ambiguous.keys).map { name in
                "\"\(name)\" (\(ambiguous[name]!.map { "\"\($0)\"" }.joined(separator: ", ")))"
            }.joined(separator: "; ")
            diagnostics.add(Diagnostic(
                severity: .warning, code: "texture-pairing-ambiguous",
                message: "display texture name(s) fit several atlas textures in folders and were left unpaired: \(lists)",
                file: file))
        }
        if unpaired > 0 {
            let names = sorted(missing)
            let shown = names.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
            let more = names.count > 5 ? ", … (\(names.count - 5) more)" : ""
            diagnostics.add(Diagnostic(
                severity: .warning, code: "textures-missing",
                message: "\(unpaired) of \(total) image/mesh display(s) have no texture in the atlases and are not drawn "
                    + "(\(names.count) name(s): \(shown)\(more))",
                file: file))
        }
    }
}
