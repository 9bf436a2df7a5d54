import KeyframeTestSupport
import XCTest
@testable import KeyframeEngine

/// Behaviour of single animators: runs, reversal, completion positions, scrubbing, continuing.
final class AnimatorBehaviourTests: XCTestCase {
    func makeRunning(_ timing: TimingCurve = .linear, duration: Seconds = 1) throws
        -> (PropertyAnimator, AnimationID) {
        let animator = PropertyAnimator(duration: duration, timing: timing)
        let id = try animator.addAnimations(.value(from: 0, to: 100))
        try animator.start()
        return (animator, id)
    }

    func scalar(_ animator: PropertyAnimator, _ id: AnimationID) -> Double {
        animator.value(of: id)?.scalar ?? .nan
    }

    func testForwardRunFollowsTheCurveAndCompletesAtEnd() throws {
        let (animator, id) = try makeRunning(.easeIn, duration: 2)
        var positions: [AnimatingPosition] = []
        animator.addCompletion { positions.append($0) }
        animator.advance(by: 0.5)
        assertClose(scalar(animator, id), 100 * TimingCurve.easeIn.evaluate(0.25))
        assertClose(animator.fractionComplete.value, 0.25)
        animator.advance(by: 1.49)
        XCTAssertEqual(positions, [])
        animator.advance(by: 0.02)
        XCTAssertEqual(positions, [.end])
        XCTAssertEqual(animator.state, .inactive)
        assertClose(scalar(animator, id), 100, tolerance: 0)
        // Animations and completions are invalidated at inactive.
        XCTAssertTrue(animator.attachedAnimations.isEmpty)
        try animator.start()
        animator.advance(by: 5)
        XCTAssertEqual(positions, [.end], "a completion runs once")
    }

    func testReversedRunEndsAtStartAndFractionIsDirectionRelative() throws {
        let (animator, id) = try makeRunning(.linear, duration: 1)
        animator.advance(by: 0.3)
        animator.isReversed = true
        assertClose(animator.fractionComplete.value, 0.7, tolerance: 1e-12)
        assertClose(scalar(animator, id), 30, tolerance: 1e-9)
        var positions: [AnimatingPosition] = []
        animator.addCompletion { positions.append($0) }
        animator.advance(by: 0.2)
        assertClose(scalar(animator, id), 10, tolerance: 1e-9)
        animator.advance(by: 0.2)
        XCTAssertEqual(positions, [.start])
        assertClose(scalar(animator, id), 0, tolerance: 0)
    }

    func testPausesOnCompletionHoldsWithoutCompleting() throws {
        let (animator, id) = try makeRunning()
        animator.pausesOnCompletion = true
        var called = false
        animator.addCompletion { _ in called = true }
        let log = EventLog()
        log.attach(to: animator)
        animator.advance(by: 3)
        XCTAssertFalse(called)
        XCTAssertEqual(animator.state, .active)
        XCTAssertFalse(animator.isRunning)
        XCTAssertEqual(log.events, [.running(false)])
        assertClose(scalar(animator, id), 100)
        // Reversing from the held end plays back.
        animator.isReversed = true
        try animator.start()
        animator.advance(by: 0.25)
        assertClose(scalar(animator, id), 75, tolerance: 1e-9)
    }

    func testStopWithoutFinishingFreezesAndCallsNoCompletion() throws {
        let (animator, id) = try makeRunning()
        var called = false
        animator.addCompletion { _ in called = true }
        animator.advance(by: 0.4)
        try animator.stop(withoutFinishing: true)
        XCTAssertEqual(animator.state, .inactive)
        assertClose(scalar(animator, id), 40, tolerance: 1e-9)
        animator.advance(by: 1)
        XCTAssertFalse(called)
    }

