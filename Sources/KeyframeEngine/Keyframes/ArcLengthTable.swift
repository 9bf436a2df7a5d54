/// A curve made of segments with a parameter in `0...1` each, whose arc length can be measured
/// (internal: ``HermiteSpline`` and ``KeyframePath``).
protocol ArcLengthCurve: Hashable, Sendable {
    var segmentCount: Int { get }
    /// `|dP/du|` in segment `segment` at `u`.
    func speed(segment: Int, at u: Double) -> Double
    /// The length of segment `segment` from `u = 0` to `u`.
    func length(segment: Int, upTo u: Double) -> Double
}

extension ArcLengthCurve {
    func length(segment i: Int, upTo u: Double) -> Double {
        ArcLengthTable<Self>.integrate(from: 0, to: u) { speed(segment: i, at: $0) }
    }
}

/// Arc lengths of a curve's segments, for constant-speed (paced) travel (internal).
///
/// Lengths come from adaptive Simpson integration of the speed; a fraction of the total length
/// is mapped back to a segment parameter by Newton's method with a bisection fallback.
struct ArcLengthTable<Curve: ArcLengthCurve>: Hashable, Sendable {
    let curve: Curve
    /// Cumulative length at the start of each segment, plus the total at the end.
    let cumulative: [Double]

    init(curve: Curve) {
        self.curve = curve
        var cumulative = [0.0]
        for i in 0..<curve.segmentCount {
            cumulative.append(cumulative[i] + curve.length(segment: i, upTo: 1))
        }
        self.cumulative = cumulative
    }

    var total: Double { cumulative.last ?? 0 }

    /// `∫ speed` over `a...b` by adaptive Simpson to 1e-10.
    static func integrate(from a: Double, to b: Double, _ f: (Double) -> Double) -> Double {
        func simpson(_ a: Double, _ b: Double, _ fa: Double, _ fm: Double, _ fb: Double) -> Double {
            (b - a) / 6 * (fa + 4 * fm + fb)
        }
        func adaptive(_ a: Double, _ b: Double, _ fa: Double, _ fm: Double, _ fb: Double, _ whole: Double,
                      _ tolerance: Double, _ depth: Int) -> Double {
            let m = (a + b) / 2
            let flm = f((a + m) / 2), frm = f((m + b) / 2)
            let left = simpson(a, m, fa, flm, fm), right = simpson(m, b, fm, frm, fb)
            // A non-finite speed (NaN or infinite coordinates) would never meet the tolerance and
            // recurse to the full depth on every branch: stop at once and let the NaN show.
            if depth <= 0 || !(left + right).isFinite || abs(left + right - whole) <= 15 * tolerance {
                return left + right + (left + right - whole) / 15
            }
            return adaptive(a, m, fa, flm, fm, left, tolerance / 2, depth - 1)
                + adaptive(m, b, fm, frm, fb, right, tolerance / 2, depth - 1)
        }
        guard b > a else { return 0 }
        let fa = f(a), fm = f((a + b) / 2), fb = f(b)
        return adaptive(a, b, fa, fm, fb, simpson(a, b, fa, fm, fb), 1e-10, 30)
    }

    /// The segment and parameter at `fraction` (0...1) of the total arc length.
    func location(atFraction fraction: Double) -> (Int, Double) {
        let count = curve.segmentCount
        guard total > 0 else { return (0, min(1, max(0, fraction))) }
        let target = min(1, max(0, fraction)) * total
        var i = 0
        while i < count - 1 && cumulative[i + 1] < target { i += 1 }
        let local = target - cumulative[i]
        let segmentLength = cumulative[i + 1] - cumulative[i]
        guard segmentLength > 0 else { return (i, 0) }
        var lo = 0.0, hi = 1.0, u = local / segmentLength
        for _ in 0..<50 {
            let error = curve.length(segment: i, upTo: u) - local
            if abs(error) < 1e-12 * max(1, total) { break }
            if error > 0 { hi = u } else { lo = u }
            let speed = curve.speed(segment: i, at: u)
            let next = speed > 0 ? u - error / speed : (lo + hi) / 2
            u = next > lo && next < hi ? next : (lo + hi) / 2
        }
        return (i, u)
    }
}
