/// An interruptible, reversible, scrubbable animator with `UIViewPropertyAnimator` semantics.
///
/// The animator owns one time variable, the forward time fraction `u`, and the progress it
/// presents, `p = curve(u)` (or a retimed remainder after ``continue(timing:durationFactor:)``).
/// Every attached ``Animation`` derives its value from `p`, so pausing, reversing, scrubbing and
/// continuing never make a value jump unless the caller sets a new position.
///
/// Time moves only through ``advance(by:)``, normally called by a ``VirtualClock``. Calls that
/// UIKit calls a programmer error throw an ``AnimatorError`` and change nothing. The class is
/// not thread-safe: confine each animator (and its clock) to one task or thread.
///
/// ```swift
/// let clock = VirtualClock()
/// let animator = PropertyAnimator(duration: 0.6, timing: .easeInEaseOut)
/// let id = try animator.addAnimations(.value(from: 0, to: 300))
/// animator.addCompletion { position in print("ended at", position) }
/// clock.register(animator)
/// try animator.start()
/// clock.advance(by: 0.3)
/// try animator.pause()
/// animator.fractionComplete = 0.8        // scrub (linearly, by default)
/// try animator.continue(timing: .easeOut, durationFactor: 0)
/// clock.advance(by: 1)
/// animator.value(of: id)                 // .scalar(300)
/// ```
public final class PropertyAnimator: ClockDriven {
    /// The timing curve given at creation.
    public let timing: TimingCurve
    /// The duration of a run: the one given at creation, or a physical spring's settling time.
    public let duration: Seconds
    /// The delay set by ``start(afterDelay:)``; zero otherwise.
    public private(set) var delay: Seconds = .zero
    /// The life-cycle state.
    public private(set) var state: AnimatingState {
        get { storedPlayhead.state }
        set { playhead.state = newValue }
    }
    /// Whether the animator is active and advancing with time.
    public private(set) var isRunning: Bool {
        get { storedPlayhead.isRunning }
        set { playhead.isRunning = newValue }
    }
    /// Whether the animator runs toward its start. Setting it while stopped is ignored; use
    /// ``setReversed(_:)`` to get an error instead.
    public var isReversed: Bool {
        get { reversed }
        set { try? setReversed(newValue) }
    }
    /// Whether a paused animator is scrubbed in value space (`true`, the default) or through the curve.
    public var scrubsLinearly = true
    /// Whether a run that reaches its end stays active and paused instead of completing.
    public var pausesOnCompletion = false
    /// Whether the animator may be paused or stopped once started; change with ``setInterruptible(_:)``.
    public private(set) var isInterruptible = true

    /// Time (seconds) within which a run counts as having reached its end, absorbing the
    /// rounding of summed tick lengths.
    public static let timeEpsilon = 1e-9

