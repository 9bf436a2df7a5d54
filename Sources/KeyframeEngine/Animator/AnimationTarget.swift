/// What an animation drives: a number, a vector, or the playhead of a clip.
///
/// A target maps the animation's progress `q` (0 = before the animation, 1 = its end value,
/// overshoot allowed) to a value. A clip target turns progress into a time inside a clip of a
/// document, which the caller then samples to a pose.
///
/// ```swift
/// AnimationTarget.value(from: 0, to: 100).value(at: 0.25)   // .scalar(25)
/// AnimationTarget.clip(duration: 2).value(at: 0.5)          // .clipTime(1 s)
/// ```
public enum AnimationTarget: Hashable, Sendable {
    /// A number interpolated linearly (extrapolated when a curve overshoots).
    case value(from: Double, to: Double)
    /// Components interpolated one by one; the arrays must have equal length.
    case vector(from: [Double], to: [Double])
    /// A clip lasting `duration`; its value is clip time, clamped to `0...duration`.
    case clip(duration: Seconds)

    /// The value at progress `q`.
    @inlinable public func value(at q: Double) -> AnimatedValue {
        switch self {
        case .value(let from, let to):
            return .scalar(from + (to - from) * q)
        case .vector(let from, let to):
            return .vector(zip(from, to).map { $0 + ($1 - $0) * q })
        case .clip(let duration):
            return .clipTime(Seconds(duration.value * min(1, max(0, q))))
        }
    }

    /// The value before the animation ran (progress 0).
    public var startValue: AnimatedValue { value(at: 0) }

    /// The value the animation ends on (progress 1).
    public var endValue: AnimatedValue { value(at: 1) }
}
