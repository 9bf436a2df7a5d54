import KeyframeTestSupport
import XCTest
@testable import KeyframeEngine

/// Invariants over many random operation sequences (seeded, so failures replay).
final class AnimatorPropertyTests: XCTestCase {
    static func randomCurve(_ rng: inout SeededGenerator) -> TimingCurve {
        switch Int.random(in: 0..<9, using: &rng) {
        case 0: return .linear
        case 1: return .easeIn
        case 2: return .easeOut
        case 3: return .easeInEaseOut
        case 4: return .default
        case 5: return .bezier(0.68, -0.55, 0.265, 1.55)
        case 6: return .spring(dampingRatio: Double.random(in: 0.3...1.6, using: &rng))
        case 7: return .spring(mass: 1, stiffness: Double.random(in: 50...300, using: &rng),
                               damping: Double.random(in: 8...30, using: &rng))
        default: return .quadraticEase(Double.random(in: -1...1, using: &rng))
        }
    }

    enum Op: CaseIterable {
        case tick, bigTick, start, pause, reverse, scrub, continueNil, continueNew, stopTrue, stopFalse, finish
        case addAnimation, toggleLinear, toggleHold
    }

    func values(_ animator: PropertyAnimator, _ ids: [AnimationID]) -> [Double] {
        ids.map { animator.value(of: $0)?.components.first ?? .nan }
    }

    func assertContinuous(_ before: [Double], _ after: [Double], _ label: String) {
        for (b, a) in zip(before, after) where !b.isNaN {
            XCTAssertLessThanOrEqual(abs(a - b), 1e-6 * max(1, abs(b)), label)
        }
    }

    func testInvariantsOverRandomSequences() throws {
        var checks = 0
        for seed in 0..<400 {
            var rng = SeededGenerator(seed: UInt64(seed))
            let animator = PropertyAnimator(duration: Seconds(Double.random(in: 0.2...2, using: &rng)),
                                            timing: Self.randomCurve(&rng))
            animator.scrubsLinearly = Bool.random(using: &rng)
            var ids = [try animator.addAnimations(.value(from: 0, to: 100))]
            var pending = Set<Int>(), forbidden = Set<Int>(), nextCompletion = 0
            var naturalCompletion: AnimatingPosition?
            func addCompletion() {
                nextCompletion += 1
                let key = nextCompletion
                pending.insert(key)
                animator.addCompletion { position in
                    XCTAssertFalse(forbidden.contains(key), "seed \(seed): completion ran after stop(withoutFinishing: true)")
                    XCTAssertTrue(pending.remove(key) != nil, "seed \(seed): completion ran twice")
                    naturalCompletion = position
                }
            }
            addCompletion()
            var history: [Op] = []
            for _ in 0..<40 {
                let op = Op.allCases.randomElement(using: &rng)!
                history.append(op)
                let label = "seed \(seed) ops \(history)"
                let before = values(animator, ids)
                let wasPaused = animator.state == .active && !animator.isRunning
                let wasReversed = animator.isReversed
                naturalCompletion = nil
                switch op {
                case .tick, .bigTick:
                    let dt = op == .tick ? Double.random(in: 0...0.05, using: &rng) : Double.random(in: 0...1, using: &rng)
                    let wasRunning = animator.isRunning
                    animator.advance(by: Seconds(dt))
                    if let position = naturalCompletion, wasRunning {
                        XCTAssertEqual(position, wasReversed ? .start : .end, "\(label): natural end position")
                        checks += 1
                    }
                case .start:
                    let scrubbedLinear = wasPaused
                    try? animator.start()
                    if scrubbedLinear { assertContinuous(before, values(animator, ids), "\(label): resume jumped"); checks += 1 }
                case .pause:
                    try? animator.pause()
                    assertContinuous(before, values(animator, ids), "\(label): pause jumped"); checks += 1
                case .reverse:
                    try? animator.setReversed(!animator.isReversed)
                    if animator.state == .active {
                        assertContinuous(before, values(animator, ids), "\(label): reverse jumped"); checks += 1
                    }
                case .scrub:
                    try? animator.setFractionComplete(Progress(Double.random(in: -0.1...1.1, using: &rng)))
                case .continueNil, .continueNew:
                    let timing = op == .continueNil ? nil : Self.randomCurve(&rng)
                    let factor = Bool.random(using: &rng) ? 0 : Double.random(in: 0.1...2, using: &rng)
                    if (try? animator.continue(timing: timing, durationFactor: factor)) != nil {
                        assertContinuous(before, values(animator, ids), "\(label): continue jumped"); checks += 1
                        // The presented progress stays continuous a moment later, too (animations added
                        // late span a small part of the progress, so they may legitimately move fast).
                        let now = animator.presentedProgress.value
                        animator.advance(by: 1e-4)
                        if animator.state == .active {
                            XCTAssertLessThanOrEqual(abs(animator.presentedProgress.value - now), 0.1,
                                                     "\(label): continue moved too fast")
                        }
                    }
                case .stopTrue:
                    let wasActive = animator.state == .active
                    if (try? animator.stop(withoutFinishing: true)) != nil, wasActive {
                        forbidden.formUnion(pending); pending.removeAll()
                        assertContinuous(before, values(animator, ids), "\(label): stop jumped")
                    }
                case .stopFalse:
                    try? animator.stop(withoutFinishing: false)
                case .finish:
                    try? animator.finish(at: AnimatingPosition.allCases.randomElement(using: &rng)!)
                case .addAnimation:
                    if let id = try? animator.addAnimations(.value(from: 0, to: 100),
                                                            delayFactor: Double.random(in: 0...1, using: &rng)) {
                        ids.append(id)
                    }
                    addCompletion()
                case .toggleLinear:
                    animator.scrubsLinearly.toggle()
                case .toggleHold:
                    animator.pausesOnCompletion.toggle()
                }
                let fraction = animator.fractionComplete.value
                XCTAssert((0...1).contains(fraction), "\(label): fractionComplete \(fraction)")
                XCTAssertFalse(animator.presentedProgress.value.isNaN, label)
            }
        }
        XCTAssertGreaterThan(checks, 2000)
    }

