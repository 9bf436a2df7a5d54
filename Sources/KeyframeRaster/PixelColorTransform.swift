/// Flash's colour transform: per channel `new = old × multiplier + offset`, on straight colour.
///
/// Offsets are on the 0–255 scale, multipliers are factors (1 keeps the channel). As in Flash the
/// transform applies to straight (non-premultiplied) colour: the rasterizer unpremultiplies each
/// sampled pixel, transforms it, clamps every channel to 0–255 and premultiplies again. A tint with
/// an offset therefore colours semi-transparent edges correctly instead of brightening them.
///
/// ```swift
/// let redTint = ColorTransform(redMultiplier: 0.5, greenMultiplier: 0.5, blueMultiplier: 0.5,
///                              redOffset: 127)
/// ```
public struct ColorTransform: Sendable, Hashable, CustomStringConvertible {
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
    public static let identity = ColorTransform()

    /// Whether the transform changes nothing.
    public var isIdentity: Bool { self == .identity }

    /// Whether only the alpha multiplier differs from identity (equivalent to an opacity).
    public var isAlphaOnly: Bool {
        var copy = self
        copy.alphaMultiplier = 1
        return copy.isIdentity
    }

    /// The transform that applies `self` first and then `outer` (how nested Flash symbols combine).
    public func concatenating(_ outer: ColorTransform) -> ColorTransform {
        ColorTransform(
            redMultiplier: redMultiplier * outer.redMultiplier,
            greenMultiplier: greenMultiplier * outer.greenMultiplier,
            blueMultiplier: blueMultiplier * outer.blueMultiplier,
            alphaMultiplier: alphaMultiplier * outer.alphaMultiplier,
            redOffset: redOffset * outer.redMultiplier + outer.redOffset,
            greenOffset: greenOffset * outer.greenMultiplier + outer.greenOffset,
            blueOffset: blueOffset * outer.blueMultiplier + outer.blueOffset,
            alphaOffset: alphaOffset * outer.alphaMultiplier + outer.alphaOffset)
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
        "ColorTransform(×(\(redMultiplier), \(greenMultiplier), \(blueMultiplier), \(alphaMultiplier)) "
            + "+(\(redOffset), \(greenOffset), \(blueOffset), \(alphaOffset)))"
    }
}
