/// One premultiplied RGBA8 pixel as stored in a ``Bitmap``.
public struct PremultipliedPixel: Sendable, Hashable, CustomStringConvertible {
    /// Red, premultiplied by alpha.
    public var r: UInt8
    /// Green, premultiplied by alpha.
    public var g: UInt8
    /// Blue, premultiplied by alpha.
    public var b: UInt8
    /// Alpha (coverage × opacity).
    public var a: UInt8

    /// Creates a pixel from premultiplied components.
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// The straight colour this pixel represents (colour divided by alpha, rounded).
    public var straight: RGBAColor {
        RGBAColor(
            r: PixelMath.unpremultiply(r, a), g: PixelMath.unpremultiply(g, a),
            b: PixelMath.unpremultiply(b, a), a: a)
    }

    public var description: String { "premultiplied(\(r), \(g), \(b), \(a))" }

    /// Packed as stored in memory (little-endian: red in the low byte).
    var packed: UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
    }
}
