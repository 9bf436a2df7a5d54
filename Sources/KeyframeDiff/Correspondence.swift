import KeyframeModel
import KeyframeRaster
import KeyframeRender

/// Which clip, composition, node and sprite of the older document is which of the newer one, found in an order that
/// survives the edits animators make: ids first, then names, then content (a renamed sprite has the same pixels, a
/// renamed symbol the same layers, a renamed clip the same range), and the structural changes found on the way.
struct Correspondence {
    /// Older composition id → newer composition id.
    var compositions: [String: String] = [:]
    /// Older sprite id → newer sprite id.
    var sprites: [String: String] = [:]
    /// Older mesh id → newer mesh id.
    var meshes: [String: String] = [:]
    /// Matched clips: (older, newer).
    var clips: [(Clip, Clip)] = []
    /// Per newer composition id: older node id → newer node id.
    var nodes: [String: [String: String]] = [:]
    /// What was added, removed, renamed or changed.
    var changes: [StructuralChange] = []

    init(_ a: DiffSide, _ b: DiffSide, options: DiffOptions) {
        documentSettings(a.document, b.document)
        matchCompositions(a.document, b.document)
        matchSprites(a, b, options: options)
        matchMeshes(a.document, b.document)
        matchClips(a.document, b.document)
        for composition in b.document.compositions {
            guard let old = a.document.compositions.first(where: { compositions[$0.id] == composition.id }) else {
                continue
            }
            matchNodes(old, composition)
        }
    }

    // MARK: - Document

    private mutating func documentSettings(_ a: Document, _ b: Document) {
        if a.frameRate != b.frameRate {
            changes.append(StructuralChange(
                subject: .document, kind: .changed, name: b.name,
                details: "frame rate \(Self.number(a.frameRate.framesPerSecond)) → \(Self.number(b.frameRate.framesPerSecond)) fps"))
        }
        if a.stage != b.stage {
            changes.append(StructuralChange(subject: .document, kind: .changed, name: b.name,
                                            details: "stage \(Self.describe(a.stage)) → \(Self.describe(b.stage))"))
        }
    }

    // MARK: - Compositions

    private mutating func matchCompositions(_ a: Document, _ b: Document) {
        let newer = Set(b.compositions.map(\.id))
        for composition in a.compositions where newer.contains(composition.id) {
            compositions[composition.id] = composition.id
        }
        var unmatchedA = a.compositions.filter { compositions[$0.id] == nil }
        var unmatchedB = b.compositions.filter { !compositions.values.contains($0.id) }
        // Same name under another id, then the same layers under another name.
        for key in [{ (c: Composition) in c.name }, { (c: Composition) in Self.signature(c) }] {
            for old in unmatchedA {
                let candidates = unmatchedB.filter { key($0) == key(old) }
                guard candidates.count == 1, unmatchedA.filter({ key($0) == key(old) }).count == 1 else { continue }
                compositions[old.id] = candidates[0].id
                unmatchedB.removeAll { $0.id == candidates[0].id }
            }
            unmatchedA.removeAll { compositions[$0.id] != nil }
        }
        for old in unmatchedA {
            changes.append(StructuralChange(subject: .composition, kind: .removed, name: old.name,
                                            details: "\(old.nodes.count) node(s)"))
        }
        for new in unmatchedB {
            changes.append(StructuralChange(subject: .composition, kind: .added, name: new.name,
                                            details: "\(new.nodes.count) node(s)"))
        }
        for new in b.compositions {
            guard let old = a.compositions.first(where: { compositions[$0.id] == new.id }) else { continue }
            if old.name != new.name {
                changes.append(StructuralChange(subject: .composition, kind: .renamed, name: new.name, oldName: old.name))
            }
            if old.duration != new.duration {
                changes.append(StructuralChange(
                    subject: .composition, kind: .changed, name: new.name,
                    details: "length \(Self.number(old.duration.value)) → \(Self.number(new.duration.value)) frames"))
            }
        }
    }

    /// The names and kinds of a composition's nodes, in order: what stays when a symbol is renamed.
    private static func signature(_ composition: Composition) -> String {
        composition.nodes.map { "\($0.kind.rawValue):\($0.name)" }.joined(separator: "\u{1}")
    }

    // MARK: - Sprites

