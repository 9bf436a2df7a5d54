import KeyframeJSON
import KeyframeModel

/// The names a designer reads in an exported Lottie file: layers after the instances, bones, slots and layers of the
/// source, pictures after their sprites, each unique where players look them up and the same on every run.
///
/// * A node's layer takes the node's name from the source (an Animate instance name or layer name, a DragonBones
///   bone or slot, a Flump layer). An Animate element without an instance name (the model calls it `layer #n`)
///   takes its layer's name, or, when it shows a symbol, the symbol's name. A layer of the flattened form, which
///   draws one picture of nested instances, joins the names from the outermost instance in (`ball / Layer_1`).
/// * Within one list of layers (the animation's, or one precomp's) a name that repeats gets ` 2`, ` 3`, … in list
///   order (``unique(_:)``), so every layer of a composition has a name of its own.
/// * A picture's asset id is its sprite's name; a sprite named by a number only (Animate atlases number their
///   sprites) is prefixed with the name of the first node in the document that shows it. A picture with a colour
///   baked in adds `_tint_` and 8 hex digits of the colour. Characters other than letters, digits, `_` and `-` become
///   `_`, and a name changed that way (or cut at 64 characters) ends with 8 hex digits of the original, so two
///   sprites never share an id.
struct LottieNames: Sendable {
    private let compositions: [String: Composition]
    /// Sprite id → asset id base.
    private let pictureBases: [String: String]

    init(document: Document) {
        var compositions: [String: Composition] = [:]
        for composition in document.compositions where compositions[composition.id] == nil {
            compositions[composition.id] = composition
        }
        self.compositions = compositions
        // The first node showing each sprite, in document order.
        var shownBy: [String: String] = [:]
        for composition in document.compositions {
            for node in composition.nodes {
                for keyframe in node.tracks.content?.keyframes ?? [] {
                    guard case .sprite(let sprite) = keyframe.value, shownBy[sprite] == nil else { continue }
                    shownBy[sprite] = LottieNames.displayName(node, in: composition)
                }
            }
        }
        var bases: [String: String] = [:]
        var users: [String: [String]] = [:]  // base → sprite ids, in document order
        for sprite in document.assets.sprites where bases[sprite.id] == nil {
            let name = sprite.name.isEmpty ? sprite.id : sprite.name
            let readable = name.contains(where: \.isLetter) ? name : [shownBy[sprite.id], name].compactMap { $0 }
                .joined(separator: "_")
            let base = LottieNames.identifier(readable, original: "\(sprite.id)\u{1}\(readable)")
            bases[sprite.id] = base
            users[base, default: []].append(sprite.id)
        }
        // Sprites whose names read the same: each adds 8 hex digits of its id.
        for (base, ids) in users where ids.count > 1 {
            for id in ids { bases[id] = base + "_" + String(LottieImageTable.hexHash(Array(id.utf8)).prefix(8)) }
        }
        pictureBases = bases
    }

    // MARK: Layers

    /// The name of node `nodeID`'s layer in composition `compositionID` (its transform, or a picture it shows).
    func layer(composition compositionID: String, node nodeID: String) -> String {
        guard let composition = compositions[compositionID],
            let node = composition.nodes.first(where: { $0.id == nodeID }) else { return nodeID }
        return LottieNames.displayName(node, in: composition)
    }

    /// The name of the precomp layer through which node `nodeID` shows composition `shown`: the node's name, or the
    /// symbol's name for an Animate element without an instance name.
    func precompLayer(composition compositionID: String, node nodeID: String, showing shown: String) -> String {
        guard let composition = compositions[compositionID],
            let node = composition.nodes.first(where: { $0.id == nodeID }) else { return nodeID }
        if LottieNames.unnamedElement(node, in: composition) != nil, let child = compositions[shown] {
            return child.name.isEmpty ? child.id : child.name
        }
        return LottieNames.displayName(node, in: composition)
    }

