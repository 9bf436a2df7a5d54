/// Flash's colour transform: per channel `new = old × multiplier + offset`, on straight colour.
///
/// Offsets are on the 0–255 scale, multipliers are factors (1 keeps the channel). As in Flash the
/// transform applies to straight (non-premultiplied) colour: the rasterizer unpremultiplies each
/// sampled pixel, transforms it, clamps every channel to 0–255 and premultiplies again. A tint with
/// an offset therefore colours semi-transparent edges correctly instead of brightening them.
///
/// ```swift
/// let redTint = PixelColorTransform(redMultiplier: 0.5, greenMultiplier: 0.5, blueMultiplier: 0.5,
///                              redOffset: 127)
/// ```
public struct PixelColorTransform: Sendable, Hashable, CustomStringConvertible {
    /// Red multiplier.
    public var redMultiplier: Double
    /// Green multiplier.
    public var greenMultiplier: Double
    /// Blue multiplier.
    public var blueMultiplier: Double
    /// Alpha multiplier.
    public var alphaMultiplier: Double
    /// Red offset, 0–255 scale.
    public var redOffset: Double
    /// Green offset, 0–255 scale.
    public var greenOffset: Double
    /// Blue offset, 0–255 scale.
    public var blueOffset: Double
    /// Alpha offset, 0–255 scale.
    public var alphaOffset: Double

    /// Creates a transform; every parameter defaults to "no change".
    public init(
        redMultiplier: Double = 1, greenMultiplier: Double = 1, blueMultiplier: Double = 1,
        alphaMultiplier: Double = 1, redOffset: Double = 0, greenOffset: Double = 0,
        blueOffset: Double = 0, alphaOffset: Double = 0
    ) {
        self.redMultiplier = redMultiplier
        self.greenMultiplier = greenMultiplier
        self.blueMultiplier = blueMultiplier
        self.alphaMultiplier = alphaMultiplier
        self.redOffset = redOffset
        self.greenOffset = greenOffset
        self.blueOffset = blueOffset
        self.alphaOffset = alphaOffset
    }

    /// The transform that changes nothing.
    public static let identity = PixelColorTransform()

    /// Whether the transform changes nothing.
    public var isIdentity: Bool { self == .identity }

    /// Whether only the alpha multiplier differs from identity (equivalent to an opacity).
    public var isAlphaOnly: Bool {
        var copy = self
        copy.alphaMultiplier = 1
        return copy.isIdentity
    }

    /// The transform that applies `inner` first and then `self` (how a parent's effect wraps its child's).
    public func concatenating(_ inner: PixelColorTransform) -> PixelColorTransform {
        PixelColorTransform(
            redMultiplier: redMultiplier * inner.redMultiplier,
            greenMultiplier: greenMultiplier * inner.greenMultiplier,
            blueMultiplier: blueMultiplier * inner.blueMultiplier,
            alphaMultiplier: alphaMultiplier * inner.alphaMultiplier,
            redOffset: redMultiplier * inner.redOffset + redOffset,
            greenOffset: greenMultiplier * inner.greenOffset + greenOffset,
            blueOffset: blueMultiplier * inner.blueOffset + blueOffset,
            alphaOffset: alphaMultiplier * inner.alphaOffset + alphaOffset)
    }

    /// Applies the transform to a straight colour, clamping each channel to 0–255 and rounding.
    public func apply(to color: RGBAColor) -> RGBAColor {
        func channel(_ v: UInt8, _ m: Double, _ o: Double) -> UInt8 {
            let x = (Double(v) * m + o).rounded()
            return x.isNaN ? 0 : UInt8(Swift.max(0, Swift.min(255, x)))
        }
        return RGBAColor(
            r: channel(color.r, redMultiplier, redOffset), g: channel(color.g, greenMultiplier, greenOffset),
            b: channel(color.b, blueMultiplier, blueOffset), a: channel(color.a, alphaMultiplier, alphaOffset))
    }

    public var description: String {
        "PixelColorTransform(×(\(redMultiplier), \(greenMultiplier), \(blueMultiplier), \(alphaMultiplier)) "
            + "+(\(redOffset), \(greenOffset), \(blueOffset), \(alphaOffset)))"
    }
}
