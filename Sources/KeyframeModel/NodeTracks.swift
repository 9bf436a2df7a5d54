import KeyframeJSON

/// The animatable properties of a ``Node``; an absent track means the property keeps its default for all time.
///
/// Interpolated tracks (their keyframes carry an ``Easing``): ``position``, ``scale``, ``rotation``, ``skew``,
/// ``opacity``, ``color``, ``deform``. Held tracks (a value lasts until the next keyframe): ``pivot``, ``visible``,
/// ``content``, ``drawOrder``, ``blendMode``, ``filters``. Angles interpolate as raw numbers: importers unwrap
/// them (shortest path, forced turns) so that linear interpolation of the stored values is the source's motion.
///
/// The local transform is `T(position) · R(rotation) · K(skew) · S(scale) · T(−pivot)` (see
/// ``TransformComponents``); the local colour is ``color`` followed by ``opacity`` as an alpha multiplier.
public struct NodeTracks: Sendable, Hashable {
    /// Position of the pivot in the parent's space, in px. Default (0, 0).
    public var position: Track<Vector2>?
    /// Scale factors. Default (1, 1).
    public var scale: Track<Vector2>?
    /// Rotation in degrees, clockwise on screen (y down). Default 0.
    public var rotation: Track<Degrees>?
    /// Skew in degrees: the extra rotation of the local y axis relative to the x axis. Default 0.
    public var skew: Track<Degrees>?
    /// The local point that ``position`` places, in local px. Default (0, 0). Held.
    public var pivot: Track<Vector2>?
    /// Opacity, 0…1, multiplying alpha. Default 1.
    public var opacity: Track<Double>?
    /// Colour transform. Default identity.
    public var color: Track<ColorTransform>?
    /// Visibility. Default true. Held.
    public var visible: Track<Bool>?
    /// What the node displays. Default nothing. Held.
    public var content: Track<NodeContent>?
    /// Sort key among the composition's drawable nodes; lower draws first. Default: the node's index. Held.
    public var drawOrder: Track<Int>?
    /// Blend mode. Default normal. Held.
    public var blendMode: Track<BlendMode>?
    /// Filters, kept as data. Default none. Held.
    public var filters: Track<[Filter]>?
    /// Vertex offsets of the mesh the node shows (DragonBones FFD). Default none. Interpolated value by value.
    public var deform: Track<MeshDeform>?

    public init() {}

    /// Whether no track is present.
    public var isEmpty: Bool { count == 0 }

    /// The number of tracks present.
    public var count: Int {
        [position != nil, scale != nil, rotation != nil, skew != nil, pivot != nil, opacity != nil, color != nil,
         visible != nil, content != nil, drawOrder != nil, blendMode != nil, filters != nil, deform != nil].filter { $0 }.count
    }

    /// The total number of keyframes over all tracks.
    public var keyframeCount: Int {
        (position?.keyframes.count ?? 0) + (scale?.keyframes.count ?? 0) + (rotation?.keyframes.count ?? 0)
            + (skew?.keyframes.count ?? 0) + (pivot?.keyframes.count ?? 0) + (opacity?.keyframes.count ?? 0)
            + (color?.keyframes.count ?? 0) + (visible?.keyframes.count ?? 0) + (content?.keyframes.count ?? 0)
            + (drawOrder?.keyframes.count ?? 0) + (blendMode?.keyframes.count ?? 0)
            + (filters?.keyframes.count ?? 0) + (deform?.keyframes.count ?? 0)
    }
}

extension NodeTracks: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        func read<V: JSONRepresentable>(_ key: String, _ interpolates: Bool) throws(JSONSchemaError) -> Track<V>? {
            guard let cursor = try json.optionalMember(key) else { return nil }
            return try Track<V>(json: cursor, interpolates: interpolates)
        }
        self.init()
        position = try read("position", true)
        scale = try read("scale", true)
        rotation = try read("rotation", true)
        skew = try read("skew", true)
        pivot = try read("pivot", false)
        opacity = try read("opacity", true)
        color = try read("color", true)
        visible = try read("visible", false)
        content = try read("content", false)
        drawOrder = try read("drawOrder", false)
        blendMode = try read("blendMode", false)
        filters = try read("filters", false)
        deform = try read("deform", true)
    }

    public var json: JSONValue {
        var object: JSONObject = [:]
        object["position"] = position?.json(interpolates: true)
        object["scale"] = scale?.json(interpolates: true)
        object["rotation"] = rotation?.json(interpolates: true)
        object["skew"] = skew?.json(interpolates: true)
        object["pivot"] = pivot?.json(interpolates: false)
        object["opacity"] = opacity?.json(interpolates: true)
        object["color"] = color?.json(interpolates: true)
        object["visible"] = visible?.json(interpolates: false)
        object["content"] = content?.json(interpolates: false)
        object["drawOrder"] = drawOrder?.json(interpolates: false)
        object["blendMode"] = blendMode?.json(interpolates: false)
        object["filters"] = filters?.json(interpolates: false)
        object["deform"] = deform?.json(interpolates: true)
        return .object(object)
    }
}
