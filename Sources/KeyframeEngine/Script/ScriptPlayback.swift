/// One playback of a script, tick by tick (see ``ScriptRunner/playback(fps:until:)``).
///
/// Each call to ``next()`` applies the steps due up to the next tick, each at its own exact
/// time, advances the virtual clock to the tick and returns what the animators show. Not
/// thread-safe; use one playback from one task.
public final class ScriptPlayback {
    /// Ticks per second.
    public let fps: Double
    /// The last time recorded, or `nil` to stop once everything has settled after the last step.
    public let until: Seconds?
    /// Whether a run without `until` was cut off at ``ScriptRunner/settleLimit`` after the last step.
    public private(set) var reachedSettleLimit = false
    /// Whether the playback stopped after ``ScriptRunner/maximumTicks`` ticks.
    public private(set) var reachedTickLimit = false
    /// The clock the animators run on.
    public let clock = VirtualClock()

    /// The animators, in declaration order (for callers that want more than the tick records).
    public private(set) var animators: [PropertyAnimator] = []
    /// The coordinated group, when the script declares one.
    public private(set) var group: AnimatorGroup?

    private let runner: ScriptRunner
    /// Each animator's index by name: a step finds its animator in constant time, so a tick costs time linear in
    /// the animators and the steps it applies.
    private let indexByName: [String: Int]
    /// Per animator: the current instance of its declared target.
    private var declared: [(id: AnimationID, clip: ScriptClip?)] = []
    /// Per animator: animations added with an explicit target.
    private var added: [[(id: AnimationID, clip: ScriptClip?)]] = []
    private let log = CompletionLog()
    private var nextStep = 0
    private var tickIndex = 0
    private var finished = false
    private var appliedSteps: [Int] = []

    /// Collects completions as the animators report them (a class so observers need not capture the playback).
    private final class CompletionLog {
        var time = Seconds.zero
        var entries: [ScriptCompletion] = []
    }

