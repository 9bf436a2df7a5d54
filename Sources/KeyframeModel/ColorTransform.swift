import KeyframeJSON

/// A per-channel colour transform, `result = channel · multiplier + offset`, applied to straight (unpremultiplied)
/// colour as Flash does, then clamped to 0…255.
///
/// Multipliers are unit-less (1 = unchanged); offsets are in 8-bit channel units (−255…255). Animate's Tint,
/// Brightness and Alpha effects, DragonBones' percent multipliers and Flump's alpha all normalise to this form.
public struct ColorTransform: Sendable, Hashable {
    public var redMultiplier: Double, greenMultiplier: Double, blueMultiplier: Double, alphaMultiplier: Double
    public var redOffset: Double, greenOffset: Double, blueOffset: Double, alphaOffset: Double

    public init(redMultiplier: Double = 1, greenMultiplier: Double = 1, blueMultiplier: Double = 1,
                alphaMultiplier: Double = 1, redOffset: Double = 0, greenOffset: Double = 0,
                blueOffset: Double = 0, alphaOffset: Double = 0) {
        self.redMultiplier = redMultiplier
        self.greenMultiplier = greenMultiplier
        self.blueMultiplier = blueMultiplier
        self.alphaMultiplier = alphaMultiplier
        self.redOffset = redOffset
        self.greenOffset = greenOffset
        self.blueOffset = blueOffset
        self.alphaOffset = alphaOffset
    }

    /// No change.
    public static let identity = ColorTransform()

    /// The transform that applies `child` first and then `self` (how a parent's effect wraps its child's):
    /// `m = m_parent·m_child`, `o = m_parent·o_child + o_parent`.
    public func concatenating(_ child: ColorTransform) -> ColorTransform {
        ColorTransform(
            redMultiplier: redMultiplier * child.redMultiplier,
            greenMultiplier: greenMultiplier * child.greenMultiplier,
            blueMultiplier: blueMultiplier * child.blueMultiplier,
            alphaMultiplier: alphaMultiplier * child.alphaMultiplier,
            redOffset: redMultiplier * child.redOffset + redOffset,
            greenOffset: greenMultiplier * child.greenOffset + greenOffset,
            blueOffset: blueMultiplier * child.blueOffset + blueOffset,
            alphaOffset: alphaMultiplier * child.alphaOffset + alphaOffset)
    }
}

extension ColorTransform: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        let multiply = try json.member("multiply")
        let offset = try json.member("offset")
        self.init(
            redMultiplier: try multiply.decode("r"), greenMultiplier: try multiply.decode("g"),
            blueMultiplier: try multiply.decode("b"), alphaMultiplier: try multiply.decode("a"),
            redOffset: try offset.decode("r"), greenOffset: try offset.decode("g"),
            blueOffset: try offset.decode("b"), alphaOffset: try offset.decode("a"))
    }

    public var json: JSONValue {
        [
            "multiply": ["r": .number(redMultiplier), "g": .number(greenMultiplier),
                         "b": .number(blueMultiplier), "a": .number(alphaMultiplier)],
            "offset": ["r": .number(redOffset), "g": .number(greenOffset),
                       "b": .number(blueOffset), "a": .number(alphaOffset)],
        ]
    }
}
