import KeyframeModel

/// A node's transform at one frame written the way its source file writes it, beside the model's normalized
/// components: an Animate element's matrix (`a b c d tx ty`, the `M3D` / `MX` values), a DragonBones bone's
/// parent-local `x y skX skY scX scY` (a display's within its slot), a Flump keyframe's `loc`, `skew` (radians) and
/// `scale`.
///
/// The model keeps position as the image of the transformation point (so rotating and scaling tweens turn about
/// it); an animator who moved an element edited the matrix's translation, which these values show unchanged.
public struct SourceValues: Sendable, Hashable {
    /// What the values are: `Animate matrix`, `DragonBones bone (parent-local)`, `Flump keyframe`, `matrix`.
    public var terms: String
    /// The names of the values, in the source's spelling.
    public var names: [String]
    /// The older version's values.
    public var before: [Double]
    /// The newer version's values.
    public var after: [Double]

    /// Both versions of `tracks` at `frame` in the terms of `format` (a DragonBones slot's values are its display's
    /// transform in the slot, a bone's its parent-local transform).
    static func at(_ frame: Frames, before a: NodeTracks, after b: NodeTracks, format: SourceFormat, kind: NodeKind)
        -> SourceValues
    {
        var (terms, names) = labels(format)
        if format == .dragonBones, kind != .bone { terms = "DragonBones display (in its slot)" }
        return SourceValues(terms: terms, names: names, before: values(a, frame, format), after: values(b, frame, format))
    }

    /// `tx 4 → 34, ty -84 → -84`: the values that differ, or all of them when none does.
    public var changedText: String {
        let n = Correspondence.number
        var changed = names.indices.filter { n(before[$0]) != n(after[$0]) }
        if changed.isEmpty { changed = Array(names.indices) }
        return changed.map { "\(names[$0]) \(n(before[$0])) → \(n(after[$0]))" }.joined(separator: ", ")
    }

    private static func labels(_ format: SourceFormat) -> (String, [String]) {
        switch format {
        case .dragonBones: return ("DragonBones bone (parent-local)", ["x", "y", "skX", "skY", "scX", "scY"])
        case .flump: return ("Flump keyframe", ["loc.x", "loc.y", "skew.x", "skew.y", "scale.x", "scale.y"])
        case .animateAtlas, .betterTextureAtlas: return ("Animate matrix", ["a", "b", "c", "d", "tx", "ty"])
        default: return ("matrix", ["a", "b", "c", "d", "tx", "ty"])
        }
    }

    private static func values(_ tracks: NodeTracks, _ frame: Frames, _ format: SourceFormat) -> [Double] {
        let components = TransformComponents(
            position: tracks.position?.value(at: frame) ?? .zero, scale: tracks.scale?.value(at: frame) ?? .one,
            rotation: tracks.rotation?.value(at: frame) ?? Degrees(0), skew: tracks.skew?.value(at: frame) ?? Degrees(0),
            pivot: tracks.pivot?.heldValue(at: frame) ?? .zero)
        let rotation = components.rotation.value, skewX = rotation + components.skew.value
        switch format {
        case .dragonBones:
            return [components.position.x, components.position.y, skewX, rotation, components.scale.x, components.scale.y]
        case .flump:
            let radians = Double.pi / 180
            return [components.position.x, components.position.y, skewX * radians, rotation * radians,
                    components.scale.x, components.scale.y]
        default:
            let m = components.matrix
            return [m.a, m.b, m.c, m.d, m.tx, m.ty]
        }
    }
}
