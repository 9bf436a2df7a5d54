/// What an animation shows outside its active time (Core Animation `fillMode`).
public enum FillMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// Nothing: the animation has no effect before it begins or after it ends (the default).
    case removed
    /// Keeps the final value after the end.
    case forwards
    /// Shows the first value before the beginning.
    case backwards
    /// Both of the above.
    case both
}
