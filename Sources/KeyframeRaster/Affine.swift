/// A 2-D affine transform in Flash's matrix layout.
///
/// A point (x, y) maps to
///
///     x' = a·x + c·y + tx
///     y' = b·x + d·y + ty
///
/// which is Flash's `Matrix(a, b, c, d, tx, ty)` and Core Graphics' `CGAffineTransform`.
/// Device space has y pointing down and pixel (i, j) covering the square [i, i+1) × [j, j+1).
///
/// ```swift
/// let m = Affine.translation(10, 0).concatenating(.scale(2, 2))  // scale, then move
/// m.apply(SIMD2(1, 1))  // (12, 2)
/// ```
public struct Affine: Sendable, Hashable, CustomStringConvertible {
    /// Horizontal scale component (x contribution to x').
    public var a: Double
    /// Vertical skew component (x contribution to y').
    public var b: Double
    /// Horizontal skew component (y contribution to x').
    public var c: Double
    /// Vertical scale component (y contribution to y').
    public var d: Double
    /// Horizontal translation.
    public var tx: Double
    /// Vertical translation.
    public var ty: Double

    /// Creates a transform from its six components.
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The transform that changes nothing.
    public static let identity = Affine(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation by (`x`, `y`).
    public static func translation(_ x: Double, _ y: Double) -> Affine {
        Affine(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// A scale about the origin.
    public static func scale(_ sx: Double, _ sy: Double) -> Affine {
        Affine(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A rotation about the origin by `radians`; positive turns +x towards +y (clockwise on screen).
    public static func rotation(_ radians: Double) -> Affine {
        let cosine = radians.cosineValue
        let sine = radians.sineValue
        return Affine(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// The transform that applies `inner` first and then `self` (`self × inner` with column vectors).
    ///
    /// This is the same convention as the model's `Matrix2D`: `parent.concatenating(child)` places a
    /// child in its parent's space.
    public func concatenating(_ inner: Affine) -> Affine {
        Affine(
            a: a * inner.a + c * inner.b,
            b: b * inner.a + d * inner.b,
            c: a * inner.c + c * inner.d,
            d: b * inner.c + d * inner.d,
            tx: a * inner.tx + c * inner.ty + tx,
            ty: b * inner.tx + d * inner.ty + ty)
    }

    /// The determinant `a·d − b·c`; zero for a transform that flattens the plane.
    public var determinant: Double { a * d - b * c }

    /// The inverse transform, or `nil` when the determinant is zero or not finite, or the inverse
    /// overflows (a nearly singular transform).
    public func inverted() -> Affine? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let inv = 1 / det
        let inverse = Affine(
            a: d * inv, b: -b * inv, c: -c * inv, d: a * inv,
            tx: (c * ty - d * tx) * inv,
            ty: (b * tx - a * ty) * inv)
        return inverse.isFinite ? inverse : nil
    }

    /// Maps a point.
    public func apply(_ p: SIMD2<Double>) -> SIMD2<Double> {
        SIMD2(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
    }

    /// Maps a direction (ignores the translation).
    public func applyToVector(_ v: SIMD2<Double>) -> SIMD2<Double> {
        SIMD2(a * v.x + c * v.y, b * v.x + d * v.y)
    }

    /// Whether all six components are finite.
    public var isFinite: Bool {
        a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite
    }

    public var description: String { "Affine(a: \(a), b: \(b), c: \(c), d: \(d), tx: \(tx), ty: \(ty))" }
}