    /// `continue(timing:durationFactor: 0)` finishes exactly after the remaining time of the schedule.
    func testDurationFactorZeroKeepsRemainingTime() throws {
        for seed in 0..<300 {
            var rng = SeededGenerator(seed: UInt64(1000 + seed))
            let duration = Double.random(in: 0.3...3, using: &rng)
            let animator = PropertyAnimator(duration: Seconds(duration), timing: Self.randomCurve(&rng))
            animator.scrubsLinearly = false
            try animator.addAnimations(.value(from: 0, to: 1))
            try animator.start()
            animator.advance(by: Seconds(Double.random(in: 0...0.9, using: &rng) * animator.duration.value))
            try animator.pause()
            if Bool.random(using: &rng) { animator.isReversed = true }
            if Bool.random(using: &rng) { animator.fractionComplete = Progress(Double.random(in: 0...1, using: &rng)) }
            let remaining = (1 - animator.fractionComplete.value) * animator.duration.value
            var timing: TimingCurve? = Bool.random(using: &rng) ? nil : Self.randomCurve(&rng)
            if timing?.intrinsicDuration != nil { timing = .easeOut }
            try animator.continue(timing: timing, durationFactor: 0)
            animator.advance(by: Seconds(max(0, remaining - 1e-6)))
            if remaining > 1e-5 { XCTAssertEqual(animator.state, .active, "seed \(seed) finished early") }
            animator.advance(by: Seconds(2e-6))
            XCTAssertEqual(animator.state, .inactive, "seed \(seed) did not finish after the remaining \(remaining)s")
        }
    }

    /// A fresh pause right after start does not move the frame, for every curve (§a.4).
    func testPauseAndReverseWhilePausedNeverMoveTheFrame() throws {
        var rng = SeededGenerator(seed: 99)
        for _ in 0..<200 {
            let animator = PropertyAnimator(duration: 1, timing: Self.randomCurve(&rng))
            let id = try animator.addAnimations(.value(from: -50, to: 50))
            try animator.start()
            animator.advance(by: Seconds(Double.random(in: 0...0.99, using: &rng) * animator.duration.value))
            let before = animator.value(of: id)
            try animator.pause()
            XCTAssertEqual(animator.value(of: id), before)
            animator.isReversed.toggle()
            XCTAssertEqual(animator.value(of: id), before)
            try animator.start()
            XCTAssertEqual(animator.value(of: id), before)
        }
    }
}