    private mutating func matchSprites(_ a: DiffSide, _ b: DiffSide, options: DiffOptions) {
        let spritesA = a.document.assets.sprites, spritesB = b.document.assets.sprites
        let idsB = Set(spritesB.map(\.id))
        for sprite in spritesA where idsB.contains(sprite.id) { sprites[sprite.id] = sprite.id }
        let picturesA = SpritePictures(a), picturesB = SpritePictures(b)
        var unmatchedA = spritesA.filter { sprites[$0.id] == nil }
        let matchedB = Set(sprites.values)
        var unmatchedB = spritesB.filter { !matchedB.contains($0.id) }
        // A sprite under a new name shows the same picture (by pixels when both sides have their images, otherwise by
        // size, origin and atlas region), or failing that has the same name under another id.
        let bothPictures = picturesA.available && picturesB.available
        func fingerprint(_ sprite: Sprite, _ pictures: SpritePictures) -> String {
            let shape = "\(sprite.size.width)x\(sprite.size.height)@\(sprite.origin.x),\(sprite.origin.y)"
            if bothPictures, let hash = pictures.hash(sprite.id) { return shape + "#\(hash)" }
            return shape + "[\(sprite.region.x),\(sprite.region.y),\(sprite.region.width),\(sprite.region.height)]"
        }
        // Keys computed once per unmatched sprite: first the picture, then the name.
        let printsA = Dictionary(unmatchedA.map { ($0.id, fingerprint($0, picturesA)) }, uniquingKeysWith: { a, _ in a })
        let printsB = Dictionary(unmatchedB.map { ($0.id, fingerprint($0, picturesB)) }, uniquingKeysWith: { a, _ in a })
        let keys: [(Sprite, Bool) -> String] = [
            { sprite, older in (older ? printsA : printsB)[sprite.id] ?? "" },
            { sprite, _ in sprite.name },
        ]
        for key in keys {
            var countsA: [String: Int] = [:], candidatesB: [String: [Sprite]] = [:]
            for old in unmatchedA { countsA[key(old, true), default: 0] += 1 }
            for new in unmatchedB { candidatesB[key(new, false), default: []].append(new) }
            for old in unmatchedA {
                let wanted = key(old, true)
                guard countsA[wanted] == 1, let candidates = candidatesB[wanted], candidates.count == 1 else { continue }
                sprites[old.id] = candidates[0].id
                unmatchedB.removeAll { $0.id == candidates[0].id }
            }
            unmatchedA.removeAll { sprites[$0.id] != nil }
        }
        for old in unmatchedA {
            changes.append(StructuralChange(subject: .sprite, kind: .removed, name: old.name, details: Self.size(old.size)))
        }
        for new in unmatchedB {
            changes.append(StructuralChange(subject: .sprite, kind: .added, name: new.name, details: Self.size(new.size)))
        }
        let byIDB = Dictionary(spritesB.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for old in spritesA {
            guard let newID = sprites[old.id], let new = byIDB[newID] else { continue }
            if old.name != new.name {
                changes.append(StructuralChange(subject: .sprite, kind: .renamed, name: new.name, oldName: old.name))
            }
            var details: [String] = []
            if old.size != new.size { details.append("size \(Self.size(old.size)) → \(Self.size(new.size))") }
            if old.origin != new.origin {
                details.append("origin (\(Self.number(old.origin.x)), \(Self.number(old.origin.y))) → "
                               + "(\(Self.number(new.origin.x)), \(Self.number(new.origin.y)))")
            }
            if old.size == new.size, bothPictures, let before = picturesA.upright(old.id), let after = picturesB.upright(new.id) {
                if let difference = BitmapDifference(after, before, tolerance: options.pixelTolerance) {
                    if difference.differingPixels > 0 {
                        details.append("picture changed: \(difference.differingPixels) of \(after.width * after.height) "
                                       + "pixel(s) differ by more than \(options.pixelTolerance), at most \(difference.maxDifference)")
                    }
                } else {
                    details.append("picture resampled \(before.width)×\(before.height) → \(after.width)×\(after.height) texels")
                }
            }
            if !details.isEmpty {
                changes.append(StructuralChange(subject: .sprite, kind: .changed, name: new.name,
                                                details: details.joined(separator: "; ")))
            }
        }
    }

    private mutating func matchMeshes(_ a: Document, _ b: Document) {
        let idsB = Set(b.assets.meshes.map(\.id))
        for mesh in a.assets.meshes where idsB.contains(mesh.id) { meshes[mesh.id] = mesh.id }
        for mesh in a.assets.meshes where meshes[mesh.id] == nil {
            changes.append(StructuralChange(subject: .sprite, kind: .removed, name: "mesh \(mesh.id)"))
        }
        let idsA = Set(a.assets.meshes.map(\.id))
        for mesh in b.assets.meshes where !idsA.contains(mesh.id) {
            changes.append(StructuralChange(subject: .sprite, kind: .added, name: "mesh \(mesh.id)"))
        }
        let byID = Dictionary(b.assets.meshes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for mesh in a.assets.meshes {
            guard let new = byID[mesh.id], new != mesh else { continue }
            changes.append(StructuralChange(subject: .sprite, kind: .changed, name: "mesh \(mesh.id)",
                                            details: "vertices, triangles or weights changed"))
        }
    }

    // MARK: - Clips

    private mutating func matchClips(_ a: Document, _ b: Document) {
        var unmatchedB = b.clips
        var unmatchedA: [Clip] = []
        for old in a.clips {
            if let index = unmatchedB.firstIndex(where: { $0.name == old.name }) {
                clips.append((old, unmatchedB.remove(at: index)))
            } else {
                unmatchedA.append(old)
            }
        }
        // A renamed clip plays the same range of the same composition.
        func range(_ clip: Clip, mapped: Bool) -> String {
            let composition = mapped ? (compositions[clip.composition] ?? "\u{0}") : clip.composition
            return "\(composition)\u{1}\(clip.start.value)\u{1}\(clip.duration.value)"
        }
        for old in unmatchedA {
            let candidates = unmatchedB.filter { range($0, mapped: false) == range(old, mapped: true) }
            guard candidates.count == 1,
                unmatchedA.filter({ range($0, mapped: true) == range(old, mapped: true) }).count == 1,
                let index = unmatchedB.firstIndex(where: { $0.name == candidates[0].name })
            else {
                changes.append(StructuralChange(subject: .clip, kind: .removed, name: old.name,
                                                details: Self.frames(old, in: a)))
                continue
            }
            let new = unmatchedB.remove(at: index)
            clips.append((old, new))
            changes.append(StructuralChange(subject: .clip, kind: .renamed, name: new.name, oldName: old.name))
        }
        for new in unmatchedB {
            changes.append(StructuralChange(subject: .clip, kind: .added, name: new.name, details: Self.frames(new, in: b)))
        }
        // In the newer document's order.
        let order = Dictionary(b.clips.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        clips.sort { (order[$0.1.name] ?? 0) < (order[$1.1.name] ?? 0) }
        for (old, new) in clips {
            var details: [String] = []
            let oldComposition = a.composition(old.composition), newComposition = b.composition(new.composition)
            if compositions[old.composition] != new.composition {
                details.append("composition \(oldComposition?.name ?? old.composition) → "
                               + "\(newComposition?.name ?? new.composition)")
            }
            if old.start != new.start || old.duration != new.duration {
                details.append("frames \(Self.range(old)) → \(Self.range(new))")
            }
            if old.loopCount != new.loopCount {
                details.append("plays \(Self.loops(old.loopCount)) → \(Self.loops(new.loopCount))")
            }
            if !details.isEmpty {
                changes.append(StructuralChange(subject: .clip, kind: .changed, name: new.name,
                                                details: details.joined(separator: "; ")))
            }
        }
    }

    // MARK: - Nodes

    /// Matches the nodes of two versions of one composition: the same id and name; then the same name path (parents'
    /// names, own name, kind), which survives layers being inserted or reordered; then the same id under another name
    /// (a rename).
    private mutating func matchNodes(_ a: Composition, _ b: Composition) {
        var map: [String: String] = [:]
        var takenB: Set<String> = []
        let byIDB = Dictionary(b.nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for node in a.nodes {
            if let other = byIDB[node.id], other.name == node.name, other.kind == node.kind {
                map[node.id] = other.id
                takenB.insert(other.id)
            }
        }
        let pathsA = Self.namePaths(a), pathsB = Self.namePaths(b)
        var byPathB: [String: [String]] = [:]
        for node in b.nodes where !takenB.contains(node.id) { byPathB[pathsB[node.id] ?? "", default: []].append(node.id) }
        for node in a.nodes where map[node.id] == nil {
            guard var queue = byPathB[pathsA[node.id] ?? ""], !queue.isEmpty else { continue }
            let id = queue.removeFirst()
            byPathB[pathsA[node.id] ?? ""] = queue
            map[node.id] = id
            takenB.insert(id)
        }
        for node in a.nodes where map[node.id] == nil {
            if let other = byIDB[node.id], !takenB.contains(other.id), other.kind == node.kind {
                map[node.id] = other.id
                takenB.insert(other.id)
                changes.append(StructuralChange(subject: .node, kind: .renamed, name: other.name, oldName: node.name,
                                                context: b.name))
            }
        }
        let parentsA = Dictionary(a.nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for node in a.nodes where map[node.id] == nil {
            changes.append(StructuralChange(subject: .node, kind: .removed, name: Self.display(node, in: parentsA),
                                            context: b.name, details: node.kind.rawValue))
        }
        for node in b.nodes where !takenB.contains(node.id) {
            changes.append(StructuralChange(subject: .node, kind: .added, name: Self.display(node, in: byIDB),
                                            context: b.name, details: node.kind.rawValue))
        }
        // Matched nodes that moved in the tree or changed role.
        for node in a.nodes {
            guard let id = map[node.id], let new = byIDB[id] else { continue }
            var details: [String] = []
            let oldParent = node.parent.flatMap { map[$0] }
            if oldParent != new.parent {
                let before = node.parent.flatMap { parentsA[$0]?.name } ?? "top level"
                let after = new.parent.flatMap { byIDB[$0]?.name } ?? "top level"
                details.append("parent \(before) → \(after)")
            }
            if node.kind != new.kind { details.append("kind \(node.kind.rawValue) → \(new.kind.rawValue)") }
            if node.isMask != new.isMask { details.append(new.isMask ? "became a mask" : "no longer a mask") }
            if node.maskedBy.flatMap({ map[$0] }) != new.maskedBy {
                let before = node.maskedBy.flatMap { parentsA[$0]?.name } ?? "none"
                let after = new.maskedBy.flatMap { byIDB[$0]?.name } ?? "none"
                details.append("mask \(before) → \(after)")
            }
            if node.bone != new.bone { details.append("bone settings changed") }
            if !details.isEmpty {
                changes.append(StructuralChange(subject: .node, kind: .changed, name: Self.display(new, in: byIDB),
                                                context: b.name, details: details.joined(separator: "; ")))
            }
        }
        nodes[b.id] = map
    }

    /// Each node's name path: its ancestors' names and kinds, then its own, with an occurrence number among nodes of
    /// the same path.
    private static func namePaths(_ composition: Composition) -> [String: String] {
        let byID = Dictionary(composition.nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var paths: [String: String] = [:]
        var seen: [String: Int] = [:]
        for node in composition.nodes {
            var parts: [String] = []
            var current: Node? = node
            var depth = 0
            while let step = current, depth < 512 {
                parts.append("\(step.kind.rawValue):\(step.name)")
                current = step.parent.flatMap { byID[$0] }
                depth += 1
            }
            let path = parts.reversed().joined(separator: "\u{1}")
            let occurrence = seen[path, default: 0]
            seen[path] = occurrence + 1
            paths[node.id] = path + "\u{2}\(occurrence)"
        }
        return paths
    }

    /// `legs › leg_back #0`: the node's ancestors' names and its own.
    static func display(_ node: Node, in nodes: [String: Node]) -> String {
        namePath(node, in: nodes).joined(separator: " › ")
    }

    /// The node's ancestors' names and its own, outermost first.
    static func namePath(_ node: Node, in nodes: [String: Node]) -> [String] {
        var parts: [String] = []
        var current: Node? = node
        var depth = 0
        while let step = current, depth < 512 {
            parts.append(step.name)
            current = step.parent.flatMap { nodes[$0] }
            depth += 1
        }
        return parts.reversed()
    }

    // MARK: - Formatting

    /// `24`, `23.5`, `0.333`.
    static func number(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
        var text = String(rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    static func size(_ size: Size) -> String { "\(number(size.width))×\(number(size.height))" }

    static func describe(_ rect: Rect?) -> String {
        guard let rect else { return "none" }
        return "\(number(rect.x)), \(number(rect.y)) \(number(rect.width))×\(number(rect.height))"
    }

    /// `0–23`.
    static func range(_ clip: Clip) -> String {
        "\(number(clip.start.value))–\(number(clip.start.value + clip.duration.value - 1))"
    }

    static func frames(_ clip: Clip, in document: Document) -> String {
        "\(document.composition(clip.composition)?.name ?? clip.composition), frames \(range(clip))"
    }

    static func loops(_ count: Int) -> String { count == 0 ? "forever" : "\(count)×" }
}
