import KeyframeModel
import KeyframeRaster

extension Affine {
    /// The same transform as a model matrix (both map `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`).
    init(_ m: Matrix2D) {
        self.init(a: m.a, b: m.b, c: m.c, d: m.d, tx: m.tx, ty: m.ty)
    }
}

extension PixelColorTransform {
    /// The model's colour transform in the raster's terms (both: multipliers as factors, offsets on 0–255).
    init(_ c: ColorTransform) {
        self.init(
            redMultiplier: c.redMultiplier, greenMultiplier: c.greenMultiplier, blueMultiplier: c.blueMultiplier,
            alphaMultiplier: c.alphaMultiplier, redOffset: c.redOffset, greenOffset: c.greenOffset,
            blueOffset: c.blueOffset, alphaOffset: c.alphaOffset)
    }
}

extension PixelBlendMode {
    /// The raster blend for a model blend mode. `layer` is normal here: what makes it differ (its content drawn
    /// as one picture first) is the pose's group, not the pixel formula.
    init(_ mode: BlendMode) {
        switch mode {
        case .normal, .layer: self = .normal
        case .add: self = .add
        case .multiply: self = .multiply
        case .screen: self = .screen
        case .lighten: self = .lighten
        case .darken: self = .darken
        case .difference: self = .difference
        case .subtract: self = .subtract
        case .invert: self = .invert
        case .overlay: self = .overlay
        case .hardlight: self = .hardlight
        case .alpha: self = .alpha
        case .erase: self = .erase
        }
    }
}

extension Int {
    /// `value` rounded to the nearest integer and clamped to ±2³⁰ (NaN gives 0), for document numbers that
    /// become pixel positions, sizes or frame counts: an absurd value from a hand-edited or damaged file must
    /// reach the checks that report it, not trap the conversion.
    init(saturatingRounded value: Double) {
        let limit = Double(1 << 30)
        self = value.isNaN ? 0 : Int(Swift.min(limit, Swift.max(-limit, value.rounded())))
    }
}
