#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

extension Easing {
    /// The eased progress for time fraction `p` in 0…1 for every easing whose curve the model defines by itself;
    /// ``Easing/hold`` gives 0 (the value stays). `nil` for ``Easing/cubicBezier``, which is solved by the engine's
    /// Chromium-exact solver (`EasingEvaluator`).
    ///
    /// Importers that must evaluate tracks themselves (DragonBones timelines baked per frame) and the engine share
    /// this one definition.
    public func closedFormProgress(at p: Double) -> Double? {
        switch self {
        case .hold: return 0
        case .linear: return p
        case .cubicBezier: return nil
        case .bezierPath(let points, let steps):
            guard let steps, steps > 0 else { return Easing.pathProgress(points, at: p) }
            // The source runtime samples the curve at steps+1 evenly spaced times and interpolates linearly.
            let position = min(max(p, 0), 1) * Double(steps)
            let lower = min(Int(position), steps - 1)
            let a = Easing.sampledPathProgress(points, at: Double(lower) / Double(steps))
            let b = Easing.sampledPathProgress(points, at: Double(lower + 1) / Double(steps))
            return a + (b - a) * (position - Double(lower))
        case .flashQuadratic(let strength): return p + strength * p * (1 - p)
        case .quadraticInOut(let strength):
            // DragonBones' "QuadInOut" is the half-cosine curve.
            let inOut = 0.5 * (1 - cos(p * .pi))
            return p + strength * (inOut - p)
        case .flumpQuadratic(let ease): return p - ease * p * (1 - p)
        }
    }

    /// One sample of a sampled path at the precision of the runtime that samples it (DragonBones): the segment
    /// spanning `x` is bisected on its parameter until the bracket is at most 10⁻⁴ wide, y is taken at the last
    /// midpoint and rounded to four decimals. The ends of the path are exact.
    public static func sampledPathProgress(_ points: [Vector2], at x: Double) -> Double {
        guard points.count >= 4 else { return x }
        if x <= points[0].x { return points[0].y }
        if x >= points[points.count - 1].x { return points[points.count - 1].y }
        let (p0, c1, c2, p1) = segment(of: points, spanning: x)
        var low = 0.0, high = 1.0, y = 0.0
        while high - low > 0.0001 {
            let middle = (high + low) * 0.5
            y = cubic(p0.y, c1.y, c2.y, p1.y, middle)
            if x - cubic(p0.x, c1.x, c2.x, p1.x, middle) > 0 { low = middle } else { high = middle }
        }
        return (y * 10000).rounded(.toNearestOrAwayFromZero) / 10000
    }

    /// A chain of cubic segments `P0 C1 C2 P1 C1 C2 P2 …`: finds the segment spanning `x` and solves it for y.
    public static func pathProgress(_ points: [Vector2], at x: Double) -> Double {
        guard points.count >= 4 else { return x }
        let (p0, c1, c2, p1) = segment(of: points, spanning: x)
        if x <= p0.x { return p0.y }
        if x >= p1.x { return p1.y }
        // x(t) is monotonic for a valid ease segment; bisection converges whatever the control points.
        var low = 0.0, high = 1.0
        for _ in 0..<60 {
            let middle = (low + high) / 2
            if cubic(p0.x, c1.x, c2.x, p1.x, middle) < x { low = middle } else { high = middle }
        }
        return cubic(p0.y, c1.y, c2.y, p1.y, (low + high) / 2)
    }

    /// The cubic segment of the chain `P0 C1 C2 P1 C1 C2 P2 …` whose x range holds `x` (the first or last one
    /// outside the chain).
    private static func segment(of points: [Vector2], spanning x: Double) -> (Vector2, Vector2, Vector2, Vector2) {
        let segments = (points.count - 1) / 3
        var index = 0
        while index < segments - 1 && x > points[3 * index + 3].x { index += 1 }
        return (points[3 * index], points[3 * index + 1], points[3 * index + 2], points[3 * index + 3])
    }

    /// One coordinate of a cubic Bézier in Bernstein form at parameter `t`.
    private static func cubic(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ t: Double) -> Double {
        let u = 1 - t
        return u * u * u * a + 3 * u * u * t * b + 3 * u * t * t * c + t * t * t * d
    }
}

extension Easing {
    /// Whether the easing is the identity, progress = time fraction, whatever its form: ``linear``, a Bézier or a
    /// Bézier path whose every point lies on the diagonal (DragonBones writes a linear tween as `curve: [0, 0, 1, 1]`),
    /// or a quadratic of strength 0. A sampled path's own rounding (to 10⁻⁴, ``sampledPathProgress(_:at:)``) is not
    /// counted: the curve it samples is the identity. What a viewer labels "linear" rather than "eased".
    public var isLinear: Bool {
        switch self {
        case .linear: return true
        case .hold: return false
        case .cubicBezier(let x1, let y1, let x2, let y2): return x1 == y1 && x2 == y2
        case .bezierPath(let points, _): return points.allSatisfy { $0.x == $0.y }
        case .flashQuadratic(let strength): return strength == 0
        case .quadraticInOut(let strength): return strength == 0
        case .flumpQuadratic(let ease): return ease == 0
        }
    }
}
