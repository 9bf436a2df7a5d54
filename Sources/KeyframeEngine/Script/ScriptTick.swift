/// Everything a script shows at one tick of its virtual clock.
///
/// Ticks fall at `index / fps` seconds. A tick reflects every step whose time is at or before
/// the tick's time (each applied at its own exact time) and lists the steps applied and the
/// completions that happened since the previous tick.
public struct ScriptTick: Hashable, Sendable {
    /// The tick's number, from 0.
    public var index: Int
    /// The tick's time on the virtual clock.
    public var time: Seconds
    /// Each animator, in declaration order.
    public var animators: [ScriptAnimatorSample]
    /// The steps applied since the previous tick (their indices in ``AnimatorScript/steps``), in order.
    public var steps: [Int]
    /// Completions since the previous tick, in the order they happened.
    public var completions: [ScriptCompletion]

    /// Creates a tick record.
    public init(index: Int, time: Seconds, animators: [ScriptAnimatorSample], steps: [Int] = [],
                completions: [ScriptCompletion] = []) {
        self.index = index
        self.time = time
        self.animators = animators
        self.steps = steps
        self.completions = completions
    }

    /// The sample of the animator called `name`.
    public func animator(_ name: String) -> ScriptAnimatorSample? { animators.first { $0.name == name } }
}
