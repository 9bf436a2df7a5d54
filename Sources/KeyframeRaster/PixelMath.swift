/// Integer helpers shared by the kernels: premultiplication and packed two-channel arithmetic.
///
/// Packed pixels are `UInt32` values read straight from memory: on the little-endian machines we run
/// on, red is the low byte and alpha the high byte. The `0x00FF00FF` mask splits a pixel into two
/// lanes (red+blue, green+alpha) so that one multiply scales two channels at once.
enum PixelMath {
    static let lowLanes: UInt32 = 0x00FF_00FF

    /// `c × a / 255`, rounded to nearest.
    @inline(__always)
    static func premultiply(_ c: UInt8, _ a: UInt8) -> UInt8 {
        let t = UInt32(c) * UInt32(a) + 128
        return UInt8((t + (t >> 8)) >> 8)
    }

    /// `c × 255 / a`, rounded to nearest and clamped; zero when `a` is zero.
    @inline(__always)
    static func unpremultiply(_ c: UInt8, _ a: UInt8) -> UInt8 {
        if a == 0 { return 0 }
        if a == 255 { return c }
        let v = (UInt32(c) * 255 + UInt32(a) / 2) / UInt32(a)
        return UInt8(min(v, 255))
    }

    /// `x × y / 255`, rounded to nearest, for values 0–255.
    @inline(__always)
    static func mul255(_ x: UInt32, _ y: UInt32) -> UInt32 {
        let t = x &* y &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    /// `v / 255`, rounded to nearest, for any product of 0–255 values (up to 2²⁴).
    @inline(__always)
    static func div255(_ v: UInt32) -> UInt32 { (v &+ 127) / 255 }

    /// Maps an 8-bit alpha to a 0–256 weight so that 255 becomes exactly 256.
    @inline(__always)
    static func weight(_ alpha: UInt32) -> UInt32 { alpha &+ (alpha >> 7) }

    /// Half of one 8-bit step in each lane, for rounding after `>> 8`.
    static let laneRounding: UInt32 = 0x0080_0080

    /// Scales all four channels of a packed pixel by `k / 256`, `k` in 0...256, rounding to nearest.
    @inline(__always)
    static func scale(_ p: UInt32, _ k: UInt32) -> UInt32 {
        let rb = (((p & lowLanes) &* k &+ laneRounding) >> 8) & lowLanes
        let ga = (((p >> 8) & lowLanes) &* k &+ laneRounding) & ~lowLanes
        return rb | ga
    }

    /// Linear interpolation of two packed pixels, `f` in 0...256 (0 gives `p`, 256 gives `q`), rounded.
    @inline(__always)
    static func lerp(_ p: UInt32, _ q: UInt32, _ f: UInt32) -> UInt32 {
        let g = 256 &- f
        let rb = (((p & lowLanes) &* g &+ (q & lowLanes) &* f &+ laneRounding) >> 8) & lowLanes
        let ga = (((p >> 8) & lowLanes) &* g &+ ((q >> 8) & lowLanes) &* f &+ laneRounding) & ~lowLanes
        return rb | ga
    }

    /// Bilinear blend of four packed pixels with 8-bit fractions `fx`, `fy` in 0...255, rounded.
    ///
    /// The four weights are built to sum to exactly 256, so each lane needs a single shift and an
    /// opaque, uniform neighbourhood reproduces its colour exactly.
    @inline(__always)
    static func bilinear(_ p00: UInt32, _ p10: UInt32, _ p01: UInt32, _ p11: UInt32, _ fx: UInt32, _ fy: UInt32)
        -> UInt32
    {
        // Flat colour and empty space (most of a cartoon atlas): the blend of four equal texels is that texel.
        if p00 == p10 && p01 == p11 && p00 == p01 { return p00 }
        let w11 = (fx &* fy &+ 128) >> 8
        let w10 = fx &- w11
        let w01 = fy &- w11
        let w00 = 256 &- fx &- fy &+ w11
        let rb = ((p00 & lowLanes) &* w00 &+ (p10 & lowLanes) &* w10 &+ (p01 & lowLanes) &* w01
            &+ (p11 & lowLanes) &* w11 &+ laneRounding) >> 8
        let ga = ((p00 >> 8) & lowLanes) &* w00 &+ ((p10 >> 8) & lowLanes) &* w10 &+ ((p01 >> 8) & lowLanes) &* w01
            &+ ((p11 >> 8) & lowLanes) &* w11 &+ laneRounding
        return (rb & lowLanes) | (ga & ~lowLanes)
    }

    /// Alpha of a packed pixel.
    @inline(__always)
    static func alpha(_ p: UInt32) -> UInt32 { p >> 24 }
}
