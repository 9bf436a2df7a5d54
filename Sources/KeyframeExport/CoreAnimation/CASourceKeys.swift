import KeyframeEngine
import KeyframeModel

/// A track's own keyframes as the keys of one `CAKeyframeAnimation`, with each segment's easing written as the
/// `CAMediaTimingFunction` that draws the same curve (docs/core-animation.md §5.1).
///
/// Exact easings: ``Easing/linear``; ``Easing/hold`` (the value stays to the next key, then a second key at the same
/// key time jumps); ``Easing/cubicBezier(x1:y1:x2:y2:)`` as it is; Flash's and Flump's quadratics, which are
/// quadratics in time and so one cubic timing function by degree elevation (``quadraticControls(strength:)``); a
/// ``Easing/bezierPath(points:sampledSteps:)`` that is not sampled, one key per path segment. A range that cuts a
/// segment keeps the piece of its curve (de Casteljau subdivision, rescaled to the unit square). Everything else —
/// DragonBones' half-cosine in-out, curves the source runtime samples, a cut piece whose value does not change
/// between its ends — has no exact timing function: ``make(_:from:to:value:)`` returns `nil` and the caller samples.
struct CASourceKeys: Equatable {
    /// The values at the keys.
    var values: [[Double]]
    /// The keys' local frames, never decreasing (two equal frames: a hold's jump).
    var frames: [Double]
    /// One timing function's control points `[x1, y1, x2, y2]` per segment.
    var functions: [[Double]]

    static let linear: [Double] = [0, 0, 1, 1]

    /// The keys of `track` over the local frames `a … b` (a < b), or `nil` when one segment in that range has no
    /// exact timing function.
    static func make<V: Interpolatable & Sendable & Hashable>(_ track: Track<V>, from a: Double, to b: Double,
                                                              value: (V) -> [Double]) -> CASourceKeys? {
        let keyframes = track.keyframes
        guard b > a, !keyframes.isEmpty else { return nil }
        func at(_ frame: Double) -> [Double] { value(track.value(at: Frames(frame))!) }
        var keys = CASourceKeys(values: [at(a)], frames: [a], functions: [])
        func append(_ frame: Double, _ v: [Double], _ function: [Double] = linear) {
            keys.frames.append(frame)
            keys.values.append(v)
            keys.functions.append(function)
        }
        var cursor = a
        // Before the first keyframe the first value holds.
        if keyframes[0].frame.value > cursor {
            cursor = min(keyframes[0].frame.value, b)
            append(cursor, at(cursor))
        }
        for i in keyframes.indices.dropLast() where cursor < b {
            let f0 = keyframes[i].frame.value, f1 = keyframes[i + 1].frame.value
            guard f1 > cursor, f0 < b else { continue }
            let s = max(f0, cursor), e = min(f1, b)
            let v0 = value(keyframes[i].value), v1 = value(keyframes[i + 1].value)
            defer { cursor = e }
            if v0 == v1 {
                append(e, at(e))
                continue
            }
            let easing = keyframes[i].easing
            if easing == .hold {
                append(e, v0)
                if e == f1 { append(f1, v1) }
                continue
            }
            if easing == .linear || easing == .quadraticInOut(strength: 0) {
                append(e, at(e))
                continue
            }
            let span = f1 - f0
            let ps = (s - f0) / span, pe = (e - f0) / span
            // The easing as pieces (x range in segment time, unit-square curve).
            guard let pieces = Self.pieces(easing) else { return nil }
            for piece in pieces {
                let lo = max(piece.x0, ps), hi = min(piece.x1, pe)
                guard hi > lo else { continue }
                let u0 = (lo - piece.x0) / (piece.x1 - piece.x0), u1 = (hi - piece.x0) / (piece.x1 - piece.x0)
                let frame = hi >= pe ? e : f0 + hi * span
                if piece.y0 == piece.y1 {
                    // A flat piece: the value stays whatever the timing.
                    append(frame, at(frame))
                    continue
                }
                guard let controls = Self.cut(piece.controls, from: u0, to: u1) else { return nil }
                append(frame, at(frame), controls)
            }
        }
        if cursor < b { append(b, at(b)) }
        return keys
    }

    /// One piece of an easing curve: over segment time `x0 … x1` progress goes from `y0` to `y1` along the unit
    /// curve `controls`.
    struct Piece {
        var x0: Double, x1: Double, y0: Double, y1: Double
        var controls: [Double]
    }

