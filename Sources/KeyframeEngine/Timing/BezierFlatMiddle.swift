/// The solver for a monotone cubic Bézier whose x(t) almost stops inside the curve (internal), such as
/// `cubic-bezier(1, 0, 0, 1)`, where x′ vanishes at t = ½.
///
/// Near such a point x(t) − x has a (near) triple root: a residual computed in double precision is wrong by ~1e-16,
/// which moves the root by its cube root, ~5e-6, whatever the solver. So the curve is expanded, exactly, around the
/// parameter `t0` where x′ is least: `x(t0 + d) = x0 + m·d + q·d² + a·d³`, with the coefficients and `x0`
/// computed in double-double arithmetic from the control points (`q` is the rounding of `t0`, tiny); the equation
/// `m·d + q·d² + a·d³ = x − x0` then has terms of one sign (x′ ≥ 0 on the curve) and is solved to the last bit of `d`
/// by Newton's method kept inside a shrinking bracket. Used when the least slope is below
/// ``threshold`` × max |y′| (where the plain solver's rounding could cost more than the tolerance); rare in practice.
struct BezierFlatMiddle {
    /// The parameter where x′ is least, and the interval `d` may cover.
    let t0: Double
    /// x(t0) in double-double.
    let x0: DoubleDouble
    /// x(t0 + d) − x0 = ((a·d + q)·d + m)·d.
    let a: Double, q: Double, m: Double
    /// y(t0 + d) = y0 + ((ay·d + qy)·d + my)·d.
    let y0: Double, ay: Double, qy: Double, my: Double

    /// A least slope below this × max |y′| takes this solver.
    static let threshold = 1e-3

    /// The solver for `curve` when its x′ has an interior minimum below the threshold; `nil` otherwise (the
    /// two-ended solver of ``BezierEnd`` is exact enough).
    init?(_ curve: CubicBezier) {
        let start = BezierEnd.start(of: curve)
        guard start.a > 0 else { return nil }
        let t0 = -start.b / (3 * start.a)
        guard t0 > 0 && t0 < 1 else { return nil }
        let least = start.c - start.b * start.b / (3 * start.a)
        guard least < Self.threshold * BezierEnd.valueSlopeBound(curve.y1, curve.y2) else { return nil }
        self.t0 = t0
        // The exact power-form coefficients of x: c = 3·x1, b = 3·x2 − 6·x1, a = 1 + 3·x1 − 3·x2.
        let c = DoubleDouble.product(3, curve.x1)
        let b = DoubleDouble.product(3, curve.x2) - DoubleDouble.product(6, curve.x1)
        let a = DoubleDouble(1) + DoubleDouble.product(3, curve.x1) - DoubleDouble.product(3, curve.x2)
        let t = DoubleDouble(t0)
        x0 = ((a * t + b) * t + c) * t
        m = ((DoubleDouble(3) * a * t + DoubleDouble(2) * b) * t + c).value
        q = (DoubleDouble(3) * a * t + b).value
        self.a = a.value
        y0 = start.y(t0)
        my = (3 * start.ay * t0 + 2 * start.by) * t0 + start.cy
        qy = 3 * start.ay * t0 + start.by
        ay = start.ay
    }

    /// The eased progress at time fraction `x` in `0 < x < 1`.
    func progress(at x: Double) -> Double {
        let target = (DoubleDouble(x) - x0).value
        func g(_ d: Double) -> Double { ((a * d + q) * d + m) * d }
        var low = -t0, high = 1 - t0
        var d = target > 0 ? high : low
        if m > 0 {
            // m·d alone overshoots the root (the other terms add in the same direction).
            let linear = target / m
            if linear > low && linear < high { d = linear }
        }
        for _ in 0..<200 {
            let value = g(d) - target
            if value == 0 { break }
            if value < 0 { low = d } else { high = d }
            var next = d - value / ((3 * a * d + 2 * q) * d + m)
            if !(next > low && next < high) { next = (low + high) / 2 }
            if next == d || next <= low || next >= high { break }
            d = next
        }
        return y0 + ((ay * d + qy) * d + my) * d
    }
}

/// A double-double number (`value ≈ hi + lo`, about 106 bits), for the few exact expansions the Bézier solver needs
/// (internal).
struct DoubleDouble {
    var hi: Double
    var lo: Double

    init(_ value: Double) { hi = value; lo = 0 }
    init(hi: Double, lo: Double) { self.hi = hi; self.lo = lo }

    /// The nearest double.
    var value: Double { hi + lo }

    /// `a × b` exactly (the rounding error recovered with a fused multiply-add).
    static func product(_ a: Double, _ b: Double) -> DoubleDouble {
        let p = a * b
        return DoubleDouble(hi: p, lo: (-p).addingProduct(a, b))
    }

    /// `a + b` exactly.
    static func sum(_ a: Double, _ b: Double) -> DoubleDouble {
        let s = a + b
        let v = s - a
        return DoubleDouble(hi: s, lo: (a - (s - v)) + (b - v))
    }

    static func + (lhs: DoubleDouble, rhs: DoubleDouble) -> DoubleDouble {
        let s = sum(lhs.hi, rhs.hi)
        let t = sum(lhs.lo, rhs.lo)
        let u = sum(s.hi, s.lo + t.hi)
        return sum(u.hi, u.lo + t.lo)
    }

    static prefix func - (value: DoubleDouble) -> DoubleDouble { DoubleDouble(hi: -value.hi, lo: -value.lo) }

    static func - (lhs: DoubleDouble, rhs: DoubleDouble) -> DoubleDouble { lhs + -rhs }

    static func * (lhs: DoubleDouble, rhs: DoubleDouble) -> DoubleDouble {
        let p = product(lhs.hi, rhs.hi)
        return sum(p.hi, p.lo + (lhs.hi * rhs.lo + lhs.lo * rhs.hi))
    }
}
