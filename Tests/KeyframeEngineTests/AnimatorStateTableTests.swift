import XCTest
@testable import KeyframeEngine

/// Every operation in every state: legal calls reach the documented state, illegal calls throw
/// the typed error and change nothing (engine.md §a.2).
final class AnimatorStateTableTests: XCTestCase {
    enum Setup: String, CaseIterable {
        case inactive, running, paused, stopped, inactiveUninterruptible, runningUninterruptible, pausedAtEnd
    }

    enum Op: String, CaseIterable {
        case start, startAfterDelay, pause, stopWithoutFinishing, stopFinishing, finishAtEnd, setFraction
        case setReversed, continueAnimation, addAnimations, addCompletion, setInterruptible
    }

    /// The expected outcome: `nil` = illegal; otherwise state and isRunning afterwards.
    struct Outcome { var state: AnimatingState; var running: Bool }

    static let active = Outcome(state: .active, running: true)
    static let paused = Outcome(state: .active, running: false)
    static let inactive = Outcome(state: .inactive, running: false)
    static let stopped = Outcome(state: .stopped, running: false)

    static func expected(_ setup: Setup, _ op: Op) -> Outcome? {
        switch (setup, op) {
        // inactive
        case (.inactive, .start), (.inactive, .startAfterDelay): return active
        case (.inactive, .pause), (.inactive, .setFraction): return paused
        case (.inactive, .stopWithoutFinishing), (.inactive, .stopFinishing): return inactive
        case (.inactive, .finishAtEnd), (.inactive, .continueAnimation): return nil
        case (.inactive, .setReversed), (.inactive, .addAnimations), (.inactive, .addCompletion),
             (.inactive, .setInterruptible): return inactive
        // running
        case (.running, .start), (.running, .setReversed), (.running, .addAnimations),
             (.running, .addCompletion): return active
        case (.running, .pause): return paused
        case (.running, .stopWithoutFinishing): return inactive
        case (.running, .stopFinishing): return stopped
        case (.running, .startAfterDelay), (.running, .finishAtEnd), (.running, .setFraction),
             (.running, .continueAnimation), (.running, .setInterruptible): return nil
        // paused (also paused at the end by pausesOnCompletion)
        case (.paused, .start), (.paused, .continueAnimation), (.pausedAtEnd, .start),
             (.pausedAtEnd, .continueAnimation): return active
        case (.paused, .pause), (.paused, .setFraction), (.paused, .setReversed), (.paused, .addAnimations),
             (.paused, .addCompletion), (.pausedAtEnd, .pause), (.pausedAtEnd, .setFraction),
             (.pausedAtEnd, .setReversed), (.pausedAtEnd, .addAnimations), (.pausedAtEnd, .addCompletion):
            return paused
        case (.paused, .stopWithoutFinishing), (.pausedAtEnd, .stopWithoutFinishing): return inactive
        case (.paused, .stopFinishing), (.pausedAtEnd, .stopFinishing): return stopped
        case (.paused, .startAfterDelay), (.paused, .finishAtEnd), (.paused, .setInterruptible),
             (.pausedAtEnd, .startAfterDelay), (.pausedAtEnd, .finishAtEnd), (.pausedAtEnd, .setInterruptible):
            return nil
        // stopped: only finish(at:) and addCompletion
        case (.stopped, .finishAtEnd): return inactive
        case (.stopped, .addCompletion): return stopped
        case (.stopped, _): return nil
        // not interruptible
        case (.inactiveUninterruptible, .pause), (.inactiveUninterruptible, .finishAtEnd),
             (.inactiveUninterruptible, .continueAnimation): return nil
        case (.inactiveUninterruptible, .start), (.inactiveUninterruptible, .startAfterDelay): return active
        case (.inactiveUninterruptible, .setFraction): return paused
        case (.inactiveUninterruptible, _): return inactive
        case (.runningUninterruptible, .start), (.runningUninterruptible, .setReversed),
             (.runningUninterruptible, .addAnimations), (.runningUninterruptible, .addCompletion): return active
        case (.runningUninterruptible, _): return nil
        }
    }

    func make(_ setup: Setup) throws -> (PropertyAnimator, [AnimationID]) {
        let animator = PropertyAnimator(duration: 1, timing: .easeInEaseOut)
        let id = try animator.addAnimations(.value(from: 10, to: 20))
        switch setup {
        case .inactive: break
        case .running:
            try animator.start(); animator.advance(by: 0.3)
        case .paused:
            try animator.start(); animator.advance(by: 0.3); try animator.pause()
        case .stopped:
            try animator.start(); animator.advance(by: 0.3); try animator.stop(withoutFinishing: false)
        case .inactiveUninterruptible:
            try animator.setInterruptible(false)
        case .runningUninterruptible:
            try animator.setInterruptible(false); try animator.start(); animator.advance(by: 0.3)
        case .pausedAtEnd:
            animator.pausesOnCompletion = true
            try animator.start(); animator.advance(by: 2)
        }
        return (animator, [id])
    }