    func testStopThenFinishAtEachPosition() throws {
        for (position, expected) in [(AnimatingPosition.end, 100.0), (.start, 0), (.current, 40)] {
            let (animator, id) = try makeRunning()
            var reported: [AnimatingPosition] = []
            animator.addCompletion { reported.append($0) }
            animator.advance(by: 0.4)
            try animator.stop(withoutFinishing: false)
            animator.advance(by: 0.4)
            assertClose(scalar(animator, id), 40, tolerance: 1e-9, "frozen while stopped")
            animator.addCompletion { reported.append($0) }   // legal while stopped
            try animator.finish(at: position)
            XCTAssertEqual(reported, [position, position])
            assertClose(scalar(animator, id), expected, tolerance: 1e-9, "\(position)")
        }
    }

    func testSettingFractionOnInactiveActivatesPaused() throws {
        let animator = PropertyAnimator(duration: 1, timing: .easeInEaseOut)
        let id = try animator.addAnimations(.value(from: 0, to: 10))
        let log = EventLog()
        log.attach(to: animator)
        animator.fractionComplete = 0.25
        XCTAssertEqual(animator.state, .active)
        XCTAssertFalse(animator.isRunning)
        XCTAssertEqual(log.events, [.state(.active)])
        assertClose(scalar(animator, id), 2.5, tolerance: 1e-12, "scrubsLinearly: value linear in the fraction")
        animator.scrubsLinearly = false
        try animator.start(); try animator.pause()
        animator.fractionComplete = 0.25
        assertClose(scalar(animator, id), 10 * TimingCurve.easeInEaseOut.evaluate(0.25), tolerance: 1e-12)
        animator.fractionComplete = 1.7
        assertClose(animator.fractionComplete.value, 1, tolerance: 0, "clamped")
    }

    /// Linear scrub, then resume: the curve is re-entered where its progress equals the scrub.
    func testLinearScrubThenStartReentersTheCurve() throws {
        let curve = TimingCurve.easeInEaseOut
        let (animator, id) = try makeRunning(curve, duration: 1)
        animator.advance(by: 0.2)
        try animator.pause()
        assertClose(animator.fractionComplete.value, curve.evaluate(0.2), tolerance: 1e-12,
                    "paused with scrubsLinearly reads the value progress")
        animator.fractionComplete = 0.6
        try animator.start()
        assertClose(scalar(animator, id), 60, tolerance: 1e-7)
        let u = try XCTUnwrap(curve.time(forProgress: 0.6, near: 0.2))
        animator.advance(by: 0.1)
        assertClose(scalar(animator, id), 100 * curve.evaluate(u + 0.1), tolerance: 1e-6)
    }

    /// Linear scrub of a spring restarts a spring at rest from the scrubbed value over the remaining time.
    func testLinearScrubOfSpringRestartsFromScrubbedValue() throws {
        let spring = TimingCurve.spring(dampingRatio: 0.8)
        let (animator, id) = try makeRunning(spring, duration: 2)
        animator.advance(by: 0.2)
        try animator.pause()
        animator.fractionComplete = 0.5
        try animator.start()
        animator.advance(by: 0.25)
        assertClose(scalar(animator, id), 50 + 50 * spring.evaluate(0.25 / 1.0, duration: 1), tolerance: 1e-9)
        animator.advance(by: 0.76)
        XCTAssertEqual(animator.state, .inactive)
    }

    func testContinueWithFactorZeroKeepsRemainingTime() throws {
        let (animator, _) = try makeRunning(.easeOut, duration: 2)
        animator.advance(by: 0.5)
        try animator.pause()
        try animator.continue(timing: nil, durationFactor: 0)
        animator.advance(by: 1.49)
        XCTAssertEqual(animator.state, .active)
        animator.advance(by: 0.02)
        XCTAssertEqual(animator.state, .inactive)
    }

    func testContinueWithNewTimingReparameterisesFromCurrentProgress() throws {
        let (animator, id) = try makeRunning(.linear, duration: 2)
        animator.advance(by: 0.5)            // p = 0.25
        try animator.pause()
        try animator.continue(timing: .easeIn, durationFactor: 0.5)   // R = 1 s
        animator.advance(by: 0.4)
        assertClose(scalar(animator, id), 25 + 75 * TimingCurve.easeIn.evaluate(0.4), tolerance: 1e-9)
        animator.advance(by: 0.61)
        XCTAssertEqual(animator.state, .inactive)
        assertClose(scalar(animator, id), 100, tolerance: 0)
    }