    /// The time-dependent state in one struct, so a tick costs one exclusive access instead of many.
    ///
    /// While the animator is in a clock's batch lane (``laneSlot``), the lane holds the current
    /// `u` and `p`; everything else here stays current.
    private var storedPlayhead = AnimatorPlayhead()
    /// Where the animator's `u` and `p` live while a ``VirtualClock`` advances it in its batch lane.
    private(set) var laneSlot: AnimatorLane.Slot?
    /// The playhead with the lane's `u` and `p` when in a lane; writing takes the animator out of the lane first.
    private var playhead: AnimatorPlayhead {
        get {
            guard let slot = laneSlot else { return storedPlayhead }
            var copy = storedPlayhead
            let entry = slot.lane.entries[slot.index]
            copy.u = entry.u
            copy.p = entry.p
            return copy
        }
        set {
            leaveLane()
            storedPlayhead = newValue
        }
        _modify {
            leaveLane()
            yield &storedPlayhead
        }
    }
    private var reversed: Bool {
        get { storedPlayhead.reversed }
        set { playhead.reversed = newValue }
    }
    /// Forward time fraction.
    private(set) var u: Double {
        get { laneSlot.map { $0.lane.entries[$0.index].u } ?? storedPlayhead.u }
        set { playhead.u = newValue }
    }
    /// Forward presented progress.
    private(set) var p: Double {
        get { laneSlot.map { $0.lane.entries[$0.index].p } ?? storedPlayhead.p }
        set { playhead.p = newValue }
    }
    private(set) var motion: AnimatorMotion {
        get { storedPlayhead.motion }
        set { playhead.motion = newValue }
    }
    private var pendingDelay: Double {
        get { storedPlayhead.pendingDelay }
        set { playhead.pendingDelay = newValue }
    }
    /// Paused in linear-scrub mode: `fractionComplete` reads and writes `p`.
    private var linearScrub = false
    /// `p` was set by a linear scrub and `u` must be recomputed before moving on.
    private var scrubbed = false
    /// Reached the end with `pausesOnCompletion` and has not moved since.
    private(set) var isHeldAtEnd = false
    private(set) var animations: [Animation] = [] {
        didSet { playhead.hasAnimations = !animations.isEmpty }
    }
    private var modelValues: [AnimationID: AnimatedValue] = [:]
    private var completions: [(AnimatingPosition) -> Void] = []
    private var observers: [(token: ObservationToken, handler: (AnimatorEvent) -> Void)] = []
    private var nextAnimationID = 0
    private var nextObserverID = 0

    /// Creates an inactive animator.
    ///
    /// - Parameters:
    ///   - duration: the length of a run; ignored by physical springs, which use their settling time.
    ///   - timing: the curve; Core Animation's default curve if omitted.
    public init(duration: Seconds, timing: TimingCurve = .default) {
        self.timing = timing
        self.duration = timing.intrinsicDuration ?? Seconds(max(0, duration.value))
    }

    /// Creates an animator that animates `target` and starts at once (UIKit `runningPropertyAnimator`).
    public static func running(duration: Seconds, delay: Seconds = .zero, timing: TimingCurve = .default,
                               target: AnimationTarget,
                               completion: ((AnimatingPosition) -> Void)? = nil) throws(AnimatorError)
        -> PropertyAnimator {
        let animator = PropertyAnimator(duration: duration, timing: timing)
        try animator.addAnimations(target)
        if let completion { animator.addCompletion(completion) }
        if delay.value > 0 { try animator.start(afterDelay: delay) } else { try animator.start() }
        return animator
    }

    // MARK: - Reading

    /// How far the run is, measured along the current direction (0 where it started, 1 at its goal).
    ///
    /// While paused with ``scrubsLinearly`` this is the presented progress (clamped to `0...1`
    /// when a curve overshoots); otherwise it is the time fraction. Setting it scrubs a paused (or inactive) animator and is ignored while
    /// running or stopped; use ``setFractionComplete(_:)`` to get an error instead.
    public var fractionComplete: Progress {
        get {
            let forward = state == .active && !isRunning && linearScrub ? min(1, max(0, p)) : u
            return Progress(reversed ? 1 - forward : forward)
        }
        set { try? setFractionComplete(newValue) }
    }

    /// The progress the animator presents, forward (0 = start values, 1 = end values).
    public var presentedProgress: Progress { Progress(p) }

    /// The animations currently attached, in the order they were added.
    public var attachedAnimations: [Animation] { animations }

    /// The value an animation presents now, or the value it left behind once removed; `nil` if unknown.
    public func value(of id: AnimationID) -> AnimatedValue? {
        if state != .stopped, let animation = animations.first(where: { $0.id == id }) {
            return animation.value(forAnimatorProgress: p)
        }
        return modelValues[id]
    }

    /// Every animation this animator has had, attached or finished, in the order added.
    public var knownAnimationIDs: [AnimationID] {
        (0..<nextAnimationID).map { AnimationID(rawValue: $0 + 1) }
    }

    /// The first attached animation's value as a number (fast path for single-value animators).
    public var primaryScalar: Double? {
        if let slot = laneSlot, slot.lane.entries[slot.index].hasPrimary { return slot.lane.entries[slot.index].value }
        if let value = playhead.primaryScalar { return value }
        guard state != .stopped, let first = animations.first else { return nil }
        return first.value(forAnimatorProgress: p).scalar
    }



