/// One animator's state at one tick of a script.
public struct ScriptAnimatorSample: Hashable, Sendable {
    /// The animator's name.
    public var name: String
    /// ``PropertyAnimator/state``.
    public var state: AnimatingState
    /// ``PropertyAnimator/isRunning``.
    public var isRunning: Bool
    /// ``PropertyAnimator/isReversed``.
    public var isReversed: Bool
    /// ``PropertyAnimator/fractionComplete`` (direction-relative).
    public var fractionComplete: Progress
    /// The declared target's value when it is a value target (its last value once the run ended).
    public var value: Double?
    /// The declared target's clip time when it is a clip target.
    public var clip: ScriptClipTime?
    /// Values of animations added by `addAnimations` steps with an explicit target, in the order added.
    public var added: [ScriptTargetValue]

    /// Creates a sample.
    public init(name: String, state: AnimatingState, isRunning: Bool, isReversed: Bool, fractionComplete: Progress,
                value: Double?, clip: ScriptClipTime?, added: [ScriptTargetValue] = []) {
        self.name = name
        self.state = state
        self.isRunning = isRunning
        self.isReversed = isReversed
        self.fractionComplete = fractionComplete
        self.value = value
        self.clip = clip
        self.added = added
    }
}
