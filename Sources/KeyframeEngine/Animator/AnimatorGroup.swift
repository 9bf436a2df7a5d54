/// Animators that move as one: a primary and secondaries, each with its own curve and duration.
///
/// The WWDC 2017 "Advanced Animations with UIKit" pattern: start, pause, reverse, scrub and
/// continue act on every member; while scrubbed, every member keeps its own offset (its
/// `fractionComplete` when the group was paused or reversed) and moves by the same delta; the
/// group completes when every member has reached the end of its run, all at one position.
///
/// The group drives its members: register the **group** with the ``VirtualClock``, not the
/// members. Members are set to pause on completion so an early finisher waits for the others
/// (and can still be reversed); when all have arrived the group completes each member at the
/// group's position, then calls its own completions. Every group operation checks all members
/// first and throws without changing anything if any member would refuse.
///
/// ```swift
/// let frame = PropertyAnimator(duration: 1, timing: .spring(dampingRatio: 1))
/// let blur = PropertyAnimator(duration: 1, timing: .bezier(0.1, 0.75, 0.25, 0.9))
/// let group = AnimatorGroup(primary: frame, secondaries: [blur])
/// clock.register(group)
/// try group.start()
/// try group.pause()
/// try group.scrub(by: 0.2)          // every member moves 0.2 from its own offset
/// try group.continue(timing: nil, durationFactor: 0)
/// ```
public final class AnimatorGroup: ClockDriven {
    /// The animator whose direction and fraction represent the group.
    public let primary: PropertyAnimator
    /// The other members.
    public let secondaries: [PropertyAnimator]
    /// Whether the group stays paused at the end instead of completing.
    public var pausesOnCompletion = false

    private var offsets: [Progress]
    private var completions: [(AnimatingPosition) -> Void] = []
    private var observers: [(token: ObservationToken, handler: (AnimatorEvent) -> Void)] = []
    private var nextObserverID = 0
    private var isHeld = false

    /// All members, primary first.
    public var members: [PropertyAnimator] { [primary] + secondaries }

    /// Creates a group; every member is switched to `pausesOnCompletion` so the group decides
    /// when the run completes.
    public init(primary: PropertyAnimator, secondaries: [PropertyAnimator]) {
        self.primary = primary
        self.secondaries = secondaries
        offsets = []
        for member in members { member.pausesOnCompletion = true }
        offsets = members.map(\.fractionComplete)
    }

    // MARK: Reading

    /// The primary's state.
    public var state: AnimatingState { primary.state }
    /// Whether any member is running.
    public var isRunning: Bool { members.contains(where: \.isRunning) }
    /// The primary's direction.
    public var isReversed: Bool { primary.isReversed }
    /// The primary's `fractionComplete`.
    public var fractionComplete: Progress { primary.fractionComplete }
    /// Each member's offset for scrubbing, primary first.
    public var scrubOffsets: [Progress] { offsets }

    /// Registers `handler` for the group's own reversed and completion changes.
    @discardableResult
    public func observe(_ handler: @escaping (AnimatorEvent) -> Void) -> ObservationToken {
        nextObserverID += 1
        let token = ObservationToken(id: nextObserverID)
        observers.append((token, handler))
        return token
    }

    /// Removes an observer.
    public func removeObserver(_ token: ObservationToken) { observers.removeAll { $0.token == token } }

    /// Adds a completion, called once with the group's position after every member completed.
    public func addCompletion(_ completion: @escaping (AnimatingPosition) -> Void) {
        completions.append(completion)
    }

    // MARK: Operations

    private func requireAll(_ operation: AnimatorOperation) throws(AnimatorError) {
        for member in members { if let error = member.refusal(of: operation) { throw error } }
    }

    /// Starts (or resumes) every member.
    public func start() throws(AnimatorError) {
        try requireAll(.start)
        isHeld = false
        for member in members { try member.start() }
    }

    /// Pauses every member and records each one's offset for scrubbing.
    public func pause() throws(AnimatorError) {
        try requireAll(.pause)
        for member in members { try member.pause() }
        recordOffsets()
    }

    /// Flips the direction of every member (the WWDC tap-to-reverse); offsets are re-recorded.
    ///
    /// While the group runs, members waiting at their end start back with the others.
    public func reverse() throws(AnimatorError) {
        try requireAll(.setReversed)
        let newValue = !primary.isReversed
        let wasRunning = isRunning
        for member in members { try member.setReversed(newValue) }
        // Members that already arrived and wait paused must turn around with the others.
        if wasRunning { for member in members where !member.isRunning { try member.start() } }
        recordOffsets()
        emit(.reversed(newValue))
    }

    /// Moves every paused member to its own offset plus `delta` (direction-relative, clamped).
    ///
    /// Inactive members become active and paused, like setting `fractionComplete`.
    public func scrub(by delta: Double) throws(AnimatorError) {
        try requireAll(.setFractionComplete)
        for (member, offset) in zip(members, offsets) {
            try member.setFractionComplete(Progress(offset.value + delta))
        }
    }

    /// Continues every paused member with the same timing and duration factor.
    public func `continue`(timing: TimingCurve?, durationFactor: Double) throws(AnimatorError) {
        try requireAll(.continueAnimation)
        isHeld = false
        for member in members { try member.continue(timing: timing, durationFactor: durationFactor) }
    }

    /// Stops every member (see ``PropertyAnimator/stop(withoutFinishing:)``).
    public func stop(withoutFinishing: Bool) throws(AnimatorError) {
        try requireAll(.stop)
        for member in members { try member.stop(withoutFinishing: withoutFinishing) }
        if withoutFinishing { completions.removeAll() }
    }

    /// Finishes every stopped member at `position`, then calls the group's completions.
    public func finish(at position: AnimatingPosition) throws(AnimatorError) {
        try requireAll(.finish)
        for member in members { try member.finish(at: position) }
        completeGroup(at: position)
    }

    // MARK: Time

    /// Advances every member, then completes the group if all of them have arrived.
    public func advance(by delta: Seconds) {
        for member in members { member.advance(by: delta) }
        let arrived = members.allSatisfy { $0.isHeldAtEnd }
        guard arrived, !isHeld else { return }
        if pausesOnCompletion {
            isHeld = true
            return
        }
        let position: AnimatingPosition = primary.isReversed ? .start : .end
        for member in members { member.complete(at: position) }
        for member in members { member.pausesOnCompletion = true }
        completeGroup(at: position)
    }

    private func recordOffsets() { offsets = members.map(\.fractionComplete) }

    private func completeGroup(at position: AnimatingPosition) {
        let handlers = completions
        completions.removeAll()
        recordOffsets()
        emit(.completion(position))
        for handler in handlers { handler(position) }
    }

    private func emit(_ event: AnimatorEvent) {
        for observer in observers { observer.handler(event) }
    }
}
