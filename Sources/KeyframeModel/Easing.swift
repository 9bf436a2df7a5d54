import KeyframeJSON

/// How a keyframe's value travels to the next keyframe's value: the easing of one track segment.
///
/// Each source format's easing is stored as it is defined, not converted into another form, so nothing is lost and
/// sign conventions stay visible:
/// - Flash classic tweens, BTA `ES` and DragonBones `tweenEasing` in −1…1 are ``flashQuadratic(strength:)``,
///   `p + s·p·(1−p)` (negative = slow start);
/// - Flump's `ease` is ``flumpQuadratic(ease:)``, `p − e·p·(1−p)` — the opposite sign, kept as Flump wrote it;
/// - Animate custom eases (BTA `CV`) and DragonBones `curve` lists are `bezierPath(points:)`.
public enum Easing: Sendable, Hashable {
    /// The value stays until the next keyframe (step).
    case hold
    /// Linear interpolation.
    case linear
    /// One cubic Bézier from (0,0) to (1,1) with control points (x1,y1), (x2,y2); x is time, y is progress.
    case cubicBezier(x1: Double, y1: Double, x2: Double, y2: Double)
    /// A chain of cubic Bézier segments `P0, C1, C2, P1, C1, C2, P2, …` (x = time fraction, y = progress), starting
    /// at (0,0) and ending at (1,1). `sampledSteps`, when set, says the source runtime samples the curve at that many
    /// evenly spaced times and interpolates linearly between the samples (DragonBones does, per frame).
    case bezierPath(points: [Vector2], sampledSteps: Int?)
    /// Flash's classic-tween quadratic, `p + strength·p·(1−p)`, strength in −1…1 (−1 = full ease-in).
    case flashQuadratic(strength: Double)
    /// DragonBones' in-out ease for `tweenEasing` in (1, 2]: `p + strength·(inOut(p) − p)` with
    /// `inOut(p) = (1 − cos πp)/2` (the runtime's "QuadInOut"), strength = `tweenEasing − 1`.
    case quadraticInOut(strength: Double)
    /// Flump's quadratic, `p − ease·p·(1−p)`, ease in −1…1 (note the sign is opposite to ``flashQuadratic(strength:)``).
    case flumpQuadratic(ease: Double)

    /// Whether the segment interpolates (everything but ``hold``).
    ///
    /// Inlinable (a case test, not the synthesized `==`) because the engine asks it of every segment it samples.
    @inlinable
    public var interpolates: Bool {
        if case .hold = self { return false }
        return true
    }
}

extension Easing: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        let type = try json.member("type")
        switch try type.string() {
        case "hold": self = .hold
        case "linear": self = .linear
        case "cubicBezier":
            self = .cubicBezier(x1: try json.decode("x1"), y1: try json.decode("y1"),
                                x2: try json.decode("x2"), y2: try json.decode("y2"))
        case "bezierPath":
            let points: [Vector2] = try json.decode("points")
            guard points.count >= 4, (points.count - 1) % 3 == 0 else {
                throw json.error(at: "points", "a Bézier path needs 3n+1 points (n ≥ 1), found \(points.count)")
            }
            self = .bezierPath(points: points, sampledSteps: try json.decodeIfPresent("sampledSteps"))
        case "flashQuadratic": self = .flashQuadratic(strength: try json.decode("strength"))
        case "quadraticInOut": self = .quadraticInOut(strength: try json.decode("strength"))
        case "flumpQuadratic": self = .flumpQuadratic(ease: try json.decode("ease"))
        case let other: throw type.error("unknown easing type \"\(other)\"")
        }
    }

    public var json: JSONValue {
        switch self {
        case .hold: return ["type": "hold"]
        case .linear: return ["type": "linear"]
        case .cubicBezier(let x1, let y1, let x2, let y2):
            return ["type": "cubicBezier", "x1": .number(x1), "y1": .number(y1), "x2": .number(x2), "y2": .number(y2)]
        case .bezierPath(let points, let steps):
            var object: JSONObject = ["type": "bezierPath", "points": points.json]
            object.setIfPresent("sampledSteps", steps)
            return .object(object)
        case .flashQuadratic(let strength): return ["type": "flashQuadratic", "strength": .number(strength)]
        case .quadraticInOut(let strength): return ["type": "quadraticInOut", "strength": .number(strength)]
        case .flumpQuadratic(let ease): return ["type": "flumpQuadratic", "ease": .number(ease)]
        }
    }
}
