/// An operation on an animator, named in ``AnimatorError``s.
public enum AnimatorOperation: String, Hashable, Sendable, Codable, CaseIterable {
    case start
    case startAfterDelay
    case pause
    case stop
    case finish
    case setFractionComplete
    case setReversed
    case continueAnimation
    case addAnimations
    case addCompletion
    case setInterruptible
    case scrub
}
