/// A change an animator or group reports to its observers, one event per change, in order.
public enum AnimatorEvent: Hashable, Sendable {
    /// The life-cycle state changed to the given state.
    case state(AnimatingState)
    /// `isRunning` changed to the given value.
    case running(Bool)
    /// `isReversed` changed to the given value.
    case reversed(Bool)
    /// The animations ended at the given position and completions were called.
    case completion(AnimatingPosition)
}
