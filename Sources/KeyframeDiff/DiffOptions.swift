/// What counts as a change for `keyframe diff`.
public struct DiffOptions: Sendable, Hashable {
    /// The largest motion difference that still counts as equal, in each channel's own unit: pixels for position,
    /// degrees for rotation and skew, percentage points for scale and alpha.
    public var tolerance: Double
    /// The largest per-channel difference (0–255) between two sprites' pixels that still counts as the same picture.
    public var pixelTolerance: Int

    /// The default tolerance: far below anything visible, above the rounding of a re-export.
    public static let defaultTolerance = 0.01

    public init(tolerance: Double = DiffOptions.defaultTolerance, pixelTolerance: Int = 2) {
        self.tolerance = tolerance
        self.pixelTolerance = pixelTolerance
    }
}
