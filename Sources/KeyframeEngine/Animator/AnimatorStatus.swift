/// Everything a trace prints about an animator at one instant (for `keyframe play` and renders).
///
/// Encodes deterministically: fixed keys, animations in the order they were added.
///
/// ```swift
/// let encoder = JSONEncoder()
/// encoder.outputFormatting = [.sortedKeys]
/// let line = try encoder.encode(animator.status)
/// ```
public struct AnimatorStatus: Hashable, Sendable, Codable {
    /// One animation's identity and value.
    public struct Entry: Hashable, Sendable, Codable {
        /// The animation's number within its animator.
        public var id: Int
        /// Its presented value (or the value it left behind).
        public var value: AnimatedValue
    }

    /// The life-cycle state.
    public var state: AnimatingState
    /// Whether the animator advances with time.
    public var isRunning: Bool
    /// Whether it runs toward the start.
    public var isReversed: Bool
    /// `fractionComplete`, direction-relative.
    public var fractionComplete: Double
    /// The forward presented progress.
    public var progress: Double
    /// The animations' values, attached ones first in the order added, then those left behind.
    public var values: [Entry]
}

extension PropertyAnimator {
    /// A snapshot of the animator for traces.
    public var status: AnimatorStatus {
        AnimatorStatus(state: state, isRunning: isRunning, isReversed: isReversed,
                       fractionComplete: fractionComplete.value, progress: presentedProgress.value,
                       values: knownAnimationIDs.compactMap { id in
                           value(of: id).map { AnimatorStatus.Entry(id: id.rawValue, value: $0) }
                       })
    }
}