    func testContinueWithNilTimingAndFactorChangesOnlyTheRate() throws {
        let (animator, id) = try makeRunning(.easeInEaseOut, duration: 1)
        animator.advance(by: 0.5)
        try animator.pause()
        try animator.continue(timing: nil, durationFactor: 2)   // remaining half of the curve over 2 s
        animator.advance(by: 1)
        assertClose(scalar(animator, id), 100 * TimingCurve.easeInEaseOut.evaluate(0.75), tolerance: 1e-9)
        animator.advance(by: 1.01)
        XCTAssertEqual(animator.state, .inactive)
    }

    /// Overrides from continue are dropped at inactive: the next run uses the original timing.
    func testContinueOverrideDroppedAfterCompletion() throws {
        let (animator, _) = try makeRunning(.linear, duration: 1)
        try animator.pause()
        try animator.continue(timing: .easeIn, durationFactor: 3)
        animator.advance(by: 3.1)
        XCTAssertEqual(animator.state, .inactive)
        let id = try animator.addAnimations(.value(from: 0, to: 10))
        try animator.start()
        animator.advance(by: 0.5)
        assertClose(scalar(animator, id), 5, tolerance: 1e-9)
    }

    func testSpringContinueVelocityIsRescaledToRemainingDistance() throws {
        let (animator, _) = try makeRunning(.linear, duration: 1)
        animator.advance(by: 0.5)
        try animator.pause()
        try animator.continue(timing: .spring(dampingRatio: 1, initialVelocity: 2), durationFactor: 1)
        guard case .segment(let segment) = animator.motion, case .spring(let timing) = segment.curve else {
            return XCTFail("expected a spring segment")
        }
        assertClose(timing.spring.initialVelocity, 4, tolerance: 1e-12)
    }

    func testPhysicalSpringUsesItsOwnDuration() {
        let animator = PropertyAnimator(duration: 10, timing: .spring(mass: 1, stiffness: 100, damping: 10))
        assertClose(animator.duration.value, 1.4727003346780927, tolerance: 1e-6)
    }

    func testAnimationAddedMidFlightRunsOverTheRemainder() throws {
        let (animator, first) = try makeRunning(.linear, duration: 1)
        animator.advance(by: 0.5)
        let second = try animator.addAnimations(.value(from: 0, to: 10))
        let delayed = try animator.addAnimations(.value(from: 0, to: 10), delayFactor: 0.5)
        assertClose(scalar(animator, second), 0)
        animator.advance(by: 0.25)
        assertClose(scalar(animator, first), 75, tolerance: 1e-9)
        assertClose(scalar(animator, second), 5, tolerance: 1e-9)
        assertClose(scalar(animator, delayed), 0, tolerance: 1e-9, "starts after half of the remaining 0.5 s")
        animator.advance(by: 0.125)
        assertClose(scalar(animator, delayed), 5, tolerance: 1e-9)
        animator.advance(by: 0.2)
        assertClose(scalar(animator, second), 10, tolerance: 0)
        assertClose(scalar(animator, delayed), 10, tolerance: 0)
    }

    func testStartWithoutAnimationsWaitsUntilOneIsAdded() throws {
        let animator = PropertyAnimator(duration: 1, timing: .linear)
        try animator.start()
        animator.advance(by: 0.5)
        assertClose(animator.fractionComplete.value, 0, tolerance: 0)
        let id = try animator.addAnimations(.value(from: 0, to: 1))
        animator.advance(by: 0.5)
        assertClose(scalar(animator, id), 0.5, tolerance: 1e-12)
    }

