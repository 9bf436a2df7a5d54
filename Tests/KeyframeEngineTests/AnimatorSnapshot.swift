import XCTest
@testable import KeyframeEngine

/// Everything observable about an animator, to prove a refused call changed nothing.
struct AnimatorSnapshot: Equatable {
    var state: AnimatingState
    var isRunning: Bool
    var isReversed: Bool
    var isInterruptible: Bool
    var fraction: Double
    var progress: Double
    var delay: Double
    var values: [AnimatedValue?]
    var animationCount: Int

    init(_ animator: PropertyAnimator, ids: [AnimationID]) {
        state = animator.state
        isRunning = animator.isRunning
        isReversed = animator.isReversed
        isInterruptible = animator.isInterruptible
        fraction = animator.fractionComplete.value
        progress = animator.presentedProgress.value
        delay = animator.delay.value
        values = ids.map { animator.value(of: $0) }
        animationCount = animator.attachedAnimations.count
    }
}

/// Records every event an animator reports.
final class EventLog {
    var events: [AnimatorEvent] = []
    var completions: [AnimatingPosition] = []
    func attach(to animator: PropertyAnimator) {
        animator.observe { [unowned self] in self.events.append($0) }
    }
}
