/// Where the jumps of a ``TimingCurve/steps(_:_:)`` curve fall, as in CSS `steps()`.
public enum StepPosition: String, Hashable, Sendable, Codable, CaseIterable {
    /// The first jump happens at the start (CSS `jump-start` / `start`).
    case start
    /// The last jump happens at the end (CSS `jump-end` / `end`), the CSS default.
    case end
    /// No jump at either end: `n` levels from 0 to 1 (CSS `jump-none`).
    case none
    /// Jumps at both ends: `n + 1` jumps (CSS `jump-both`).
    case both
}
