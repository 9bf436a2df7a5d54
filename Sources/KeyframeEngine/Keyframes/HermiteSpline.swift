/// A Kochanek–Bartels spline through keyframe points as cubic Hermite segments (internal).
///
/// Tangents follow the KB form with per-key tension t, continuity c and bias b; the outgoing
/// tangent of key i is scaled by `2Δi / (Δi−1 + Δi)` and the incoming one by
/// `2Δi−1 / (Δi−1 + Δi)` for non-uniform key times. Phantom end points repeat the first and
/// last keys, so the end tangents are half the neighbouring chord.
struct HermiteSpline: ArcLengthCurve {
    let points: [[Double]]
    /// Outgoing tangent at each key (start of segment i).
    let outgoing: [[Double]]
    /// Incoming tangent at each key (end of segment i − 1).
    let incoming: [[Double]]

    init(points: [[Double]], keyTimes: [Double], tension: [Double], continuity: [Double], bias: [Double]) {
        self.points = points
        let n = points.count
        func at(_ array: [Double], _ i: Int) -> Double { i < array.count ? array[i] : 0 }
        func interval(_ i: Int) -> Double {   // Δi = kt[i+1] − kt[i], repeated past the ends
            let j = min(max(i, 0), n - 2)
            return keyTimes[j + 1] - keyTimes[j]
        }
        var outgoing: [[Double]] = [], incoming: [[Double]] = []
        for i in 0..<n {
            let previous = points[max(i - 1, 0)], current = points[i], next = points[min(i + 1, n - 1)]
            let t = at(tension, i), c = at(continuity, i), b = at(bias, i)
            let before = zip(current, previous).map { $0 - $1 }
            let after = zip(next, current).map { $0 - $1 }
            let inA = (1 - t) * (1 + b) * (1 - c) / 2, inB = (1 - t) * (1 - b) * (1 + c) / 2
            let outA = (1 - t) * (1 + b) * (1 + c) / 2, outB = (1 - t) * (1 - b) * (1 - c) / 2
            let dIn = interval(i - 1), dOut = interval(i)
            let sum = dIn + dOut
            let outScale = sum > 0 ? 2 * dOut / sum : 1
            let inScale = sum > 0 ? 2 * dIn / sum : 1
            incoming.append(zip(before, after).map { (inA * $0 + inB * $1) * inScale })
            outgoing.append(zip(before, after).map { (outA * $0 + outB * $1) * outScale })
        }
        self.outgoing = outgoing
        self.incoming = incoming
    }

    /// The point at parameter `u` of segment `i` (between keys i and i + 1).
    func point(segment i: Int, at u: Double) -> [Double] {
        let u2 = u * u, u3 = u2 * u
        let h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2
        return (0..<points[i].count).map { k in
            h00 * points[i][k] + h10 * outgoing[i][k] + h01 * points[i + 1][k] + h11 * incoming[i + 1][k]
        }
    }

    /// The speed |dP/du| at parameter `u` of segment `i`.
    func speed(segment i: Int, at u: Double) -> Double {
        let u2 = u * u
        let d00 = 6 * u2 - 6 * u, d10 = 3 * u2 - 4 * u + 1, d01 = -6 * u2 + 6 * u, d11 = 3 * u2 - 2 * u
        var sum = 0.0
        for k in 0..<points[i].count {
            let v = d00 * points[i][k] + d10 * outgoing[i][k] + d01 * points[i + 1][k] + d11 * incoming[i + 1][k]
            sum += v * v
        }
        return sum.squareRoot()
    }

    var segmentCount: Int { points.count - 1 }
}
