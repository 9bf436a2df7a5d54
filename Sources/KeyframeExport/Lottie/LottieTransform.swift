import Foundation
import KeyframeModel

/// A 2D affine matrix written as Lottie transform values: one layer (rotation and non-uniform scale), or, for a
/// matrix with skew, a parent null (rotation φ, scale) and a rotated child (rotation θ) — `R(φ)·S·R(θ)`, exact
/// for any 2×2 matrix and played by every player (no `sk`/`sa`).
struct LottieTransform: Equatable {
    /// Where the layer's origin (anchor 0, 0) lands, in composition pixels.
    var position: Vector2
    /// Rotation in degrees, clockwise on screen (the parent null's when ``childRotation`` is set).
    var rotation: Double
    /// Scale factors (not percent).
    var scale: Vector2
    /// The child's own rotation for the `R·S·R` form; `nil` when one layer is enough.
    var childRotation: Double?
    /// Lottie's skew `sk` in degrees along the x axis (`sa` 0), the `full` profile's form of a skewed matrix.
    var skew: Double = 0

    /// The matrix these values describe (what a player composes), for checks.
    ///
    /// A Lottie layer's linear part is `R(r) · R(−sa) · X(−tan sk) · R(sa) · S` (lottie-web's `skewFromAxis(−sk,
    /// sa)` between scale and rotation; ThorVG the same), where `X(t)` moves x by t·y; with `sa` = 0 the skew is
    /// `X(−tan sk)`.
    var matrix: Matrix2D {
        let outer = LottieTransform.rotationMatrix(rotation)
            .concatenating(Matrix2D(a: 1, b: 0, c: -tan(skew * .pi / 180), d: 1, tx: 0, ty: 0))
            .concatenating(Matrix2D(a: scale.x, b: 0, c: 0, d: scale.y, tx: 0, ty: 0))
        let linear = childRotation.map { outer.concatenating(LottieTransform.rotationMatrix($0)) } ?? outer
        return Matrix2D(a: linear.a, b: linear.b, c: linear.c, d: linear.d, tx: position.x, ty: position.y)
    }

    static func rotationMatrix(_ degrees: Double) -> Matrix2D {
        let r = degrees * .pi / 180
        return Matrix2D(a: cos(r), b: sin(r), c: -sin(r), d: cos(r), tx: 0, ty: 0)
    }

    /// Whether `m`'s axes are not perpendicular (the matrix has skew), relative to its size.
    static func hasSkew(_ m: Matrix2D) -> Bool {
        let dot = m.a * m.c + m.b * m.d
        let norm = hypot(m.a, m.b) * hypot(m.c, m.d)
        return norm > 0 && abs(dot) > 1e-9 * norm
    }

    /// Rotation and scale for a matrix without skew, choosing among the equivalent forms (mirrored x with a
    /// half-turn, angle ± 360°) the one closest to `previous` so that interpolation between frames stays smooth.
    static func single(_ m: Matrix2D, previous: LottieTransform?) -> LottieTransform {
        let sx = hypot(m.a, m.b)
        let angle = sx > 0 ? atan2(m.b, m.a) * 180 / .pi : (previous?.rotation ?? 0)
        let rad = angle * .pi / 180
        // The y column projected onto the rotated y axis: the signed y scale (negative when mirrored).
        var sy = sx > 0 ? (-sin(rad) * m.c + cos(rad) * m.d) : hypot(m.c, m.d)
        if sx == 0, let previous, previous.scale.y < 0 { sy = -sy }
        let position = Vector2(x: m.tx, y: m.ty)
        let candidates = [
            LottieTransform(position: position, rotation: angle, scale: Vector2(x: sx, y: sy), childRotation: nil),
            // The same matrix with x mirrored and a half turn.
            LottieTransform(position: position, rotation: angle + 180, scale: Vector2(x: -sx, y: -sy), childRotation: nil),
        ]
        guard let previous else { return candidates[0] }
        var best = candidates[0]
        var bestCost = Double.infinity
        for var candidate in candidates {
            candidate.rotation = unwrap(candidate.rotation, near: previous.rotation)
            let cost = abs(candidate.rotation - previous.rotation)
                + 1000 * (abs(candidate.scale.x - previous.scale.x) + abs(candidate.scale.y - previous.scale.y))
            if cost < bestCost { best = candidate; bestCost = cost }
        }
        return best
    }

