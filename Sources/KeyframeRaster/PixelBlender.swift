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
