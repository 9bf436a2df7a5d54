/// A ``PixelColorTransform`` prepared for per-pixel use on packed premultiplied pixels.
struct ColorTransformKernel {
    let multipliers: SIMD4<Float>
    let offsets: SIMD4<Float>

    init(_ t: PixelColorTransform) {
        multipliers = SIMD4(Float(t.redMultiplier), Float(t.greenMultiplier), Float(t.blueMultiplier),
                            Float(t.alphaMultiplier))
        offsets = SIMD4(Float(t.redOffset), Float(t.greenOffset), Float(t.blueOffset), Float(t.alphaOffset))
    }

    /// Unpremultiplies, transforms, clamps to 0–255, rounds, and premultiplies again.
    @inline(__always)
    func apply(_ p: UInt32) -> UInt32 {
        let a = Float(p >> 24)
        var straight = SIMD4<Float>(
            Float(p & 0xFF), Float((p >> 8) & 0xFF), Float((p >> 16) & 0xFF), 255)
        straight = a > 0 ? straight * (255 / a) : SIMD4(0, 0, 0, 255)
        straight.w = a
        var out = straight * multipliers + offsets
        out.replace(with: SIMD4(repeating: 0), where: .!(out .> 0))  // also clears NaN
        // Clamping before rounding gives what rounding first would: anything at or above 255 rounds to
        // at least 255.
        out.replace(with: SIMD4(repeating: 255), where: out .> 255)
        out = ColorTransformKernel.roundedHalfAway(out)
        let na = out.w
        let premultiplied = ColorTransformKernel.roundedHalfAway(out * (na / 255))
        let r = UInt32(premultiplied.x)
        let g = UInt32(premultiplied.y)
        let b = UInt32(premultiplied.z)
        return r | g << 8 | b << 16 | UInt32(na) << 24
    }

    /// `.rounded(.toNearestOrAwayFromZero)` for lanes in 0...2²², without a libm call per lane.
    ///
    /// Adding and subtracting 2²³ rounds to nearest with ties to even; `v − t` is then exact, and a tie
    /// that went down is moved up, which is rounding half away from zero for non-negative values.
    @inline(__always)
    static func roundedHalfAway(_ v: SIMD4<Float>) -> SIMD4<Float> {
        let magic = SIMD4<Float>(repeating: 8_388_608)
        var t = (v + magic) - magic
        t.replace(with: t + 1, where: v - t .== SIMD4(repeating: 0.5))
        return t
    }
}
