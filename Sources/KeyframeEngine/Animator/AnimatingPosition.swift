/// Where an animator ended, reported to completions (UIKit `UIViewAnimatingPosition`).
public enum AnimatingPosition: String, Hashable, Sendable, Codable, CaseIterable {
    /// The animations' target values (a forward run that reached its end).
    case end
    /// The values before the animations (a reversed run that reached its beginning).
    case start
    /// Wherever the animator was when it was stopped.
    case current
}
