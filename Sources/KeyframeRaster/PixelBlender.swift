/// Combines a source pixel (already scaled by coverage and opacity) with a destination pixel.
/// Both are packed premultiplied RGBA8.
protocol PixelBlender {
    static func blend(_ s: UInt32, _ d: UInt32) -> UInt32
}

/// `S + D·(1 − Sa)`.
enum NormalBlender: PixelBlender {
    @inline(__always)
    static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let sa = s >> 24
        if sa == 255 { return s }
        return s &+ PixelMath.scale(d, 256 &- PixelMath.weight(sa))
    }
}

/// `min(255, S + D)` per channel.
enum AddBlender: PixelBlender {
    @inline(__always)
    static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let m = PixelMath.lowLanes
        var rb = (s & m) &+ (d & m)
        var ga = ((s >> 8) & m) &+ ((d >> 8) & m)
        let rbOver = rb & 0x0100_0100
        let gaOver = ga & 0x0100_0100
        rb |= rbOver &- (rbOver >> 8)
        ga |= gaOver &- (gaOver >> 8)
        return (rb & m) | ((ga & m) << 8)
    }
}

/// `Sc·Dc + Sc·(1 − Da) + Dc·(1 − Sa)`; alpha `Sa + Da − Sa·Da`.
enum MultiplyBlender: PixelBlender {
    @inline(__always)
    static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let sa = s >> 24
        let da = d >> 24
        @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
            let sc = (s >> shift) & 0xFF
            let dc = (d >> shift) & 0xFF
            let v = PixelMath.mul255(sc, dc) &+ PixelMath.mul255(sc, 255 &- da) &+ PixelMath.mul255(dc, 255 &- sa)
            return min(v, 255) << shift
        }
        let a = sa &+ da &- PixelMath.mul255(sa, da)
        return channel(0) | channel(8) | channel(16) | (min(a, 255) << 24)
    }
}

/// `S + D − S·D` on every channel including alpha.
enum ScreenBlender: PixelBlender {
    @inline(__always)
    static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
        @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
            let sc = (s >> shift) & 0xFF
            let dc = (d >> shift) & 0xFF
            return min(sc &+ dc &- PixelMath.mul255(sc, dc), 255) << shift
        }
        return channel(0) | channel(8) | channel(16) | channel(24)
    }
}

/// The separable modes of the W3C compositing model (what Flash's `lighten`, `darken`, `difference`, `overlay`,
/// `hardlight` and `invert` are, as Ruffle draws them): on premultiplied values,
/// `Co = Sc·(1 − Da) + Dc·(1 − Sa) + Sa·Da·B(Sc/Sa, Dc/Da)` and `αo = Sa + Da − Sa·Da`, where `B` is the mode's
/// function of the unpremultiplied colours. Each mode gives `Sa·Da·B` directly in premultiplied terms
/// (`mixed(sc, dc, sa, da)`), so no division by an alpha is needed; the whole sum is rounded once.
protocol SeparableBlender: PixelBlender {
    /// `Sa·Da·B(Sc/Sa, Dc/Da)` from 0–255 values, in units of 1/255² (not yet divided by 255), at least 0.
    static func mixed(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32
}

extension SeparableBlender {
    @inline(__always)
    static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let sa = s >> 24
        let da = d >> 24
        if da == 0 { return s }
        let a = min(sa &+ da &- PixelMath.mul255(sa, da), 255)
        @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
            let sc = (s >> shift) & 0xFF
            let dc = (d >> shift) & 0xFF
            let v = sc &* (255 &- da) &+ dc &* (255 &- sa) &+ mixed(min(sc, sa), min(dc, da), sa, da)
            return min(PixelMath.div255(v), a) << shift
        }
        return channel(0) | channel(8) | channel(16) | a << 24
    }
}

/// `B = max(s, d)`: `Sa·Da·B = max(Sc·Da, Dc·Sa)`.
enum LightenBlender: SeparableBlender {
    @inline(__always)
    static func mixed(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32 {
        max(sc &* da, dc &* sa)
    }
}

/// `B = min(s, d)`: `Sa·Da·B = min(Sc·Da, Dc·Sa)`.
enum DarkenBlender: SeparableBlender {
    @inline(__always)
    static func mixed(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32 {
        min(sc &* da, dc &* sa)
    }
}

/// `B = |s − d|`: `Sa·Da·B = |Sc·Da − Dc·Sa|`.
enum DifferenceBlender: SeparableBlender {
    @inline(__always)
    static func mixed(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32 {
        let x = sc &* da, y = dc &* sa
        return x > y ? x &- y : y &- x
    }
}

/// `B = 1 − d` (the source's colour is not used where the backdrop is opaque): `Sa·Da·B = Sa·(Da − Dc)`.
enum InvertBlender: SeparableBlender {
    @inline(__always)
    static func mixed(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32 {
        sa &* (da &- dc)
    }
}

/// Hard light with the roles given: `B = 2·s·d` when `2·d ≤ 1` (on the `d` that decides), else
/// `1 − 2·(1 − s)·(1 − d)`; premultiplied, `2·Sc·Dc` or `Sa·Da − 2·(Da − Dc)·(Sa − Sc)`.
enum HardLightMath {
    @inline(__always)
    static func mixed(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32, sourceDecides: Bool) -> UInt32 {
        let dark = sourceDecides ? 2 &* sc <= sa : 2 &* dc <= da
        if dark { return 2 &* sc &* dc }
        let full = sa &* da, cut = 2 &* (da &- dc) &* (sa &- sc)
        return full > cut ? full &- cut : 0
    }
}

/// Overlay: hard light decided by the backdrop (`2·Dc ≤ Da` multiplies, else screens).
enum OverlayBlender: SeparableBlender {
    @inline(__always)
    static func mixed(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32 {
        HardLightMath.mixed(sc, dc, sa, da, sourceDecides: false)
    }
}

/// Hard light: decided by the source (`2·Sc ≤ Sa` multiplies, else screens).
enum HardLightBlender: SeparableBlender {
    @inline(__always)
    static func mixed(_ sc: UInt32, _ dc: UInt32, _ sa: UInt32, _ da: UInt32) -> UInt32 {
        HardLightMath.mixed(sc, dc, sa, da, sourceDecides: true)
    }
}

/// `max(0, Dc − Sc)` on colour; alpha `Sa + Da − Sa·Da`.
enum SubtractBlender: PixelBlender {
    @inline(__always)
    static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
        @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
            let sc = (s >> shift) & 0xFF
            let dc = (d >> shift) & 0xFF
            return (dc > sc ? dc &- sc : 0) << shift
        }
        let sa = s >> 24, da = d >> 24
        let a = min(sa &+ da &- PixelMath.mul255(sa, da), 255)
        return channel(0) | channel(8) | channel(16) | a << 24
    }
}

/// `D·Sa` where the source has any alpha; the destination is kept where it has none (Flash's special case).
enum AlphaBlender: PixelBlender {
    @inline(__always)
    static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let sa = s >> 24
        if sa == 0 { return d }
        return PixelMath.scale(d, PixelMath.weight(sa))
    }
}

/// `D·(1 − Sa)`.
enum EraseBlender: PixelBlender {
    @inline(__always)
    static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
        PixelMath.scale(d, 256 &- PixelMath.weight(s >> 24))
    }
}
