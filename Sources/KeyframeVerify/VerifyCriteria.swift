/// When a rendered frame counts as matching its golden frame.
public struct VerifyCriteria: Sendable, Hashable {
    /// The largest per-channel difference (0–255) that still counts as equal.
    public var tolerance: Int
    /// The share of pixels (0…1) that may differ by more than ``tolerance`` before the frame fails.
    public var maxDifferingShare: Double

    /// The default: a tolerance of 2 per channel (what Keyframe's own golden tests allow), no differing pixel.
    public init(tolerance: Int = 2, maxDifferingShare: Double = 0) {
        self.tolerance = tolerance
        self.maxDifferingShare = maxDifferingShare
    }
}
