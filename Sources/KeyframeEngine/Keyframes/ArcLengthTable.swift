/// Arc lengths of a ``HermiteSpline``'s segments, for constant-speed (paced) travel (internal).
///
/// Lengths come from adaptive Simpson integration of the speed; a fraction of the total length
/// is mapped back to a segment parameter by Newton's method with a bisection fallback.
struct ArcLengthTable: Hashable, Sendable {
    let spline: HermiteSpline
    /// Cumulative length at the start of each segment, plus the total at the end.
    let cumulative: [Double]

    init(spline: HermiteSpline) {
        self.spline = spline
        var cumulative = [0.0]
        for i in 0..<spline.segmentCount {
            cumulative.append(cumulative[i] + Self.length(spline, segment: i, upTo: 1))
        }
        self.cumulative = cumulative
    }

    var total: Double { cumulative.last ?? 0 }

    static func length(_ spline: HermiteSpline, segment i: Int, upTo u: Double) -> Double {
        func f(_ x: Double) -> Double { spline.speed(segment: i, at: x) }
        func simpson(_ a: Double, _ b: Double, _ fa: Double, _ fm: Double, _ fb: Double) -> Double {
            (b - a) / 6 * (fa + 4 * fm + fb)
        }
        func adaptive(_ a: Double, _ b: Double, _ fa: Double, _ fm: Double, _ fb: Double, _ whole: Double,
                      _ tolerance: Double, _ depth: Int) -> Double {
            let m = (a + b) / 2
            let flm = f((a + m) / 2), frm = f((m + b) / 2)
            let left = simpson(a, m, fa, flm, fm), right = simpson(m, b, fm, frm, fb)
            if depth <= 0 || abs(left + right - whole) <= 15 * tolerance {
                return left + right + (left + right - whole) / 15
            }
            return adaptive(a, m, fa, flm, fm, left, tolerance / 2, depth - 1)
                + adaptive(m, b, fm, frm, fb, right, tolerance / 2, depth - 1)
        }
        guard u > 0 else { return 0 }
        let fa = f(0), fm = f(u / 2), fb = f(u)
        return adaptive(0, u, fa, fm, fb, simpson(0, u, fa, fm, fb), 1e-10, 30)
    }

    /// The segment and parameter at `fraction` (0...1) of the total arc length.
    func location(atFraction fraction: Double) -> (Int, Double) {
        let count = spline.segmentCount
        guard total > 0 else { return (0, min(1, max(0, fraction))) }
        let target = min(1, max(0, fraction)) * total
        var i = 0
        while i < count - 1 && cumulative[i + 1] < target { i += 1 }
        let local = target - cumulative[i]
        let segmentLength = cumulative[i + 1] - cumulative[i]
        guard segmentLength > 0 else { return (i, 0) }
        var lo = 0.0, hi = 1.0, u = local / segmentLength
        for _ in 0..<50 {
            let error = Self.length(spline, segment: i, upTo: u) - local
            if abs(error) < 1e-12 * max(1, total) { break }
            if error > 0 { hi = u } else { lo = u }
            let speed = spline.speed(segment: i, at: u)
            let next = speed > 0 ? u - error / speed : (lo + hi) / 2
            u = next > lo && next < hi ? next : (lo + hi) / 2
        }
        return (i, u)
    }
}
