/// Groups a sheet's frames into animations (``SpriteSheetAnimations``).
///
/// A frame name splits into a prefix and a trailing frame number (`BF idle dance0013` → `BF idle dance`, 13;
/// `walk_01.png` → `walk_`, 1: an image extension is dropped first). A prefix rule selects, as HaxeFlixel's
/// `addByPrefix` does, every frame whose name starts with the prefix, ordered by frame number (ties in file
/// order); `addByIndices` picks the frames with the given numbers. Grouping by name puts frames with the same
/// prefix together, so `idle0000` and `idle-alt0000` stay apart where `addByPrefix("idle")` would take both.
struct SpriteSheetGrouping {
    /// An animation the file or its sidecar declares.
    struct Declared: Sendable {
        var name: String
        var selection: Selection
        var loops: Bool
    }

    /// How a declared animation names its frames.
    enum Selection: Sendable {
        /// The frame names in play order (PixiJS's `animations`).
        case frames([String])
        /// HaxeFlixel's `addByPrefix` (no indices) or `addByIndices`.
        case prefix(String, indices: [Int]?)
    }

    /// One resulting animation.
    struct Animation {
        var name: String
        var frames: [String]
        var loops: Bool
    }

    private(set) var animations: [Animation] = []
    /// What could not be grouped as declared.
    private(set) var notes: [String] = []
    private var used = Set<String>()

    /// Groups `names` (the sheet's frames in file order, unique) by `rule`; `stem` names a clip of all frames.
    init(names: [String], declared: [Declared], rule: SpriteSheetAnimations, stem: String) {
        let split = names.map(SpriteSheetGrouping.split)
        switch rule {
        case .names where !declared.isEmpty, .declared where !declared.isEmpty:
            for animation in declared {
                let frames = select(animation, names: names, split: split)
                if frames.isEmpty {
                    notes.append("animation \"\(animation.name)\" matches no frame of the sheet and was left out")
                    continue
                }
                add(animation.name, frames, loops: animation.loops)
            }
        case .names:
            var order: [String] = []
            var members: [String: [Int]] = [:]
            for (index, part) in split.enumerated() {
                if members[part.prefix] == nil { order.append(part.prefix) }
                members[part.prefix, default: []].append(index)
            }
            for prefix in order {
                let sorted = SpriteSheetGrouping.byNumber(members[prefix]!, split)
                var name = prefix
                while let last = name.last, " _-.".contains(last) { name.removeLast() }
                add(name.isEmpty ? stem : name, sorted.map { names[$0] }, loops: true)
            }
        case .declared, .single:
            break
        }
        if animations.isEmpty {
            let sorted = names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            add(stem, sorted, loops: true)
        }
    }

    /// The frames a declared animation selects.
    private func select(_ animation: Declared, names: [String], split: [(prefix: String, number: Int?)]) -> [String] {
        switch animation.selection {
        case .frames(let list):
            let known = Set(names)
            return list.filter { known.contains($0) }
        case .prefix(let prefix, let indices):
            let matching = names.indices.filter { names[$0].hasPrefix(prefix) }
            guard let indices, !indices.isEmpty else {
                return SpriteSheetGrouping.byNumber(matching, split).map { names[$0] }
            }
            return indices.compactMap { number in
                // As `findSpriteFrame`: the rest of the name after the prefix is the number.
                matching.first { Int(String(names[$0].dropFirst(prefix.count))) == number }.map { names[$0] }
            }
        }
    }

    private mutating func add(_ name: String, _ frames: [String], loops: Bool) {
        var candidate = name
        var counter = 2
        while used.contains(candidate) {
            candidate = "\(name)-\(counter)"
            counter += 1
        }
        used.insert(candidate)
        animations.append(Animation(name: candidate, frames: frames, loops: loops))
    }

    /// `indices` ordered by frame number, ties (and names without one, first) in file order.
    private static func byNumber(_ indices: [Int], _ split: [(prefix: String, number: Int?)]) -> [Int] {
        indices.sorted { a, b in
            let x = split[a].number ?? -1, y = split[b].number ?? -1
            return x != y ? x < y : a < b
        }
    }

    /// A name's prefix and trailing frame number, after dropping an image extension.
    static func split(_ name: String) -> (prefix: String, number: Int?) {
        var base = Substring(name)
        for ext in [".png", ".jpg", ".jpeg", ".webp", ".gif", ".bmp", ".tga"] where base.lowercased().hasSuffix(ext) {
            base = base.dropLast(ext.count)
            break
        }
        let digits = base.reversed().prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty else { return (String(base), nil) }
        let prefix = base.dropLast(digits.count)
        return (String(prefix), Int(String(digits.reversed())))
    }
}