    /// `R(r) · X(−tan sk) · diag(sx, sy)` for any invertible matrix (Lottie's own skew, `sa` 0): r the x axis's
    /// angle, sx its length, sy the y axis's component across the x axis (negative when mirrored), and the skew
    /// what turns the y axis from the perpendicular (always within ±90°). Of the two equivalent forms (the other
    /// turned a half turn with both scales negated) the one closest to `previous` is chosen.
    static func sheared(_ m: Matrix2D, previous: LottieTransform?) -> LottieTransform {
        let sx = hypot(m.a, m.b)
        let angle = sx > 0 ? atan2(m.b, m.a) * 180 / .pi : (previous?.rotation ?? 0)
        let rad = angle * .pi / 180
        // The y axis in the rotated frame: along x (c′) and across it (d′).
        let along = cos(rad) * m.c + sin(rad) * m.d
        let across = -sin(rad) * m.c + cos(rad) * m.d
        let skew = across == 0 ? 0 : -atan(along / across) * 180 / .pi
        let position = Vector2(x: m.tx, y: m.ty)
        let candidates = [
            LottieTransform(position: position, rotation: angle, scale: Vector2(x: sx, y: across), childRotation: nil,
                            skew: skew),
            LottieTransform(position: position, rotation: angle + 180, scale: Vector2(x: -sx, y: -across),
                            childRotation: nil, skew: skew),
        ]
        guard let previous else { return candidates[0] }
        var best = candidates[0]
        var bestCost = Double.infinity
        for var candidate in candidates {
            candidate.rotation = unwrap(candidate.rotation, near: previous.rotation)
            let cost = abs(candidate.rotation - previous.rotation)
                + 1000 * (abs(candidate.scale.x - previous.scale.x) + abs(candidate.scale.y - previous.scale.y))
            if cost < bestCost { best = candidate; bestCost = cost }
        }
        return best
    }

    /// `R(φ)·diag(s₁, s₂)·R(θ)` for any matrix (singular value decomposition of its 2×2 part), angles unwrapped
    /// towards `previous`.
    static func split(_ m: Matrix2D, previous: LottieTransform?) -> LottieTransform {
        let e = (m.a + m.d) / 2, f = (m.a - m.d) / 2, g = (m.b + m.c) / 2, h = (m.b - m.c) / 2
        let q = hypot(e, h), r = hypot(f, g)
        let s1 = q + r, s2 = q - r
        let a1 = atan2(g, f), a2 = atan2(h, e)
        let theta = (a2 - a1) / 2 * 180 / .pi, phi = (a2 + a1) / 2 * 180 / .pi
        var result = LottieTransform(position: Vector2(x: m.tx, y: m.ty), rotation: phi,
                                     scale: Vector2(x: s1, y: s2), childRotation: theta)
        if let previous, let previousChild = previous.childRotation {
            // The same product with both rotations turned a half turn: R(φ+180)·S·R(θ+180).
            var best = result
            var bestCost = Double.infinity
            for turn in [0.0, 180.0] {
                var candidate = result
                candidate.rotation = unwrap(phi + turn, near: previous.rotation)
                candidate.childRotation = unwrap(theta + turn, near: previousChild)
                let cost = abs(candidate.rotation - previous.rotation) + abs(candidate.childRotation! - previousChild)
                if cost < bestCost { best = candidate; bestCost = cost }
            }
            result = best
        }
        return result
    }

    /// `angle` moved by whole turns to lie within half a turn of `reference`.
    static func unwrap(_ angle: Double, near reference: Double) -> Double {
        angle + 360 * ((reference - angle) / 360).rounded()
    }
}
