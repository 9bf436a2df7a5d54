#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 2-D point or vector in document pixels (y points down).
public struct Vector2: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    public static let zero = Vector2(x: 0, y: 0)
    public static let one = Vector2(x: 1, y: 1)
}

/// A width and height in pixels.
public struct Size: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// An axis-aligned rectangle: top-left corner and size.
public struct Rect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// A 2-D affine transform, `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty` (Flash's matrix convention).
public struct Matrix2D: Sendable, Hashable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    public static let identity = Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// The transform that applies `other` first and then `self` (`self × other` in column-vector notation).
    public func concatenating(_ other: Matrix2D) -> Matrix2D {
        Matrix2D(
            a: a * other.a + c * other.b, b: b * other.a + d * other.b,
            c: a * other.c + c * other.d, d: b * other.c + d * other.d,
            tx: a * other.tx + c * other.ty + tx, ty: b * other.tx + d * other.ty + ty)
    }

    /// Maps a point.
    public func apply(_ point: Vector2) -> Vector2 {
        Vector2(x: a * point.x + c * point.y + tx, y: b * point.x + d * point.y + ty)
    }

    /// The determinant of the linear part.
    public var determinant: Double { a * d - b * c }

    /// The inverse, or `nil` when the transform is singular.
    public var inverted: Matrix2D? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return Matrix2D(a: ia, b: ib, c: ic, d: id, tx: -(ia * tx + ic * ty), ty: -(ib * tx + id * ty))
    }
}

/// A transform split into the animatable components every source format uses.
///
/// The matrix is `T(position) · R(rotation) · K(skew) · S(scale) · T(−pivot)`, i.e. with `r = rotation` and
/// `k = skew` (both in degrees): `a = cos r·sx`, `b = sin r·sx`, `c = −sin(r+k)·sy`, `d = cos(r+k)·sy`.
/// In Flash's terms `skewY = rotation` and `skewX = rotation + skew`. Every 2×2 matrix has such a form, so
/// ``init(matrix:pivot:)`` followed by ``matrix`` reproduces any affine transform.
public struct TransformComponents: Sendable, Hashable {
    public var position: Vector2
    public var scale: Vector2
    public var rotation: Degrees
    public var skew: Degrees
    public var pivot: Vector2

    public init(position: Vector2 = .zero, scale: Vector2 = .one, rotation: Degrees = Degrees(0),
                skew: Degrees = Degrees(0), pivot: Vector2 = .zero) {
        self.position = position
        self.scale = scale
        self.rotation = rotation
        self.skew = skew
        self.pivot = pivot
    }

    /// The identity: no translation, unit scale, no rotation or skew.
    public static let identity = TransformComponents()

    /// Decomposes `matrix` around a pivot given in the transform's local space.
    ///
    /// `position` becomes the image of the pivot, so interpolating components rotates and scales about the pivot,
    /// which is how Flash tweens classic motion.
    public init(matrix m: Matrix2D, pivot: Vector2 = .zero) {
        let sx = (m.a * m.a + m.b * m.b).squareRoot()
        let sy = (m.c * m.c + m.d * m.d).squareRoot()
        let skewY = sx == 0 ? 0 : atan2(m.b, m.a)
        let skewX = sy == 0 ? skewY : atan2(-m.c, m.d)
        var skew = skewX - skewY
        if skew > .pi { skew -= 2 * .pi } else if skew < -.pi { skew += 2 * .pi }
        let origin = m.apply(pivot)
        self.init(
            position: Vector2(x: origin.x, y: origin.y), scale: Vector2(x: sx, y: sy),
            rotation: Degrees(radians: skewY), skew: Degrees(radians: skew), pivot: pivot)
    }

    /// The affine transform these components describe.
    public var matrix: Matrix2D {
        let r = rotation.radians
        let rk = r + skew.radians
        // cos(±0) = 1 and sin(±0) = ±0 exactly (C Annex F), so nodes without rotation or skew — most of them, and
        // sampled at every frame — skip the calls with the same result.
        let (cosR, sinR) = r == 0 ? (1.0, r) : (cos(r), sin(r))
        let (cosRK, sinRK) = rk == 0 ? (1.0, rk) : (cos(rk), sin(rk))
        let a = cosR * scale.x, b = sinR * scale.x
        let c = -sinRK * scale.y, d = cosRK * scale.y
        return Matrix2D(
            a: a, b: b, c: c, d: d,
            tx: position.x - (a * pivot.x + c * pivot.y), ty: position.y - (b * pivot.x + d * pivot.y))
    }
}
