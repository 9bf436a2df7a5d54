/// The value an animation presents at some progress.
public enum AnimatedValue: Hashable, Sendable {
    /// A number, from a ``AnimationTarget/value(from:to:)`` target.
    case scalar(Double)
    /// Components, from a ``AnimationTarget/vector(from:to:)`` target.
    case vector([Double])
    /// A time inside a clip, from a ``AnimationTarget/clip(duration:)`` target.
    case clipTime(Seconds)

    /// The number, when this is a scalar.
    public var scalar: Double? { if case .scalar(let v) = self { return v } else { return nil } }

    /// The clip time, when this is one.
    public var clipTime: Seconds? { if case .clipTime(let t) = self { return t } else { return nil } }

    /// All components as numbers (a scalar or clip time has one).
    public var components: [Double] {
        switch self {
        case .scalar(let v): return [v]
        case .vector(let v): return v
        case .clipTime(let t): return [t.value]
        }
    }
}
