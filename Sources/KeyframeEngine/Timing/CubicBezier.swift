/// A unit cubic Bézier timing function from (0, 0) to (1, 1), solved the way WebKit and Chromium do.
///
/// The two inner control points are `(x1, y1)` and `(x2, y2)`. Evaluating at a time fraction
/// `x` finds the curve parameter `t` with `x(t) = x` — an 11-sample spline guess, at most four
/// Newton steps, then bisection, all to ``solverEpsilon`` — and returns `y(t)`. Outside `0...1`
/// the curve is extended linearly with the gradient at its end points.
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

    /// How closely the solver matches the requested x before it stops.
    public static let solverEpsilon = 1e-7
    static let maxNewtonIterations = 4
    static let sampleCount = 11

    @usableFromInline let ax: Double, bx: Double, cx: Double
    @usableFromInline let ay: Double, by: Double, cy: Double
    @usableFromInline let startGradient: Double
    @usableFromInline let endGradient: Double
    /// x(t) at t = 0, 0.1, …, 1, kept inline (a tuple, not an array) so copying a curve never
    /// touches reference counts on the hot path.
    @usableFromInline let samples: (Double, Double, Double, Double, Double, Double, Double, Double, Double,
                                    Double, Double)

    /// Creates the curve with inner control points `(x1, y1)` and `(x2, y2)`.
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        // Polynomial coefficients of the Bernstein form with P0 = (0,0), P3 = (1,1).
        let cx = 3 * x1, bx = 3 * (x2 - x1) - cx
        let cy = 3 * y1, by = 3 * (y2 - y1) - cy
        self.cx = cx; self.bx = bx; self.ax = 1 - cx - bx
        self.cy = cy; self.by = by; self.ay = 1 - cy - by

        if x1 > 0 {
            startGradient = y1 / x1
        } else if y1 == 0 && x2 > 0 {
            startGradient = y2 / x2
        } else if y1 == 0 && y2 == 0 {
            startGradient = 1
        } else {
            startGradient = 0
        }
        if x2 < 1 {
            endGradient = (y2 - 1) / (x2 - 1)
        } else if y2 == 1 && x1 < 1 {
            endGradient = (y1 - 1) / (x1 - 1)
        } else if y2 == 1 && y1 == 1 {
            endGradient = 1
        } else {
            endGradient = 0
        }
        let ax = 1 - cx - bx
        func x(_ i: Int) -> Double {
            let t = Double(i) / 10
            return ((ax * t + bx) * t + cx) * t
        }
        samples = (x(0), x(1), x(2), x(3), x(4), x(5), x(6), x(7), x(8), x(9), x(10))
    }

    /// The curve's x (time) at parameter `t`.
    @inlinable public func x(at t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    /// The curve's y (progress) at parameter `t`.
    @inlinable public func y(at t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    @inlinable func dxdt(at t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The eased progress at time fraction `x`.
    @inlinable public func progress(at x: Double) -> Double {
        if x <= 0 { return startGradient * x }
        if x >= 1 { return 1 + endGradient * (x - 1) }
        return y(at: parameter(forX: x, epsilon: Self.solverEpsilon))
    }

    /// The curve parameter `t` whose x is `x` (`x` in `0...1`).
    @usableFromInline func parameter(forX x: Double, epsilon: Double) -> Double {
        // Bracket x between two of the precomputed samples and guess linearly inside the bracket.
        let step = 1 / Double(Self.sampleCount - 1)
        var lower = 0.0, upper = 1.0, t = x
        withUnsafeBytes(of: samples) { raw in
            let sample = raw.bindMemory(to: Double.self)
            for i in 1..<Self.sampleCount where x <= sample[i] {
                upper = step * Double(i)
                lower = upper - step
                let span = sample[i] - sample[i - 1]
                t = span > 0 ? lower + step * (x - sample[i - 1]) / span : lower
                break
            }
        }
        // Newton refinement from the guess; gives up on a flat derivative.
        var error = 0.0
        for _ in 0..<Self.maxNewtonIterations {
            error = self.x(at: t) - x
            if abs(error) < epsilon { return t }
            let slope = dxdt(at: t)
            if abs(slope) < Self.solverEpsilon { break }
            t -= error / slope
        }
        if abs(error) < epsilon { return t }
        // Bisection inside the bracket, first testing the last Newton estimate (as Chromium does, so
        // results agree to the last bit on steep curves); converges because x(t) is monotone for
        // x1, x2 in 0...1.
        for _ in 0..<100 where lower < upper {
            let value = self.x(at: t)
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
