/// How a ``KeyframeTrack`` fills in between its keyframes (Core Animation `calculationMode`).
public enum CalculationMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// Straight lines between keyframes, timed by `keyTimes` and per-segment timing functions.
    case linear
    /// Each value holds until the next key time; needs `values.count + 1` key times.
    case discrete
    /// Straight lines at constant speed: key times come from the distances between values.
    case paced
    /// A Kochanek–Bartels (Catmull-Rom when tension, continuity and bias are 0) spline through the values.
    case cubic
    /// The cubic spline, travelled at constant speed along its arc length.
    case cubicPaced
}
