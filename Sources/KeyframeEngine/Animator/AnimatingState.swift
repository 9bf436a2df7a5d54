/// The life-cycle state of a ``PropertyAnimator`` (UIKit `UIViewAnimatingState`).
public enum AnimatingState: String, Hashable, Sendable, Codable, CaseIterable {
    /// Not executing: the initial state, and the state after the animations finish.
    case inactive
    /// Executing: running or paused (see ``PropertyAnimator/isRunning``).
    case active
    /// Stopped by `stop(withoutFinishing: false)`; only `finish(at:)` leaves it.
    case stopped
}
