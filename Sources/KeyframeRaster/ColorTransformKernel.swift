/// A ``PixelColorTransform`` prepared for per-pixel use on packed premultiplied pixels.
///
/// Each output channel depends only on its own input channel and the pixel's alpha, so for the two
/// alphas that fill most of a sprite the results are tabulated from ``compute(_:)`` itself: a fully
/// transparent pixel always gives the same result, and an opaque one is looked up channel by channel
/// in a 256-entry table built the first time an opaque pixel comes (one kernel serves one draw, on one
/// thread). Other alphas are computed.
struct ColorTransformKernel {
    let multipliers: SIMD4<Float>
    let offsets: SIMD4<Float>
    /// ``compute(_:)`` of any pixel with alpha 0 (its colour is ignored then).
    private var transparent: UInt32
    private let opaque: OpaqueTable

    init(_ t: PixelColorTransform) {
        multipliers = SIMD4(Float(t.redMultiplier), Float(t.greenMultiplier), Float(t.blueMultiplier),
                            Float(t.alphaMultiplier))
        offsets = SIMD4(Float(t.redOffset), Float(t.greenOffset), Float(t.blueOffset), Float(t.alphaOffset))
        transparent = 0
        opaque = OpaqueTable()
        transparent = compute(0)
    }

    /// Unpremultiplies, transforms, clamps to 0–255, rounds, and premultiplies again (``compute(_:)``,
    /// from a table for alpha 0 and 255).
    @inline(__always)
    func apply(_ p: UInt32) -> UInt32 {
        let a = p >> 24
        if a == 0 { return transparent }
        if a == 255 { return opaque.lookup(p, self) }
        return compute(p)
    }

    /// Results for opaque pixels: entry `c` is ``compute(_:)`` of the opaque grey `(c, c, c)`, whose red,
    /// green and blue results are what `c` gives in each channel.
    final class OpaqueTable {
        private var entries: UnsafeMutablePointer<UInt32>? = nil

        deinit { entries?.deallocate() }

        @inline(__always)
        func lookup(_ p: UInt32, _ kernel: ColorTransformKernel) -> UInt32 {
            let table = entries ?? build(kernel)
            return (table[Int(p & 0xFF)] & 0xFF) | (table[Int((p >> 8) & 0xFF)] & 0xFF00)
                | (table[Int((p >> 16) & 0xFF)] & 0xFF_0000) | (table[0] & 0xFF00_0000)
        }

        @inline(never)
        private func build(_ kernel: ColorTransformKernel) -> UnsafeMutablePointer<UInt32> {
            let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 256)
            for c in UInt32(0)...255 { table[Int(c)] = kernel.compute(c | c << 8 | c << 16 | 0xFF00_0000) }
            entries = table
            return table
        }
    }

    /// The transform of one pixel, computed.
    @inline(__always)
    func compute(_ p: UInt32) -> UInt32 {
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
