/// A deterministic clock: time moves only when ``advance(by:)`` is called.
///
/// Animators and groups register with the clock and are advanced in registration order on
/// every tick. Nothing in the engine reads a wall clock, so a run is a pure function of the
/// operations and ticks applied to it.
///
/// ```swift
/// let clock = VirtualClock()
/// let animator = PropertyAnimator(duration: 1, timing: .easeOut)
/// clock.register(animator)
/// try animator.start()
/// clock.advance(by: 1.0 / 60)
/// ```
public final class VirtualClock {
    /// The time elapsed since the clock was created.
    public private(set) var now: Seconds = .zero
    /// The number of ticks so far.
    public private(set) var tickCount = 0
    private var members: [ClockDriven] = []
    private var memberIDs: Set<ObjectIdentifier> = []

    /// Creates a clock at time zero with nothing registered.
    public init() {}

    /// Registers `member` so every later tick advances it; registering twice has no effect.
    public func register(_ member: ClockDriven) {
        guard memberIDs.insert(ObjectIdentifier(member)).inserted else { return }
        members.append(member)
    }

    /// Stops advancing `member`.
    public func unregister(_ member: ClockDriven) {
        guard memberIDs.remove(ObjectIdentifier(member)) != nil else { return }
        members.removeAll { $0 === member }
    }

    /// Whether `member` is registered.
    public func isRegistered(_ member: ClockDriven) -> Bool { memberIDs.contains(ObjectIdentifier(member)) }

    /// Advances time by `delta` (must not be negative) and ticks every registered member.
    public func advance(by delta: Seconds) {
        precondition(delta.value >= 0, "a virtual clock cannot run backwards")
        now += delta
        tickCount += 1
        for member in members { member.advance(by: delta) }
    }

    /// Advances to `time` in one tick; does nothing if `time` is not later than ``now``.
    public func advance(to time: Seconds) {
        guard time > now else { return }
        let delta = time - now
        now += delta
        // Land exactly on the requested time despite rounding in the subtraction.
        now = time
        tickCount += 1
        for member in members { member.advance(by: delta) }
    }
}