    func perform(_ op: Op, on animator: PropertyAnimator) throws(AnimatorError) {
        switch op {
        case .start: try animator.start()
        case .startAfterDelay: try animator.start(afterDelay: 0.1)
        case .pause: try animator.pause()
        case .stopWithoutFinishing: try animator.stop(withoutFinishing: true)
        case .stopFinishing: try animator.stop(withoutFinishing: false)
        case .finishAtEnd: try animator.finish(at: .end)
        case .setFraction: try animator.setFractionComplete(0.5)
        case .setReversed: try animator.setReversed(!animator.isReversed)
        case .continueAnimation: try animator.continue(timing: .linear, durationFactor: 0)
        case .addAnimations: try animator.addAnimations(.value(from: 0, to: 1))
        case .addCompletion: animator.addCompletion { _ in }
        case .setInterruptible: try animator.setInterruptible(!animator.isInterruptible)
        }
    }

    static let operation: [Op: AnimatorOperation] = [
        .start: .start, .startAfterDelay: .startAfterDelay, .pause: .pause, .stopWithoutFinishing: .stop,
        .stopFinishing: .stop, .finishAtEnd: .finish, .setFraction: .setFractionComplete,
        .setReversed: .setReversed, .continueAnimation: .continueAnimation, .addAnimations: .addAnimations,
        .addCompletion: .addCompletion, .setInterruptible: .setInterruptible,
    ]

    func testEveryOperationInEveryState() throws {
        var legal = 0, illegal = 0
        for setup in Setup.allCases {
            for op in Op.allCases {
                let (animator, ids) = try make(setup)
                let log = EventLog()
                log.attach(to: animator)
                let before = AnimatorSnapshot(animator, ids: ids)
                let label = "\(op.rawValue) in \(setup.rawValue)"
                XCTAssertEqual(animator.refusal(of: Self.operation[op]!) == nil, Self.expected(setup, op) != nil, label)
                do {
                    try perform(op, on: animator)
                    guard let outcome = Self.expected(setup, op) else {
                        XCTFail("\(label) should have thrown"); continue
                    }
                    legal += 1
                    XCTAssertEqual(animator.state, outcome.state, label)
                    XCTAssertEqual(animator.isRunning, outcome.running, label)
                } catch {
                    XCTAssertNil(Self.expected(setup, op), "\(label) threw \(error)")
                    illegal += 1
                    XCTAssertEqual(error.kind, .illegalState, label)
                    XCTAssertEqual(error.operation, Self.operation[op], label)
                    XCTAssertEqual(error.state, before.state, label)
                    XCTAssertFalse(error.description.isEmpty)
                    XCTAssertEqual(AnimatorSnapshot(animator, ids: ids), before, "\(label) changed the animator")
                    XCTAssertEqual(log.events, [], "\(label) reported events")
                }
            }
        }
        XCTAssertEqual(legal + illegal, Setup.allCases.count * Op.allCases.count)
        XCTAssertGreaterThan(illegal, 20)
    }

    /// No-ops documented by UIKit change nothing and report nothing.
    func testDocumentedNoOps() throws {
        for (setup, op) in [(Setup.running, Op.start), (.paused, .pause), (.inactive, .stopWithoutFinishing),
                            (.inactive, .stopFinishing)] {
            let (animator, ids) = try make(setup)
            let log = EventLog()
            log.attach(to: animator)
            let before = AnimatorSnapshot(animator, ids: ids)
            try perform(op, on: animator)
            XCTAssertEqual(AnimatorSnapshot(animator, ids: ids), before, "\(op) in \(setup)")
            XCTAssertEqual(log.events, [])
        }
    }

    func testInvalidArgumentsAreRefusedWithoutChange() throws {
        let (animator, ids) = try make(.inactive)
        let before = AnimatorSnapshot(animator, ids: ids)
        XCTAssertThrowsError(try animator.start(afterDelay: -1)) { error in
            XCTAssertEqual((error as? AnimatorError)?.kind, .invalidArgument)
        }
        XCTAssertThrowsError(try animator.addAnimations(.value(from: 0, to: 1), delayFactor: 1.5)) { error in
            XCTAssertEqual((error as? AnimatorError)?.kind, .invalidArgument)
        }
        XCTAssertEqual(AnimatorSnapshot(animator, ids: ids), before)
    }

    /// The property setters swallow what the throwing variants refuse, as UIKit's setters do.
    func testPropertySettersIgnoreIllegalStates() throws {
        let (running, ids) = try make(.running)
        let before = AnimatorSnapshot(running, ids: ids)
        running.fractionComplete = 0.9
        XCTAssertEqual(AnimatorSnapshot(running, ids: ids), before)
        let (stopped, stoppedIDs) = try make(.stopped)
        let stoppedBefore = AnimatorSnapshot(stopped, ids: stoppedIDs)
        stopped.isReversed = true
        stopped.fractionComplete = 0.1
        XCTAssertEqual(AnimatorSnapshot(stopped, ids: stoppedIDs), stoppedBefore)
    }
}
