/// A unit cubic Bézier timing function from (0, 0) to (1, 1), solved to within 1e-9 of the exact curve.
///
/// The two inner control points are `(x1, y1)` and `(x2, y2)`. Evaluating at a time fraction
/// `x` finds the curve parameter `t` with `x(t) = x` and returns `y(t)`. When `x1` and `x2` lie in `0...1` (x rises
/// with t: every CSS and Core Animation curve) the value is within 1e-9 of the exact curve's, steep and flat curves
/// included: Hermite starts and Newton steps from the nearer end of the curve (`BezierEnd`), or an exact expansion
/// where x(t) almost stops inside (`BezierFlatMiddle`); `docs/engine.md` § Performance. Chromium's
/// solver stops at |x(t) − x| < 1e-7, so the two agree within Chromium's own error (≈ 1.3e-7 on its golden table).
/// A curve whose x leaves `0...1` is not a function of time; it keeps the spline guess, Newton and bisection search
/// of WebKit and Chromium, which finds one of its roots. Outside `0...1` the curve is extended linearly with the
/// gradient at its end points.
///
/// Only the four numbers are stored: everything else is recomputed when needed, which keeps the curve small enough
/// to copy for free; `CubicBezierSolver` prepares the same numbers once for the clock's batch lane.
///
/// ```swift
/// let ease = CubicBezier(0.25, 0.1, 0.25, 1)
/// ease.progress(at: 0.5)   // ≈ 0.8024
/// ```
public struct CubicBezier: Sendable {
    /// The first inner control point's x (time), usually in `0...1`.
    public let x1: Double
    /// The first inner control point's y (progress); may leave `0...1` to overshoot.
    public let y1: Double
    /// The second inner control point's x (time), usually in `0...1`.
    public let x2: Double
    /// The second inner control point's y (progress); may leave `0...1` to overshoot.
    public let y2: Double

    /// How closely the search for curves whose x leaves `0...1` matches the requested x before it stops.
    public static let solverEpsilon = 1e-7
    static let maxNewtonIterations = 4
    static let sampleCount = 11

    /// Creates the curve with inner control points `(x1, y1)` and `(x2, y2)`.
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    }

    // Polynomial coefficients of the Bernstein form with P0 = (0,0), P3 = (1,1).
    @usableFromInline var cx: Double { 3 * x1 }
    @usableFromInline var bx: Double { 3 * (x2 - x1) - cx }
    @usableFromInline var ax: Double { 1 - cx - bx }
    @usableFromInline var cy: Double { 3 * y1 }
    @usableFromInline var by: Double { 3 * (y2 - y1) - cy }
    @usableFromInline var ay: Double { 1 - cy - by }

    /// The slope used to extend the curve before x = 0.
    @usableFromInline var startGradient: Double {
        if x1 > 0 { return y1 / x1 }
        if y1 == 0 && x2 > 0 { return y2 / x2 }
        if y1 == 0 && y2 == 0 { return 1 }
        return 0
    }

    /// The slope used to extend the curve after x = 1.
    @usableFromInline var endGradient: Double {
        if x2 < 1 { return (y2 - 1) / (x2 - 1) }
        if y2 == 1 && x1 < 1 { return (y1 - 1) / (x1 - 1) }
        if y2 == 1 && y1 == 1 { return 1 }
        return 0
    }

    /// The curve's x (time) at parameter `t`.
    @inlinable public func x(at t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    /// The curve's y (progress) at parameter `t`.
    @inlinable public func y(at t: Double) -> Double { ((ay * t + by) * t + cy) * t }

    /// The eased progress at time fraction `x`.
    @inlinable public func progress(at x: Double) -> Double {
        if x <= 0 { return startGradient * x }
        if x >= 1 { return 1 + endGradient * (x - 1) }
        return interiorProgress(at: x)
    }

    /// Whether x rises with t (`x1` and `x2` in `0...1`): the curve is a function of time.
    var isMonotone: Bool { (0...1).contains(x1) && (0...1).contains(x2) }

    /// The eased progress at `x` in `0 < x < 1`.
    @usableFromInline func interiorProgress(at x: Double) -> Double {
        guard isMonotone else { return y(at: parameter(forX: x, epsilon: Self.solverEpsilon)) }
        if let flat = BezierFlatMiddle(self) { return flat.progress(at: x) }
        let far = x > 0.5
        let end = far ? BezierEnd.end(of: self) : BezierEnd.start(of: self)
        let target = far ? 1 - x : x
        let (g, position) = BezierEnd.bucket(holding: target)
        let y = end.progress(target, position: position, end.bucket(g))
        return far ? 1 - y : y
    }

    /// The curve parameter `t` whose x is `x` (`x` in `0...1`), for curves whose x leaves `0...1`.
    func parameter(forX x: Double, epsilon: Double) -> Double {
        let a = ax, b = bx, c = cx
        func xAt(_ t: Double) -> Double { ((a * t + b) * t + c) * t }
        // Bracket x between two of the 11 spline samples x(i/10) and guess linearly inside the bracket.
        let step = 1 / Double(Self.sampleCount - 1)
        var lower = 0.0, upper = 1.0, t = x
        var previous = 0.0
        for i in 1..<Self.sampleCount {
            let sample = xAt(Double(i) / Double(Self.sampleCount - 1))
            if x <= sample {
                upper = step * Double(i)
                lower = upper - step
                let span = sample - previous
                t = span > 0 ? lower + step * (x - previous) / span : lower
                break
            }
            previous = sample
        }
        return Self.refine(x, start: t, lower: lower, upper: upper, a: a, b: b, c: c, epsilon: epsilon)
    }

    /// Solves `x(t) = x` from the spline guess `start` inside the bracket `lower...upper`: at most
    /// ``maxNewtonIterations`` Newton steps (giving up on a flat derivative), then bisection inside the
    /// bracket, first testing the last Newton estimate (Chromium's search).
    static func refine(_ x: Double, start: Double, lower: Double, upper: Double, a: Double, b: Double, c: Double,
                       epsilon: Double) -> Double {
        var t = start, lower = lower, upper = upper
        var error = 0.0
        for _ in 0..<maxNewtonIterations {
            error = ((a * t + b) * t + c) * t - x
            if abs(error) < epsilon { return t }
            let slope = (3 * a * t + 2 * b) * t + c
            if abs(slope) < solverEpsilon { break }
            t -= error / slope
        }
        if abs(error) < epsilon { return t }
        for _ in 0..<100 where lower < upper {
            let value = ((a * t + b) * t + c) * t
            if abs(value - x) < epsilon { return t }
            if x > value { lower = t } else { upper = t }
            t = (lower + upper) / 2
        }
        return t
    }
}

extension CubicBezier: Hashable {
    /// Two curves are equal when their control points are.
    public static func == (lhs: CubicBezier, rhs: CubicBezier) -> Bool {
        lhs.x1 == rhs.x1 && lhs.y1 == rhs.y1 && lhs.x2 == rhs.x2 && lhs.y2 == rhs.y2
    }

    /// Hashes the control points.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(x1); hasher.combine(y1); hasher.combine(x2); hasher.combine(y2)
    }
}
