/// How far the reduced keyframes may stray from the pose sampled at each frame.
///
/// The guarantee (docs/lottie.md): at every frame of the clip, every corner of every picture lies within 0.01 px of
/// where Keyframe's own sampler puts it, and every opacity within 0.1/255. The reduction splits that budget: position
/// within 0.004 px, and rotation and scale each within 0.003 px at the picture's far corner (rotation never more than
/// 0.01°).
public enum LottieTolerance {
    /// Where every picture corner lands, in composition pixels.
    public static let corner = 0.01
    /// Position, in composition pixels.
    public static let position = 0.004
    /// What rotation and scale errors may each move the far corner, in composition pixels.
    public static let edge = 0.003
    /// The largest rotation error, in degrees.
    public static let degrees = 0.01
    /// Opacity, in Lottie's percent (0.1/255 of full opacity).
    public static let opacityPercent = 100 * 0.1 / 255

    /// The rotation tolerance for a picture whose far corner is `extent` composition pixels from its origin.
    public static func degrees(extent: Double) -> Double {
        min(degrees, edge / max(extent, 1) * 180 / .pi)
    }
}
