/// Per-draw settings: opacity, colour transform and blend mode.
///
/// ```swift
/// var paint = Paint()
/// paint.opacity = 0.5
/// paint.blendMode = .screen
/// ```
public struct Paint: Sendable, Hashable {
    /// Multiplies the drawn alpha, 0–1 (values outside are clamped).
    public var opacity: Double
    /// Colour transform applied to straight colour before blending.
    public var colorTransform: PixelColorTransform
    /// How the result combines with the destination.
    public var blendMode: PixelBlendMode

    /// Creates a paint; the defaults draw opaquely with source-over.
    public init(opacity: Double = 1, colorTransform: PixelColorTransform = .identity, blendMode: PixelBlendMode = .normal) {
        self.opacity = opacity
        self.colorTransform = colorTransform
        self.blendMode = blendMode
    }

    /// Opacity × the colour transform's alpha multiplier as a 0–256 weight, when that is all the
    /// transform does; otherwise the plain opacity.
    var effectiveOpacityWeight: UInt32 {
        var o = opacity.isNaN ? 0 : opacity
        if foldsIntoOpacity { o *= colorTransform.alphaMultiplier }
        o = Swift.max(0, Swift.min(1, o))
        return UInt32((o * 256).rounded())
    }

    /// The colour transform still to apply per pixel, or `nil` if it folds into the opacity.
    var residualColorTransform: PixelColorTransform? {
        foldsIntoOpacity ? nil : colorTransform
    }

    /// An alpha-only transform with a multiplier in 0–1 never clamps, so it equals an opacity.
    private var foldsIntoOpacity: Bool {
        colorTransform.isAlphaOnly && colorTransform.alphaMultiplier >= 0 && colorTransform.alphaMultiplier <= 1
    }
}
