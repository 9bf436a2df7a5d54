import Foundation
import KeyframeModel

/// A bone transform in DragonBones' decomposed form (radians): the intermediate "global" state that bone
/// inheritance and IK read and write, with the runtime's exact matrix conversions.
struct BoneTransform: Sendable, Equatable {
    var x = 0.0, y = 0.0, rotation = 0.0, skew = 0.0, scaleX = 1.0, scaleY = 1.0

    /// `a = cos r·sx, b = sin r·sx, c = −sin(r+k)·sy, d = cos(r+k)·sy` (the same rule as §4.4).
    var matrix: Matrix2D {
        var a = 1.0, b = 0.0
        if rotation != 0 { a = cos(rotation); b = sin(rotation) }
        var c = -b, d = a
        if skew != 0 { c = -sin(skew + rotation); d = cos(skew + rotation) }
        return Matrix2D(a: a * scaleX, b: b * scaleX, c: c * scaleY, d: d * scaleY, tx: x, ty: y)
    }

    /// Decomposes `m` the way the runtime does: angles from `atan` (not `atan2`), signs resolved against the
    /// previous scale so that a positive scale stays positive.
    mutating func setFromMatrix(_ m: Matrix2D) {
        let quarter = Double.pi / 4
        let backupScaleX = scaleX, backupScaleY = scaleY
        x = m.tx
        y = m.ty
        rotation = atan(m.b / m.a)
        var skewX = atan(-m.c / m.d)
        scaleX = (rotation > -quarter && rotation < quarter) ? m.a / cos(rotation) : m.b / sin(rotation)
        scaleY = (skewX > -quarter && skewX < quarter) ? m.d / cos(skewX) : -m.c / sin(skewX)
        if backupScaleX >= 0 && scaleX < 0 {
            scaleX = -scaleX
            rotation -= .pi
        }
        if backupScaleY >= 0 && scaleY < 0 {
            scaleY = -scaleY
            skewX -= .pi
        }
        skew = skewX - rotation
    }

    /// An angle wrapped into −π…π the runtime's way (`(v + π) mod 2π`, then shifted back).
    static func normalized(_ value: Double) -> Double {
        var v = (value + .pi).truncatingRemainder(dividingBy: 2 * .pi)
        v += v > 0 ? -.pi : .pi
        return v
    }
}
