import Foundation

/// The exact eased progress of a cubic Bézier timing curve, for judging the engine's solver (test support).
///
/// Independent of the solver: the curve in Bernstein form (every term non-negative for x1, x2 in 0…1) evaluated in
/// 80-bit extended precision (64-bit significand, x86's long double), the root of `x(t) = x` by bisection until the
/// bracket cannot shrink, then `y(t)`. Good to ~1e-18 wherever x′ is not nearly zero at the root; for
/// `cubic-bezier(1, y1, 0, y2)`, whose x′ vanishes at t = ½, the root is solved in closed form instead
/// (`x(t) = ½ + 4·(t − ½)³`).
enum ExactBezier {
    /// Whether this platform has the extended type the reference needs.
    static var isAvailable: Bool {
        #if arch(x86_64) && !os(Windows)
        return true
        #else
        return false
        #endif
    }

    /// y at time fraction `x` in `0 < x < 1` for the curve `(x1, y1)`, `(x2, y2)` with `x1`, `x2` in `0…1`.
    static func progress(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
        #if arch(x86_64) && !os(Windows)
        let X1 = Float80(x1), Y1 = Float80(y1), X2 = Float80(x2), Y2 = Float80(y2), X = Float80(x)
        func bernstein(_ p1: Float80, _ p2: Float80, _ t: Float80) -> Float80 {
            let s = 1 - t
            return 3 * p1 * t * s * s + 3 * p2 * t * t * s + t * t * t
        }
        if x1 == 1 && x2 == 0 {
            // x(t) = ½ + 4(t − ½)³: t = ½ + ∛((x − ½)/4), the cube root refined by Newton in extended precision.
            let v = (X - 0.5) / 4
            var r = Float80(cbrt(Double(v)))
            if r != 0 { for _ in 0..<4 { r -= (r * r * r - v) / (3 * r * r) } }
            return Double(bernstein(Y1, Y2, 0.5 + r))
        }
        var low: Float80 = 0, high: Float80 = 1
        while true {
            let middle = (low + high) / 2
            if middle <= low || middle >= high { break }
            if bernstein(X1, X2, middle) < X { low = middle } else { high = middle }
        }
        return Double(bernstein(Y1, Y2, (low + high) / 2))
        #else
        preconditionFailure("ExactBezier needs Float80")
        #endif
    }
}
