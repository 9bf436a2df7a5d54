/// A mapping from time fraction to value progress: linear, Bézier, spring, steps, hold or Flash ease.
///
/// All curves map 0 to 0 and 1 to 1 (springs snap to 1 when their time is up). Evaluate with
/// ``progress(at:duration:)``; the duration matters only for a stretched spring with an
/// initial velocity, because its velocity is given per second.
///
/// ```swift
/// let curve = TimingCurve.easeInEaseOut
/// curve.progress(at: 0.25)                       // 0.1291…
/// TimingCurve.spring(dampingRatio: 0.5).progress(at: 0.5, duration: 2)
/// ```
public enum TimingCurve: Hashable, Sendable {
    /// Progress equals time.
    case linear
    /// A unit cubic Bézier (Core Animation / CSS `cubic-bezier`).
    case cubic(CubicBezier)
    /// A spring, stretched to the animator's duration or running for its own settling time.
    case spring(SpringTiming)
    /// `count` equal jumps (CSS `steps(count, position)`).
    case steps(Int, StepPosition)
    /// Stays at the start until the very end, then jumps to 1 (a held keyframe).
    case hold
    /// Flash's classic-tween quadratic ease `p + s·p·(1 − p)`, `s` in `-1...1` (Flash ease / 100).
    case quadraticEase(Double)

    // MARK: Named curves

    /// Core Animation `easeIn`: (0.42, 0) (1, 1).
    public static let easeIn = TimingCurve.cubic(CubicBezier(0.42, 0, 1, 1))
    /// Core Animation `easeOut`: (0, 0) (0.58, 1).
    public static let easeOut = TimingCurve.cubic(CubicBezier(0, 0, 0.58, 1))
    /// Core Animation `easeInEaseOut`: (0.42, 0) (0.58, 1).
    public static let easeInEaseOut = TimingCurve.cubic(CubicBezier(0.42, 0, 0.58, 1))
    /// Core Animation `default` (CSS `ease`): (0.25, 0.1) (0.25, 1).
    public static let `default` = TimingCurve.cubic(CubicBezier(0.25, 0.1, 0.25, 1))

    /// A cubic Bézier from its inner control points.
    public static func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> TimingCurve {
        .cubic(CubicBezier(x1, y1, x2, y2))
    }

    /// A spring by damping ratio, stretched to the animator's duration (UIKit `dampingRatio:`).
    ///
    /// - Parameters:
    ///   - dampingRatio: 1 settles without overshoot; below 1 it oscillates.
    ///   - initialVelocity: distances per second toward the target.
    public static func spring(dampingRatio: Double, initialVelocity: Double = 0) -> TimingCurve {
        .spring(SpringTiming(dampingRatio: dampingRatio, initialVelocity: initialVelocity))
    }

    /// A physical spring running for its own settling duration (`CASpringAnimation`,
    /// `UISpringTimingParameters(mass:stiffness:damping:initialVelocity:)`).
    public static func spring(mass: Double, stiffness: Double, damping: Double,
                              initialVelocity: Double = 0) -> TimingCurve {
        .spring(SpringTiming(spring: Spring(mass: mass, stiffness: stiffness, damping: damping,
                                            initialVelocity: initialVelocity)))
    }

    /// A SwiftUI `spring(response:dampingFraction:)`, running for its own settling duration.
    public static func spring(response: Double, dampingFraction: Double,
                              initialVelocity: Double = 0) -> TimingCurve {
        .spring(SpringTiming(spring: Spring(response: response, dampingRatio: dampingFraction,
                                            initialVelocity: initialVelocity)))
    }

    /// A SwiftUI `Spring(duration:bounce:)`, running for its own settling duration.
    public static func spring(duration: Double, bounce: Double) -> TimingCurve {
        .spring(SpringTiming(spring: Spring(duration: duration, bounce: bounce)))
    }

    // MARK: Evaluation

    /// How long the curve itself lasts, when it overrides the animator's duration (physical springs).
    public var intrinsicDuration: Seconds? {
        if case .spring(let timing) = self, !timing.isStretched { return Seconds(timing.settlingDuration) }
        return nil
    }

    /// The value progress at a time fraction.
    ///
    /// - Parameters:
    ///   - fraction: the time fraction; béziers extrapolate linearly outside `0...1`, the other
    ///     curves clamp.
    ///   - duration: the animation's duration, used only by stretched springs with a velocity.
    public func progress(at fraction: Progress, duration: Seconds = 1) -> Progress {
        Progress(evaluate(fraction.value, duration: duration.value))
    }

    /// The value progress at time fraction `x` (unwrapped, for hot loops).
    public func evaluate(_ x: Double, duration: Double = 1) -> Double {
        switch self {
        case .linear:
            return x
        case .cubic(let bezier):
            return bezier.progress(at: x)
        case .spring(let timing):
            return timing.progress(at: x, duration: duration)
        case .steps(let count, let position):
            return Self.steps(x, count: count, position: position)
        case .hold:
            return x >= 1 ? 1 : 0
        case .quadraticEase(let strength):
            let p = min(1, max(0, x))
            return p + strength * p * (1 - p)
        }
    }

    static func steps(_ x: Double, count: Int, position: StepPosition) -> Double {
        let n = max(1, count)
        if x >= 1 { return 1 }
        if x < 0 { return 0 }
        var step = (x * Double(n)).rounded(.down)
        if position == .start || position == .both { step += 1 }
        let jumps: Double
        switch position {
        case .start, .end: jumps = Double(n)
        case .both: jumps = Double(n + 1)
        case .none: jumps = Double(max(1, n - 1))
        }
        return min(max(step, 0), jumps) / jumps
    }
}
