/// Flash's glow and drop shadow on a premultiplied picture, in device pixels.
///
/// The effect's alpha is the picture's alpha (inverted for an inner effect), blurred (``BoxBlur``), moved by
/// `offset` (a drop shadow), multiplied by ``strength`` and clamped to 1, then by ``alpha``; it is painted in
/// `color`. With `a` the picture's alpha and `g` the effect's (both 0…1), `C` the colour, `P` the picture:
///
/// | mode | result |
/// |---|---|
/// | outer | `P + C·g·(1 − a)` (the effect behind the picture) |
/// | outer, knockout | `C·g·(1 − a)` |
/// | outer, hide object | `C·g` |
/// | inner | `C·g·a + P·(1 − g)` (the effect inside the picture's shape, over it) |
/// | inner, knockout or hide object | `C·g·a` |
public struct GlowKernel: Sendable, Equatable {
    public var blur: BoxBlur
    /// The colour, straight 8-bit channels.
    public var red: UInt8, green: UInt8, blue: UInt8
    /// Opacity of the colour, 0…1.
    public var alpha: Double
    /// Multiplier of the blurred alpha, clamped to 1 after.
    public var strength: Double
    /// Where the effect is moved, in whole pixels (a drop shadow's distance at its angle).
    public var offsetX: Int, offsetY: Int
    public var inner: Bool
    public var knockout: Bool
    public var hideObject: Bool

    public init(blur: BoxBlur, red: UInt8, green: UInt8, blue: UInt8, alpha: Double, strength: Double,
                offsetX: Int = 0, offsetY: Int = 0, inner: Bool = false, knockout: Bool = false,
                hideObject: Bool = false) {
        self.blur = blur
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
        self.strength = strength
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.inner = inner
        self.knockout = knockout
        self.hideObject = hideObject
    }

    /// How far the result reaches beyond the picture on each side (left, top, right, bottom), in pixels: the blur's
    /// extent plus the offset, for an outer effect; nothing for an inner one.
    public var margins: (left: Int, top: Int, right: Int, bottom: Int) {
        guard !inner else { return (0, 0, 0, 0) }
        let e = blur.extent
        return (e.x + max(0, -offsetX), e.y + max(0, -offsetY), e.x + max(0, offsetX), e.y + max(0, offsetY))
    }

    /// The context the effect reads around each pixel (left, top, right, bottom): the blur's extent plus the offset,
    /// inner or outer.
    public var reach: (left: Int, top: Int, right: Int, bottom: Int) {
        let e = blur.extent
        return (e.x + max(0, offsetX), e.y + max(0, offsetY), e.x + max(0, -offsetX), e.y + max(0, -offsetY))
    }

    /// Applies the effect to `bitmap` in place; `plane` and `scratch` are working memory, reused.
    public func apply(to bitmap: inout Bitmap, plane: inout [UInt8], scratch: inout [UInt8]) {
        let w = bitmap.width, h = bitmap.height
        guard w > 0, h > 0 else { return }
        let count = w * h
        if plane.count < count { plane = [UInt8](repeating: 0, count: count) }
        bitmap.pixels.withUnsafeBufferPointer { p in
            plane.withUnsafeMutableBufferPointer { a in
                for i in 0..<count { a[i] = inner ? 255 - p[i * 4 + 3] : p[i * 4 + 3] }
            }
        }
        // Outside the picture the inverted alpha of an inner effect is 1.
        let outside: UInt8 = inner ? 255 : 0
        blur.apply(to: &plane, width: w, height: h, channels: 1, outside: outside, scratch: &scratch)
        let s = max(0, strength.isFinite ? strength : 0), k = min(max(alpha.isFinite ? alpha : 0, 0), 1)
        // The effect's alpha g (0…255) for each blurred value: min(255, v·strength)·alpha.
        var table = [Double](repeating: 0, count: 256)
        for v in 0..<256 { table[v] = min(255, (Double(v) * s).rounded()) * k }
        let cr = Double(red), cg = Double(green), cb = Double(blue)
        let dx = offsetX, dy = offsetY
        bitmap.pixels.withUnsafeMutableBufferPointer { p in
            plane.withUnsafeBufferPointer { a in
                for y in 0..<h {
                    let sy = y - dy
                    for x in 0..<w {
                        let sx = x - dx
                        let v = sy >= 0 && sy < h && sx >= 0 && sx < w ? Int(a[sy * w + sx]) : Int(outside)
                        let g = table[v] / 255
                        let i = (y * w + x) * 4
                        // Outer, neither knocked out nor hidden: where there is no effect or the picture is opaque,
                        // the picture stays as it is (most of a layer).
                        if !inner && !knockout && !hideObject && (g == 0 || p[i + 3] == 255) { continue }
                        let pa = Double(p[i + 3]) / 255
                        var out: (Double, Double, Double, Double)
                        if inner {
                            let e = g * pa
                            if knockout || hideObject {
                                out = (cr * e, cg * e, cb * e, 255 * e)
                            } else {
                                out = (cr * e + Double(p[i]) * (1 - g), cg * e + Double(p[i + 1]) * (1 - g),
                                       cb * e + Double(p[i + 2]) * (1 - g), Double(p[i + 3]))
                            }
                        } else if knockout {
                            let e = g * (1 - pa)
                            out = (cr * e, cg * e, cb * e, 255 * e)
                        } else if hideObject {
                            out = (cr * g, cg * g, cb * g, 255 * g)
                        } else {
                            let e = g * (1 - pa)
                            out = (Double(p[i]) + cr * e, Double(p[i + 1]) + cg * e, Double(p[i + 2]) + cb * e,
                                   Double(p[i + 3]) + 255 * e)
                        }
                        p[i] = GlowKernel.byte(out.0)
                        p[i + 1] = GlowKernel.byte(out.1)
                        p[i + 2] = GlowKernel.byte(out.2)
                        p[i + 3] = GlowKernel.byte(out.3)
                    }
                }
            }
        }
    }

    @inline(__always) static func byte(_ value: Double) -> UInt8 {
        UInt8(min(255, max(0, value + 0.5)))
    }
}