    init(runner: ScriptRunner, fps: Double, until: Seconds?) {
        precondition(fps > 0 && fps.isFinite, "fps must be a positive number, got \(fps)")
        self.runner = runner
        self.fps = fps
        self.until = until
        let script = runner.script
        indexByName = Dictionary(script.animators.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        for declaration in script.animators {
            let animator = PropertyAnimator(duration: declaration.duration, timing: declaration.timing)
            animator.scrubsLinearly = declaration.scrubsLinearly
            animator.pausesOnCompletion = declaration.pausesOnCompletion
            // A fresh animator is inactive, so these cannot be refused.
            try? animator.setInterruptible(declaration.isInterruptible)
            let (target, clip) = runner.animationTarget(declaration.target)
            guard let id = try? animator.addAnimations(target) else {
                preconditionFailure("an inactive animator accepts animations")
            }
            declared.append((id, clip))
            added.append([])
            let name = declaration.name, log = self.log
            animator.observe { event in
                if case .completion(let position) = event {
                    log.entries.append(ScriptCompletion(name: name, position: position, time: log.time))
                }
            }
            animators.append(animator)
        }
        if let declaration = script.group {
            let group = AnimatorGroup(primary: animator(declaration.primary),
                                      secondaries: declaration.secondaries.map(animator(_:)))
            let name = declaration.name, log = self.log
            group.observe { event in
                if case .completion(let position) = event {
                    log.entries.append(ScriptCompletion(name: name, position: position, time: log.time))
                }
            }
            self.group = group
        }
        // Register in declaration order; the group (not its members) at its first member's place.
        let members = Set(script.group?.members ?? [])
        var groupRegistered = false
        for (declaration, animator) in zip(script.animators, animators) {
            if members.contains(declaration.name) {
                if !groupRegistered, let group {
                    clock.register(group)
                    groupRegistered = true
                }
            } else {
                clock.register(animator)
            }
        }
    }

    private func animator(_ name: String) -> PropertyAnimator {
        guard let index = indexByName[name] else {
            preconditionFailure("unknown animator \(name) in a validated script")
        }
        return animators[index]
    }

    /// The next tick, or `nil` when the playback is over.
    ///
    /// - Throws: ``ScriptError`` when a step is refused; the playback is then over.
    public func next() throws(ScriptError) -> ScriptTick? {
        guard !finished else { return nil }
        guard tickIndex < ScriptRunner.maximumTicks else {
            finished = true
            reachedTickLimit = true
            return nil
        }
        let time = Seconds(Double(tickIndex) / fps)
        if let until, time.value > until.value + 1e-9 {
            finished = true
            return nil
        }
        let steps = runner.script.steps
        while nextStep < steps.count, steps[nextStep].at <= time {
            let step = steps[nextStep]
            move(to: step.at)
            log.time = step.at
            do {
                try apply(step)
            } catch {
                finished = true
                throw ScriptError(file: runner.script.file, .step(index: nextStep, summary: step.summary, error))
            }
            appliedSteps.append(nextStep)
            nextStep += 1
        }
        move(to: time)
        let tick = ScriptTick(index: tickIndex, time: time, animators: samples(), steps: appliedSteps,
                              completions: log.entries)
        appliedSteps.removeAll()
        log.entries.removeAll()
        tickIndex += 1
        if until == nil {
            let lastStep = steps.last?.at ?? .zero
            if time >= lastStep && nextStep == steps.count && isSettled {
                finished = true
            } else if time.value >= lastStep.value + ScriptRunner.settleLimit.value {
                finished = true
                reachedSettleLimit = true
            }
        }
        return tick
    }

    /// Whether nothing will change without another step: no animator is running with animations.
    public var isSettled: Bool {
        animators.allSatisfy { !($0.isRunning && !$0.attachedAnimations.isEmpty) }
    }

    private func move(to time: Seconds) {
        guard time > clock.now else { return }
        log.time = time
        clock.advance(to: time)
    }

    private func apply(_ step: ScriptStep) throws(AnimatorError) {
        if step.isGroup, let group {
            switch step.action {
            case .start: try group.start()
            case .pause: try group.pause()
            case .scrub(let fraction): try group.scrub(by: fraction.value - group.scrubOffsets[0].value)
            case .reverse(let to): if to == nil || to != group.isReversed { try group.reverse() }
            case .continue(let timing, let factor): try group.continue(timing: timing, durationFactor: factor)
            case .stop(let withoutFinishing): try group.stop(withoutFinishing: withoutFinishing)
            case .finish(let position): try group.finish(at: position)
            case .addAnimations: preconditionFailure("validated scripts never add animations to a group")
            }
            return
        }
        guard let index = indexByName[step.subject] else {
            preconditionFailure("unknown animator \(step.subject) in a validated script")
        }
        let animator = animators[index]
        switch step.action {
        case .start(let delay):
            if let delay { try animator.start(afterDelay: delay) } else { try animator.start() }
        case .pause: try animator.pause()
        case .scrub(let fraction): try animator.setFractionComplete(fraction)
        case .reverse(let to): try animator.setReversed(to ?? !animator.isReversed)
        case .continue(let timing, let factor): try animator.continue(timing: timing, durationFactor: factor)
        case .stop(let withoutFinishing): try animator.stop(withoutFinishing: withoutFinishing)
        case .finish(let position): try animator.finish(at: position)
        case .addAnimations(let target, let factor):
            let (engineTarget, clip) = runner.animationTarget(target ?? runner.script.animators[index].target)
            let id = try animator.addAnimations(engineTarget, delayFactor: factor)
            if target == nil { declared[index] = (id, clip) } else { added[index].append((id, clip)) }
        }
    }

    private func samples() -> [ScriptAnimatorSample] {
        var result: [ScriptAnimatorSample] = []
        result.reserveCapacity(animators.count)
        for (index, animator) in animators.enumerated() {
            let value = self.value(animator, declared[index])
            result.append(ScriptAnimatorSample(
                name: runner.script.animators[index].name, state: animator.state, isRunning: animator.isRunning,
                isReversed: animator.isReversed, fractionComplete: animator.fractionComplete,
                value: value?.number, clip: value?.clipTime,
                added: added[index].compactMap { self.value(animator, $0) }))
        }
        return result
    }

    private func value(_ animator: PropertyAnimator, _ entry: (id: AnimationID, clip: ScriptClip?)) -> ScriptTargetValue? {
        switch animator.value(of: entry.id) {
        case .scalar(let number)?:
            return .value(number)
        case .clipTime(let seconds)?:
            guard let clip = entry.clip else { return nil }
            return .clip(ScriptClipTime(clipName: clip.clipName, documentPath: clip.documentPath,
                                        frames: clip.frameRate.frames(for: seconds), seconds: seconds))
        case .vector?, nil:
            return nil
        }
    }
}
