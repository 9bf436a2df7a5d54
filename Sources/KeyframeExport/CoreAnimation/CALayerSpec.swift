import KeyframeJSON
import KeyframeModel

/// One `CALayer` of the Core Animation layer-tree format, field for field (docs/core-animation.md §2).
///
/// Geometry follows Core Animation: the layer's frame in its superlayer is
/// `translate(position) · transform · translate(−anchorPoint·bounds.size − bounds.origin)`, y pointing down (the
/// loader sets `isGeometryFlipped` on macOS).
public struct CALayerSpec: Sendable, Hashable {
    /// The layer's name (`CALayer.name`): the node, sprite or composition it stands for.
    public var name: String
    /// `[x, y, width, height]`.
    public var bounds: [Double] = [0, 0, 0, 0]
    /// `[x, y]` in unit coordinates of the bounds.
    public var anchorPoint: [Double] = [0.5, 0.5]
    /// `[x, y]` in the superlayer.
    public var position: [Double] = [0, 0]
    /// `CATransform3D`, 16 numbers `m11 … m44` row by row.
    public var transform: [Double] = CALayerSpec.identity
    public var opacity: Double = 1
    public var isHidden: Bool = false
    public var zPosition: Double = 0
    /// Always `false`: opacity multiplies down to each sublayer, as Keyframe's colour transforms do.
    public var allowsGroupOpacity: Bool = false
    /// The id of an image in the document's `images` (nil: no contents).
    public var contents: String? = nil
    /// `[x, y, width, height]` in unit coordinates of the image.
    public var contentsRect: [Double] = [0, 0, 1, 1]
    /// The layer's own media timing (seconds): its local time is `(parent − beginTime)·speed + timeOffset`.
    public var beginTime: Double = 0
    public var timeOffset: Double = 0
    public var speed: Double = 1
    /// The layer's animation group, added under the key `keyframe`.
    public var animation: CAAnimationGroupSpec? = nil
    /// Sublayers, back to front.
    public var sublayers: [CALayerSpec] = []
    /// The layer's `mask`: its composited alpha, in this layer's coordinates, limits what the layer and its
    /// sublayers show.
    public var mask: CALayerSpecBox? = nil
    /// A closed polygon `[x0, y0, x1, y1, …]` (at least three points) in the layer's bounds space, filled opaque
    /// with the non-zero rule: the layer is a `CAShapeLayer` with this `path` (nil: a plain `CALayer`). Mesh
    /// triangles use it as their mask.
    public var path: [Double]? = nil

    public init(name: String) { self.name = name }

    /// `CATransform3DIdentity`.
    public static let identity: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

    /// The `CATransform3D` of a 2D affine matrix (x' = a·x + c·y + tx, y' = b·x + d·y + ty).
    public static func transform(_ m: Matrix2D) -> [Double] {
        [m.a, m.b, 0, 0, m.c, m.d, 0, 0, 0, 0, 1, 0, m.tx, m.ty, 0, 1]
    }

    /// The 2D affine part of a `CATransform3D`.
    public static func affine(_ t: [Double]) -> Matrix2D {
        Matrix2D(a: t[0], b: t[1], c: t[4], d: t[5], tx: t[12], ty: t[13])
    }
}

extension CALayerSpec: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        self.init(name: try json.decode("name"))
        func numbers(_ key: String, _ count: Int) throws(JSONSchemaError) -> [Double] {
            let cursor = try json.member(key)
            let values = try [Double](json: cursor)
            guard values.count == count else { throw cursor.error("expected \(count) numbers, found \(values.count)") }
            return values
        }
        bounds = try numbers("bounds", 4)
        anchorPoint = try numbers("anchorPoint", 2)
        position = try numbers("position", 2)
        transform = try numbers("transform", 16)
        opacity = try json.decode("opacity")
        isHidden = try json.decode("isHidden")
        zPosition = try json.decode("zPosition")
        allowsGroupOpacity = try json.decode("allowsGroupOpacity")
        contents = try json.decodeIfPresent("contents")
        contentsRect = try numbers("contentsRect", 4)
        beginTime = try json.decode("beginTime")
        timeOffset = try json.decode("timeOffset")
        speed = try json.decode("speed")
        animation = try json.decodeIfPresent("animation")
        sublayers = try json.decode("sublayers")
        if let mask = try json.optionalMember("mask") { self.mask = CALayerSpecBox(try CALayerSpec(json: mask)) }
        path = try json.decodeIfPresent("path")
    }

    public var json: JSONValue {
        var object: JSONObject = [
            "name": .string(name), "bounds": bounds.json, "anchorPoint": anchorPoint.json, "position": position.json,
            "transform": transform.json, "opacity": .number(opacity), "isHidden": .bool(isHidden),
            "zPosition": .number(zPosition), "allowsGroupOpacity": .bool(allowsGroupOpacity),
            "contentsRect": contentsRect.json, "beginTime": .number(beginTime), "timeOffset": .number(timeOffset),
            "speed": .number(speed), "sublayers": sublayers.json,
        ]
        if let contents { object["contents"] = .string(contents) }
        if let animation { object["animation"] = animation.json }
        if let mask { object["mask"] = mask.layer.json }
        if let path { object["path"] = path.json }
        return .object(object)
    }
}

/// A layer held by reference where a layer contains one layer (its `mask`), which a struct cannot hold directly.
public final class CALayerSpecBox: Sendable, Hashable {
    public let layer: CALayerSpec
    public init(_ layer: CALayerSpec) { self.layer = layer }
    public static func == (a: CALayerSpecBox, b: CALayerSpecBox) -> Bool { a.layer == b.layer }
    public func hash(into hasher: inout Hasher) { hasher.combine(layer) }
}