    // MARK: - Observation

    /// Registers `handler` to be told of every state, running, reversed and completion change.
    @discardableResult
    public func observe(_ handler: @escaping (AnimatorEvent) -> Void) -> ObservationToken {
        nextObserverID += 1
        let token = ObservationToken(id: nextObserverID)
        observers.append((token, handler))
        return token
    }

    /// Removes an observer registered with ``observe(_:)``.
    public func removeObserver(_ token: ObservationToken) {
        observers.removeAll { $0.token == token }
    }

    private func emit(_ event: AnimatorEvent) {
        for observer in observers { observer.handler(event) }
    }

    // MARK: - Legality

    /// The error `operation` would throw in the current state, or `nil` if it is legal.
    public func refusal(of operation: AnimatorOperation) -> AnimatorError? {
        func illegal(_ reason: String) -> AnimatorError {
            AnimatorError(.illegalState, operation, state: state, isRunning: isRunning, reason: reason)
        }
        let stoppedReason = "a stopped animator only accepts finish(at:) and addCompletion"
        switch operation {
        case .start:
            if state == .stopped { return illegal(stoppedReason) }
        case .startAfterDelay:
            if state != .inactive { return illegal("a delayed start is only allowed while inactive") }
        case .pause:
            if state == .stopped { return illegal(stoppedReason) }
            if !isInterruptible { return illegal("the animator is not interruptible") }
        case .stop:
            if state == .stopped { return illegal("the animator is already stopped") }
            if state == .active && !isInterruptible { return illegal("the animator is not interruptible") }
        case .finish:
            if state != .stopped { return illegal("finish(at:) needs a stopped animator") }
        case .setFractionComplete, .scrub:
            if state == .stopped { return illegal(stoppedReason) }
            if isRunning { return illegal("fractionComplete can only be set while paused or inactive") }
        case .setReversed:
            if state == .stopped { return illegal(stoppedReason) }
        case .continueAnimation:
            if state != .active || isRunning { return illegal("only a paused animator can continue") }
            if !isInterruptible { return illegal("the animator is not interruptible") }
        case .addAnimations:
            if state == .stopped { return illegal(stoppedReason) }
        case .addCompletion:
            return nil
        case .setInterruptible:
            if state != .inactive { return illegal("isInterruptible can only change while inactive") }
        }
        return nil
    }

    private func require(_ operation: AnimatorOperation) throws(AnimatorError) {
        if let error = refusal(of: operation) { throw error }
    }

    // MARK: - Operations

    /// Starts or resumes the run from the current `fractionComplete`; no effect while running.
    ///
    /// Legal while inactive or active. A paused animator that was scrubbed linearly re-enters its
    /// curve at the time whose progress is the scrubbed value (engine.md §a.4).
    public func start() throws(AnimatorError) {
        try require(.start)
        switch state {
        case .inactive:
            setState(.active)
            setRunning(true)
        case .active where !isRunning:
            resumeFromPause()
            setRunning(true)
        default:
            return
        }
    }

    /// Starts after `delay` seconds of clock time. Legal only while inactive.
    public func start(afterDelay delay: Seconds) throws(AnimatorError) {
        try require(.startAfterDelay)
        guard delay.value >= 0, delay.value.isFinite else {
            throw AnimatorError(.invalidArgument, .startAfterDelay, state: state, isRunning: isRunning,
                                reason: "delay must be a finite number of seconds ≥ 0, got \(delay)")
        }
        self.delay = delay
        pendingDelay = delay.value
        try start()
    }

    /// Pauses at the current values; from inactive, becomes active and paused. No effect while paused.
    ///
    /// Any remaining start delay is dropped (a later start resumes at once).
    public func pause() throws(AnimatorError) {
        try require(.pause)
        switch state {
        case .inactive:
            setState(.active)
            enterPause()
        case .active where isRunning:
            setRunning(false)
            enterPause()
        default:
            return
        }
    }