    /// The name of the layer drawing a pose item (`composition/node`, nested instances joined by `>`): the names of
    /// the nodes from the outermost instance in, joined by ` / ` (`ball / Layer_1`).
    func item(path: String) -> String {
        var parts: [String] = []
        for segment in path.split(separator: ">").map(String.init) {
            let name = node(segment)
            if parts.last != name { parts.append(name) }
        }
        return parts.joined(separator: " / ")
    }

    /// The name of the node `composition/node` names.
    private func node(_ segment: String) -> String {
        // Both composition ids (DragonBones `armature/animation`) and node ids (Animate `4:legs/0`) may contain `/`:
        // the split is the one that names a node of a composition.
        var start = segment.startIndex
        while let cut = segment[start...].firstIndex(of: "/") {
            let id = String(segment[..<cut]), nodeID = String(segment[segment.index(after: cut)...])
            if compositions[id]?.nodes.contains(where: { $0.id == nodeID }) == true {
                return layer(composition: id, node: nodeID)
            }
            start = segment.index(after: cut)
        }
        return segment
    }

    /// The name of a composition's precomp asset.
    func composition(_ id: String) -> String {
        guard let composition = compositions[id], !composition.name.isEmpty else { return id }
        return composition.name
    }

    /// A node's name as the designer gave it: an Animate element without an instance name takes its layer's name.
    static func displayName(_ node: Node, in composition: Composition) -> String {
        if let layerName = unnamedElement(node, in: composition) { return layerName }
        return node.name.isEmpty ? node.id : node.name
    }

    /// The layer name of an Animate element that has no instance name (the importer names it `<layer> #<slot>`),
    /// or `nil`.
    private static func unnamedElement(_ node: Node, in composition: Composition) -> String? {
        guard node.kind == .instance, let parentID = node.parent,
            let parent = composition.nodes.first(where: { $0.id == parentID }), !parent.name.isEmpty,
            node.name.hasPrefix(parent.name + " #")
        else { return nil }
        let slot = node.name.dropFirst(parent.name.count + 2)
        return !slot.isEmpty && slot.allSatisfy(\.isNumber) ? parent.name : nil
    }

    /// `layers` with every repeated `nm` made unique by ` 2`, ` 3`, … in list order.
    static func unique(_ layers: [JSONValue]) -> [JSONValue] {
        var used: Set<String> = []
        var next: [String: Int] = [:]
        for layer in layers { if let name = layer["nm"]?.stringValue { used.insert(name) } }
        var seen: Set<String> = []
        return layers.map { layer in
            guard case .object(var members) = layer, let name = members["nm"]?.stringValue else { return layer }
            if seen.insert(name).inserted { return layer }
            var n = next[name, default: 2]
            while used.contains("\(name) \(n)") { n += 1 }
            next[name] = n + 1
            let fresh = "\(name) \(n)"
            used.insert(fresh)
            seen.insert(fresh)
            members["nm"] = .string(fresh)
            return .object(members)
        }
    }

    // MARK: Pictures

    /// The asset id of sprite `spriteID`'s picture, with the colour whose ``LottieImageTable/key(of:)`` is `tint`
    /// baked in (`nil`: none).
    func picture(sprite spriteID: String, tint: String?) -> String {
        let base = pictureBases[spriteID] ?? LottieNames.identifier(spriteID, original: "\(spriteID)\u{1}")
        guard let tint else { return base }
        return base + "_tint_" + String(LottieImageTable.hexHash(Array(tint.utf8)).prefix(8))
    }

    /// `text` as an identifier safe in a file name: letters, digits, `_` and `-`, at most 64 characters; when that
    /// changes it, 8 hex digits of `original` follow.
    static func identifier(_ text: String, original: String) -> String {
        var safe = String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "_" })
        let changed = safe != text || safe.count > 64 || safe.isEmpty
        if safe.count > 64 { safe = String(safe.prefix(64)) }
        return changed ? safe + (safe.isEmpty ? "" : "_") + String(LottieImageTable.hexHash(Array(original.utf8)).prefix(8))
            : safe
    }
}
