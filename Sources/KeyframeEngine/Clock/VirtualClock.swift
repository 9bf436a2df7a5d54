/// A deterministic clock: time moves only when ``advance(by:)`` is called.
///
/// Animators and groups register with the clock and are advanced in registration order on
/// every tick. Nothing in the engine reads a wall clock, so a run is a pure function of the
/// operations and ticks applied to it.
///
/// Animators that simply run their own linear or cubic Bézier curve are advanced in a batch
/// lane: their numbers sit in one contiguous buffer and a tick updates them in a tight loop,
/// still in registration order and with the same arithmetic as the per-animator path (values,
/// events and completions are identical; see `docs/engine.md` § Performance).
/// ``primaryScalars(into:)`` reads every member's value from that buffer.
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
    /// The members that are animators (`nil` for groups and other members), for the lane.
    private var animators: [PropertyAnimator?] = []
    private var memberIDs: Set<ObjectIdentifier> = []
    /// Bumped when members are removed, so a tick in progress stops trusting slot indices.
    private var generation = 0
    /// The batch lane, one slot per member.
    let lane = AnimatorLane()

    /// Creates a clock at time zero with nothing registered.
    public init() {}

    /// Registers `member` so every later tick advances it; registering twice has no effect.
    public func register(_ member: ClockDriven) {
        guard memberIDs.insert(ObjectIdentifier(member)).inserted else { return }
        members.append(member)
        animators.append(member as? PropertyAnimator)
        lane.append()
    }

    /// Stops advancing `member`.
    public func unregister(_ member: ClockDriven) {
        guard memberIDs.remove(ObjectIdentifier(member)) != nil else { return }
        // Slot indices shift: every animator leaves the lane and rejoins after its next tick.
        for animator in animators {
            if let animator, let slot = animator.laneSlot, slot.lane === lane { animator.leaveLane() }
        }
        if let index = members.firstIndex(where: { $0 === member }) {
            members.remove(at: index)
            animators.remove(at: index)
            lane.removeLast()
        }
        generation += 1
    }

    /// Whether `member` is registered.
    public func isRegistered(_ member: ClockDriven) -> Bool { memberIDs.contains(ObjectIdentifier(member)) }

    /// Advances time by `delta` (must not be negative) and ticks every registered member.
    public func advance(by delta: Seconds) {
        precondition(delta.value >= 0, "a virtual clock cannot run backwards")
        now += delta
        tickCount += 1
        tick(delta)
    }

    /// Advances to `time` in one tick; does nothing if `time` is not later than ``now``.
    public func advance(to time: Seconds) {
        guard time > now else { return }
        let delta = time - now
        now += delta
        // Land exactly on the requested time despite rounding in the subtraction.
        now = time
        tickCount += 1
        tick(delta)
    }

    /// The value of every member's first animation when it is a number, in registration order.
    ///
    /// `values` is resized to the number of members; entries for groups, animators without a
    /// scalar first animation, and stopped animators are NaN. Each entry equals the member's
    /// ``PropertyAnimator/primaryScalar``; members in the batch lane are read from its buffer
    /// without touching the animator objects.
    public func primaryScalars(into values: inout [Double]) {
        let count = members.count
        if values.count != count { values = [Double](repeating: .nan, count: count) }
        let entries = lane.entries, animators = self.animators
        values.withUnsafeMutableBufferPointer { buffer in
            for i in 0..<count {
                let entry = entries[i]
                if entry.isActive && entry.hasPrimary {
                    buffer[i] = entry.value
                } else {
                    buffer[i] = animators[i]?.primaryScalar ?? .nan
                }
            }
        }
    }

    /// Ticks every member in registration order: lane slots in tight runs, the others one by one.
    private func tick(_ delta: Seconds) {
        let members = self.members, animators = self.animators, generation = self.generation
        let count = members.count
        let dt = max(0, delta.value)
        var i = 0
        while i < count {
            if generation == self.generation {
                i = lane.advanceRun(from: i, to: count, dt: dt)
                if i == count { break }
            }
            // Not in the lane, or its run ends now: the animator's own path (events, completions).
            members[i].advance(by: delta)
            if generation == self.generation, let animator = animators[i] { animator.joinLane(lane, index: i) }
            i += 1
        }
    }
}