    /// Stops at the current values. No effect while inactive.
    ///
    /// - Parameter withoutFinishing: `true` goes straight to inactive and calls no completion;
    ///   `false` goes to stopped, where ``finish(at:)`` must be called.
    public func stop(withoutFinishing: Bool) throws(AnimatorError) {
        try require(.stop)
        guard state == .active else { return }
        for animation in animations { modelValues[animation.id] = animation.value(forAnimatorProgress: p) }
        if isRunning { setRunning(false) }
        isHeldAtEnd = false
        if withoutFinishing {
            setState(.inactive)
            reset()
        } else {
            setState(.stopped)
        }
    }

    /// Finishes a stopped animator at `position` and calls the completions with it.
    ///
    /// `.end` leaves every animation on its end value, `.start` on its start value, `.current`
    /// where it was stopped.
    public func finish(at position: AnimatingPosition) throws(AnimatorError) {
        try require(.finish)
        for animation in animations {
            switch position {
            case .end: modelValues[animation.id] = animation.target.endValue
            case .start: modelValues[animation.id] = animation.target.startValue
            case .current: break
            }
        }
        setState(.inactive)
        finishCompletions(at: position)
    }

    /// Scrubs to a direction-relative fraction (clamped to `0...1`).
    ///
    /// Legal while inactive (becomes active and paused) or paused. With ``scrubsLinearly`` the
    /// fraction is the presented progress; otherwise it is the time fraction and the progress
    /// follows the original curve (a retimed remainder is dropped).
    public func setFractionComplete(_ fraction: Progress) throws(AnimatorError) {
        try require(.setFractionComplete)
        if state == .inactive {
            setState(.active)
            enterPause()
        }
        let relative = min(1, max(0, fraction.value.isNaN ? 0 : fraction.value))
        let forward = reversed ? 1 - relative : relative
        isHeldAtEnd = false
        if linearScrub {
            p = forward
            scrubbed = true
        } else {
            u = forward
            motion = .schedule(rate: nil)
            p = timing.evaluate(u, duration: duration.value)
        }
    }

    /// Sets the direction. Legal unless stopped.
    ///
    /// While running the animator turns around at its current value; while paused or inactive
    /// nothing moves and the new direction is used when the run (re)starts.
    public func setReversed(_ newValue: Bool) throws(AnimatorError) {
        try require(.setReversed)
        guard newValue != reversed else { return }
        reversed = newValue
        isHeldAtEnd = false
        if state == .inactive {
            u = newValue ? 1 : 0
            p = timing.evaluate(u, duration: duration.value)
        } else if isRunning, case .segment(let segment) = motion {
            retarget(segment)
        }
        emit(.reversed(newValue))
    }

    /// Resumes a paused animator with new timing for the rest of this run.
    ///
    /// - Parameters:
    ///   - newTiming: the curve for the remainder, re-parameterised from the current progress to
    ///     the goal; `nil` keeps the current curve.
    ///   - durationFactor: the remaining time as a multiple of ``duration``; `≤ 0` keeps the
    ///     remaining time of the original schedule (or a physical spring's own settling time).
    public func `continue`(timing newTiming: TimingCurve?, durationFactor: Double) throws(AnimatorError) {
        try require(.continueAnimation)
        guard durationFactor.isFinite else {
            throw AnimatorError(.invalidArgument, .continueAnimation, state: state, isRunning: isRunning,
                                reason: "durationFactor must be finite, got \(durationFactor)")
        }
        resumeFromPause()
        let goal: Double = reversed ? 0 : 1
        let remainingFraction = reversed ? u : 1 - u
        if let newTiming {
            let remaining = durationFactor > 0
                ? durationFactor * duration.value
                : newTiming.intrinsicDuration?.value ?? remainingFraction * duration.value
            let curve = newTiming.velocityScaled(toDistance: goal - p)
            motion = .segment(AnimatorSegment(fromProgress: p, fromFraction: u, target: goal, curve: curve,
                                              duration: max(0, remaining), elapsed: 0))
        } else if durationFactor > 0 {
            let remaining = durationFactor * duration.value
            switch motion {
            case .schedule:
                motion = .schedule(rate: remaining > 0 ? remainingFraction / remaining : .infinity)
            case .segment(var segment):
                // Keep the segment's shape, stretch what is left of it to the new remaining time.
                let done = segment.fraction
                if done < 1 {
                    segment.duration = remaining / (1 - done)
                    segment.elapsed = done * segment.duration
                }
                motion = .segment(segment)
            }
        }
        setRunning(true)
    }

