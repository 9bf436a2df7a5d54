/// A straight (non-premultiplied) 8-bit sRGB colour with alpha, as designers specify it.
public struct RGBAColor: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0–255.
    public var r: UInt8
    /// Green, 0–255.
    public var g: UInt8
    /// Blue, 0–255.
    public var b: UInt8
    /// Alpha, 0 (transparent) – 255 (opaque).
    public var a: UInt8

    /// Creates a colour from straight components.
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// Fully transparent black.
    public static let transparent = RGBAColor(r: 0, g: 0, b: 0, a: 0)
    /// Opaque black.
    public static let black = RGBAColor(r: 0, g: 0, b: 0)
    /// Opaque white.
    public static let white = RGBAColor(r: 255, g: 255, b: 255)

    /// This colour premultiplied by its alpha.
    public var premultiplied: PremultipliedPixel {
        PremultipliedPixel(
            r: PixelMath.premultiply(r, a), g: PixelMath.premultiply(g, a),
            b: PixelMath.premultiply(b, a), a: a)
    }

    public var description: String { "rgba(\(r), \(g), \(b), \(a))" }

    var premultipliedPixel: UInt32 { premultiplied.packed }
}