    func testStartAfterDelayHoldsTheStartValue() throws {
        let animator = PropertyAnimator(duration: 1, timing: .linear)
        let id = try animator.addAnimations(.value(from: 0, to: 1))
        try animator.start(afterDelay: 0.3)
        assertClose(animator.delay.value, 0.3)
        animator.advance(by: 0.2)
        assertClose(scalar(animator, id), 0, tolerance: 0)
        animator.advance(by: 0.2)
        assertClose(scalar(animator, id), 0.1, tolerance: 1e-12)
    }

    func testClipTargetMapsProgressToClipTime() throws {
        let animator = PropertyAnimator(duration: 4, timing: .linear)
        let id = try animator.addAnimations(.clip(duration: 2))
        try animator.start()
        animator.advance(by: 1)
        assertClose(animator.value(of: id)?.clipTime?.value ?? -1, 0.5, tolerance: 1e-12)
        XCTAssertEqual(AnimationTarget.clip(duration: 2).value(at: 1.3), .clipTime(2), "clamped to the clip")
        XCTAssertEqual(AnimationTarget.vector(from: [0, 10], to: [10, 30]).value(at: 0.5), .vector([5, 20]))
    }

    func testObserverSeesEveryChangeOnceInOrder() throws {
        let animator = PropertyAnimator(duration: 1, timing: .linear)
        try animator.addAnimations(.value(from: 0, to: 1))
        let log = EventLog()
        log.attach(to: animator)
        try animator.start()
        animator.advance(by: 0.5)
        try animator.pause()
        animator.isReversed = true
        animator.isReversed = true          // no change, no event
        try animator.start()
        animator.advance(by: 1)
        XCTAssertEqual(log.events, [.state(.active), .running(true), .running(false), .reversed(true),
                                    .running(true), .running(false), .state(.inactive), .completion(.start)])
        let token = animator.observe { _ in XCTFail("removed observers are not called") }
        animator.removeObserver(token)
        try animator.addAnimations(.value(from: 0, to: 1))
        try animator.start()
        try animator.stop(withoutFinishing: false)
        try animator.finish(at: .current)
        XCTAssertEqual(Array(log.events.suffix(6)), [.state(.active), .running(true), .running(false),
                                                     .state(.stopped), .state(.inactive), .completion(.current)])
    }

    func testRunningConvenienceStartsImmediately() throws {
        var done: AnimatingPosition?
        let animator = try PropertyAnimator.running(duration: 1, delay: 0.5, timing: .linear,
                                                    target: .value(from: 0, to: 1)) { done = $0 }
        XCTAssertTrue(animator.isRunning)
        animator.advance(by: 1.6)
        XCTAssertEqual(done, .end)
    }
}

final class AnimatorStatusTests: XCTestCase {
    func testStatusSnapshotsAndEncodesDeterministically() throws {
        let animator = PropertyAnimator(duration: 2, timing: .linear)
        try animator.addAnimations(.value(from: 0, to: 10))
        try animator.addAnimations(.clip(duration: 4))
        try animator.addAnimations(.vector(from: [0, 0], to: [2, 4]))
        try animator.start()
        animator.advance(by: 1)
        let status = animator.status
        XCTAssertEqual(status.state, .active)
        XCTAssertTrue(status.isRunning)
        assertClose(status.fractionComplete, 0.5, tolerance: 1e-12)
        XCTAssertEqual(status.values.map(\.id), [1, 2, 3])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(status), as: UTF8.self)
        XCTAssertEqual(text, #"{"fractionComplete":0.5,"isReversed":false,"isRunning":true,"progress":0.5,"state":"active","#
                       + #""values":[{"id":1,"value":5},{"id":2,"value":{"clipTime":2}},{"id":3,"value":[1,2]}]}"#)
        XCTAssertEqual(try JSONDecoder().decode(AnimatorStatus.self, from: Data(text.utf8)), status)
        // After completion the values left behind are still reported.
        animator.advance(by: 1)
        XCTAssertEqual(animator.status.values.map(\.value), [.scalar(10), .clipTime(4), .vector([2, 4])])
    }
}