    /// Adds an animation; returns its identifier.
    ///
    /// Legal unless stopped. On an active animator the animation starts from the current
    /// progress and ends where the run ends; `delayFactor` (in `0...1`) delays its start by that
    /// fraction of the remaining time.
    @discardableResult
    public func addAnimations(_ target: AnimationTarget, delayFactor: Double = 0) throws(AnimatorError)
        -> AnimationID {
        try require(.addAnimations)
        guard delayFactor >= 0 && delayFactor <= 1 else {
            throw AnimatorError(.invalidArgument, .addAnimations, state: state, isRunning: isRunning,
                                reason: "delayFactor must be in 0...1, got \(delayFactor)")
        }
        nextAnimationID += 1
        let id = AnimationID(rawValue: nextAnimationID)
        let goal: Double = reversed ? 0 : 1
        let animation = Animation(id: id, target: target, origin: originProgress(delayFactor: delayFactor),
                                  destination: goal)
        if animations.isEmpty, case .value(let from, let to) = target {
            playhead.primary = ScalarFastPath(from: from, to: to, origin: animation.origin,
                                             span: animation.destination - animation.origin,
                                             clamps: animation.clampsOrigin)
        }
        animations.append(animation)
        return id
    }

    /// Adds a completion, called with the final position when the run ends. Legal in every state.
    ///
    /// Completions run in the order added, once; they are dropped without being called by
    /// `stop(withoutFinishing: true)`.
    public func addCompletion(_ completion: @escaping (AnimatingPosition) -> Void) {
        completions.append(completion)
    }

    /// Sets ``isInterruptible``. Legal only while inactive.
    public func setInterruptible(_ value: Bool) throws(AnimatorError) {
        try require(.setInterruptible)
        isInterruptible = value
    }

    // MARK: - Time

    /// Advances a running animator by `delta`; called by the clock or the animator's group.
    ///
    /// An animator started without animations waits (UIKit's transient paused state) until
    /// one is added.
    public func advance(by delta: Seconds) {
        if playhead.advance(by: delta.value, timing: timing, duration: duration.value) { reachEnd() }
    }

    // MARK: - Batch lane

    /// Joins `lane` at `index` if the animator simply runs its own linear or Bézier curve
    /// (called by the clock after it advanced the animator).
    func joinLane(_ lane: AnimatorLane, index: Int) {
        guard laneSlot == nil else { return }
        let head = storedPlayhead
        guard head.state == .active, head.isRunning, head.hasAnimations, head.pendingDelay == 0, head.segment == nil
        else { return }
        let speed = head.rate ?? (duration.value > 0 ? 1 / duration.value : .infinity)
        guard speed.isFinite, let curve = lane.curveSlot(for: timing) else { return }
        var entry = AnimatorLane.Entry.empty
        entry.u = head.u
        entry.p = head.p
        entry.speed = speed
        entry.curve = curve
        entry.reversed = head.reversed
        if let primary = head.primary {
            entry.hasPrimary = true
            entry.from = primary.from
            entry.to = primary.to
            entry.origin = primary.origin
            entry.span = primary.span
            entry.clamps = primary.clamps
            entry.value = primary.value(atProgress: head.p)
        }
        entry.isActive = true
        lane.entries[index] = entry
        laneSlot = AnimatorLane.Slot(lane: lane, index: index)
    }