    /// The easing as pieces with exact timing functions, or `nil`.
    static func pieces(_ easing: Easing) -> [Piece]? {
        switch easing {
        case .hold: return nil
        case .linear: return [Piece(x0: 0, x1: 1, y0: 0, y1: 1, controls: linear)]
        case .cubicBezier(let x1, let y1, let x2, let y2):
            guard (0...1).contains(x1), (0...1).contains(x2) else { return nil }
            return [Piece(x0: 0, x1: 1, y0: 0, y1: 1, controls: [x1, y1, x2, y2])]
        case .flashQuadratic(let strength):
            return [Piece(x0: 0, x1: 1, y0: 0, y1: 1, controls: quadraticControls(strength: strength))]
        case .flumpQuadratic(let ease):
            return [Piece(x0: 0, x1: 1, y0: 0, y1: 1, controls: quadraticControls(strength: -ease))]
        case .quadraticInOut(let strength):
            return strength == 0 ? [Piece(x0: 0, x1: 1, y0: 0, y1: 1, controls: linear)] : nil
        case .bezierPath(let points, let steps):
            guard steps == nil, points.count >= 4, (points.count - 1) % 3 == 0 else { return nil }
            var pieces: [Piece] = []
            for j in 0..<((points.count - 1) / 3) {
                let p0 = points[3 * j], c1 = points[3 * j + 1], c2 = points[3 * j + 2], p1 = points[3 * j + 3]
                let w = p1.x - p0.x, h = p1.y - p0.y
                guard w >= 0 else { return nil }
                if w == 0 { continue }
                // A piece with equal ends is flat only when its control points are too.
                if h == 0 && (c1.y != p0.y || c2.y != p0.y) { return nil }
                let controls = h == 0
                    ? linear
                    : [(c1.x - p0.x) / w, (c1.y - p0.y) / h, (c2.x - p0.x) / w, (c2.y - p0.y) / h]
                guard (0...1).contains(controls[0]), (0...1).contains(controls[2]) else { return nil }
                pieces.append(Piece(x0: p0.x, x1: p1.x, y0: p0.y, y1: p1.y, controls: controls))
            }
            // The pieces must cover the segment's time from 0 to 1, in order.
            guard let first = pieces.first, let last = pieces.last, first.x0 == 0, last.x1 == 1, first.y0 == 0,
                last.y1 == 1, zip(pieces, pieces.dropFirst()).allSatisfy({ $0.x1 == $1.x0 && $0.y1 == $1.y0 })
            else { return nil }
            return pieces
        }
    }

    /// Flash's classic-tween quadratic `p + s·p·(1−p)` as a cubic timing function.
    ///
    /// As a quadratic Bézier in time with x(u) = u the middle control point is (½, (1+s)/2); raised to degree
    /// three the control points are (⅓, (1+s)/3) and (⅔, (2+s)/3), and x(u) = u still, so the timing function's
    /// solve for x gives u = p and y(u) is the quadratic itself.
    static func quadraticControls(strength s: Double) -> [Double] {
        [1.0 / 3, (1 + s) / 3, 2.0 / 3, (2 + s) / 3]
    }

    /// The piece of the unit timing curve `controls` between times `u0` and `u1` (0 ≤ u0 < u1 ≤ 1), rescaled to
    /// the unit square; `nil` when the progress is the same at both ends (no timing function can say it).
    static func cut(_ controls: [Double], from u0: Double, to u1: Double) -> [Double]? {
        if u0 == 0 && u1 == 1 { return controls }
        let xs = [0, controls[0], controls[2], 1.0], ys = [0, controls[1], controls[3], 1.0]
        let s0 = parameter(xs, at: u0), s1 = parameter(xs, at: u1)
        // Split at s1 and keep the left part, then split that at s0/s1 and keep the right part.
        let (lx, ly) = (left(xs, s1), left(ys, s1))
        let t = s1 > 0 ? s0 / s1 : 0
        let (qx, qy) = (right(lx, t), right(ly, t))
        let w = qx[3] - qx[0], h = qy[3] - qy[0]
        guard w > 1e-12, abs(h) > 1e-9 else { return nil }
        let result = [(qx[1] - qx[0]) / w, (qy[1] - qy[0]) / h, (qx[2] - qx[0]) / w, (qy[2] - qy[0]) / h]
        guard result.allSatisfy(\.isFinite), (-1e-12...(1 + 1e-12)).contains(result[0]),
            (-1e-12...(1 + 1e-12)).contains(result[2])
        else { return nil }
        return [min(max(result[0], 0), 1), result[1], min(max(result[2], 0), 1), result[3]]
    }

    /// The curve parameter where x reaches `x` (bisection to machine precision; x is monotonic).
    private static func parameter(_ xs: [Double], at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        var low = 0.0, high = 1.0
        for _ in 0..<80 {
            let middle = (low + high) / 2
            if bernstein(xs, middle) < x { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }

    private static func bernstein(_ p: [Double], _ t: Double) -> Double {
        let u = 1 - t
        return u * u * u * p[0] + 3 * u * u * t * p[1] + 3 * u * t * t * p[2] + t * t * t * p[3]
    }

    /// The control points of the part of a cubic from 0 to `t` (de Casteljau).
    private static func left(_ p: [Double], _ t: Double) -> [Double] {
        let a = p[0] + (p[1] - p[0]) * t, b = p[1] + (p[2] - p[1]) * t, c = p[2] + (p[3] - p[2]) * t
        let d = a + (b - a) * t, e = b + (c - b) * t
        return [p[0], a, d, d + (e - d) * t]
    }

    /// The control points of the part of a cubic from `t` to 1 (de Casteljau).
    private static func right(_ p: [Double], _ t: Double) -> [Double] {
        let a = p[0] + (p[1] - p[0]) * t, b = p[1] + (p[2] - p[1]) * t, c = p[2] + (p[3] - p[2]) * t
        let d = a + (b - a) * t, e = b + (c - b) * t
        return [d + (e - d) * t, e, c, p[3]]
    }
}
