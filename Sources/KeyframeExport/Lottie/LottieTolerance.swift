/// How far the reduced keyframes may stray from the pose sampled at each frame.
///
/// These are the documented guarantees of the export (docs/lottie.md): at every frame of the clip, each layer's
/// position is within 0.01 px, its rotation within 0.01°, its scale within 0.01 px at the picture's far edge and its
/// opacity within 0.1/255 of what Keyframe's own sampler gives.
public enum LottieTolerance {
    /// Position, in composition pixels.
    public static let pixels = 0.01
    /// Rotation, in degrees.
    public static let degrees = 0.01
    /// Opacity, in Lottie's percent (0.1/255 of full opacity).
    public static let opacityPercent = 100 * 0.1 / 255
}