    /// Copies `u` and `p` back from the lane and leaves it (before anything changes the playhead).
    func leaveLane() {
        guard let slot = laneSlot else { return }
        let entry = slot.lane.entries[slot.index]
        laneSlot = nil
        storedPlayhead.u = entry.u
        storedPlayhead.p = entry.p
        slot.lane.entries[slot.index].isActive = false
    }

    // MARK: - Internals

    private func setState(_ newState: AnimatingState) {
        guard newState != state else { return }
        state = newState
        emit(.state(newState))
    }

    private func setRunning(_ running: Bool) {
        guard running != isRunning else { return }
        isRunning = running
        emit(.running(running))
    }

    private func enterPause() {
        linearScrub = scrubsLinearly
        scrubbed = false
        pendingDelay = 0
    }

    /// Makes `u` and the motion agree with `p` and the direction before time moves again.
    private func resumeFromPause() {
        if linearScrub && scrubbed {
            let goal: Double = reversed ? 0 : 1
            if case .schedule = motion, let time = timing.time(forProgress: p, near: u) {
                u = time
            } else {
                let curve: TimingCurve
                if case .segment(let segment) = motion { curve = segment.curve.atRest } else { curve = timing.atRest }
                let remaining = (reversed ? p : 1 - p) * duration.value
                u = min(1, max(0, p))
                motion = .segment(AnimatorSegment(fromProgress: p, fromFraction: u, target: goal, curve: curve,
                                                  duration: max(0, remaining), elapsed: 0))
            }
        }
        linearScrub = false
        scrubbed = false
        isHeldAtEnd = false
        if case .segment(let segment) = motion, segment.target != (reversed ? 0 : 1) {
            retarget(segment)
        }
    }

    /// Replaces a segment heading the wrong way by one from the current position to the new goal.
    private func retarget(_ segment: AnimatorSegment) {
        let goal: Double = reversed ? 0 : 1
        let remaining = (reversed ? u : 1 - u) * duration.value
        motion = .segment(AnimatorSegment(fromProgress: p, fromFraction: u, target: goal,
                                          curve: segment.curve.atRest, duration: max(0, remaining), elapsed: 0))
    }

    /// The animator progress at which an animation added now with `delayFactor` begins.
    private func originProgress(delayFactor: Double) -> Double {
        guard delayFactor > 0 else { return p }
        if state == .active && !isRunning && linearScrub {
            let goal: Double = reversed ? 0 : 1
            return p + delayFactor * (goal - p)
        }
        let start = reversed ? u - delayFactor * u : u + delayFactor * (1 - u)
        switch motion {
        case .schedule:
            return timing.evaluate(start, duration: duration.value)
        case .segment(var segment):
            let span = segment.target - segment.fromFraction
            let fraction = span != 0 ? (start - segment.fromFraction) / span : 1
            segment.elapsed = fraction * segment.duration
            return segment.progress
        }
    }

    private func reachEnd() {
        if pausesOnCompletion {
            setRunning(false)
            enterPause()
            isHeldAtEnd = true
        } else {
            complete(at: reversed ? .start : .end)
        }
    }

    /// Ends an active run at `position` with the animations on their presented values.
    func complete(at position: AnimatingPosition) {
        for animation in animations { modelValues[animation.id] = animation.value(forAnimatorProgress: p) }
        setRunning(false)
        setState(.inactive)
        finishCompletions(at: position)
    }

    private func finishCompletions(at position: AnimatingPosition) {
        let handlers = completions
        reset()
        emit(.completion(position))
        for handler in handlers { handler(position) }
    }

    /// Back to a fresh inactive animator: animations, completions and timing overrides dropped.
    private func reset() {
        animations.removeAll()
        playhead.primary = nil
        completions.removeAll()
        motion = .schedule(rate: nil)
        pendingDelay = 0
        delay = .zero
        linearScrub = false
        scrubbed = false
        isHeldAtEnd = false
        u = reversed ? 1 : 0
        p = timing.evaluate(u, duration: duration.value)
    }
}
