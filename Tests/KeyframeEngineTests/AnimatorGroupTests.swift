import KeyframeTestSupport
import XCTest
@testable import KeyframeEngine

/// The WWDC 2017-230 coordinated-animator pattern.
final class AnimatorGroupTests: XCTestCase {
    func makeGroup() throws -> (AnimatorGroup, [AnimationID], VirtualClock) {
        let frame = PropertyAnimator(duration: 1, timing: .spring(dampingRatio: 1))
        let blur = PropertyAnimator(duration: 1, timing: .bezier(0.1, 0.75, 0.25, 0.9))
        blur.scrubsLinearly = false
        let corner = PropertyAnimator(duration: 0.5, timing: .linear)
        let ids = [try frame.addAnimations(.value(from: 0, to: 300)), try blur.addAnimations(.value(from: 0, to: 1)),
                   try corner.addAnimations(.value(from: 0, to: 12))]
        let group = AnimatorGroup(primary: frame, secondaries: [blur, corner])
        let clock = VirtualClock()
        clock.register(group)
        return (group, ids, clock)
    }

    func testScrubKeepsEachMembersOwnOffset() throws {
        let (group, _, clock) = try makeGroup()
        try group.start()
        clock.advance(by: 0.2)
        try group.pause()
        let offsets = group.members.map(\.fractionComplete.value)
        XCTAssertEqual(group.scrubOffsets.map(\.value), offsets)
        XCTAssertNotEqual(offsets[0], offsets[1], "curves differ, so do the offsets")
        try group.scrub(by: 0.1)
        for (member, offset) in zip(group.members, offsets) {
            assertClose(member.fractionComplete.value, min(1, offset + 0.1), tolerance: 1e-12)
        }
        try group.scrub(by: -0.05)    // relative to the same offsets, not cumulative
        for (member, offset) in zip(group.members, offsets) {
            assertClose(member.fractionComplete.value, max(0, offset - 0.05), tolerance: 1e-12)
        }
    }

    func testGroupCompletesOnceWhenAllMembersArriveAtOnePosition() throws {
        let (group, ids, clock) = try makeGroup()
        var groupPositions: [AnimatingPosition] = []
        var memberPositions: [AnimatingPosition] = []
        group.addCompletion { groupPositions.append($0) }
        for member in group.members { member.addCompletion { memberPositions.append($0) } }
        try group.start()
        clock.advance(by: 0.6)
        // The 0.5 s member waits at its end for the others.
        XCTAssertEqual(group.secondaries[1].state, .active)
        XCTAssertFalse(group.secondaries[1].isRunning)
        XCTAssertEqual(memberPositions, [])
        clock.advance(by: 0.5)
        XCTAssertEqual(groupPositions, [.end])
        XCTAssertEqual(memberPositions, [.end, .end, .end])
        XCTAssertTrue(group.members.allSatisfy { $0.state == .inactive })
        assertClose(group.primary.value(of: ids[0])?.scalar ?? 0, 300, tolerance: 1e-9)
        clock.advance(by: 1)
        XCTAssertEqual(groupPositions, [.end], "once")
    }

    func testReverseTurnsAroundMembersThatAlreadyArrived() throws {
        let (group, ids, clock) = try makeGroup()
        var positions: [AnimatingPosition] = []
        group.addCompletion { positions.append($0) }
        try group.start()
        clock.advance(by: 0.7)           // corner (0.5 s) is waiting at its end
        try group.reverse()
        XCTAssertTrue(group.members.allSatisfy { $0.isRunning && $0.isReversed })
        clock.advance(by: 0.1)
        XCTAssertLessThan(group.secondaries[1].value(of: ids[2])?.scalar ?? 99, 12)
        clock.advance(by: 1)
        XCTAssertEqual(positions, [.start])
        assertClose(group.secondaries[0].value(of: ids[1])?.scalar ?? -1, 0, tolerance: 1e-12)
    }

    func testPanPatternPauseScrubFlipContinue() throws {
        let (group, ids, clock) = try makeGroup()
        try group.start()
        clock.advance(by: 0.3)
        try group.pause()
        let before = zip(group.members, ids).map { $0.value(of: $1)?.scalar ?? .nan }
        try group.scrub(by: 0)
        let after = zip(group.members, ids).map { $0.value(of: $1)?.scalar ?? .nan }
        for (b, a) in zip(before, after) { assertClose(a, b, tolerance: 1e-9, "a zero scrub keeps the frame") }
        try group.scrub(by: 0.2)
        try group.reverse()               // flip on pan end, then continue with ease-out over the remaining time
        XCTAssertTrue(group.members.allSatisfy { !$0.isRunning && $0.isReversed },
                      "UIKit: reversing a paused animator only sets the direction for the next run")
        try group.continue(timing: .easeOut, durationFactor: 0)
        var position: AnimatingPosition?
        group.addCompletion { position = $0 }
        clock.advance(by: 1.5)
        XCTAssertEqual(position, .start)
    }

    func testRefusedGroupOperationChangesNoMember() throws {
        let (group, ids, clock) = try makeGroup()
        try group.start()
        clock.advance(by: 0.2)
        try group.secondaries[0].stop(withoutFinishing: false)   // one member stopped behind the group's back
        let before = group.members.map { AnimatorSnapshot($0, ids: ids) }
        XCTAssertThrowsError(try group.pause())
        XCTAssertThrowsError(try group.continue(timing: nil, durationFactor: 0))
        XCTAssertEqual(group.members.map { AnimatorSnapshot($0, ids: ids) }, before)
    }

    func testGroupPausesOnCompletionHoldsEveryone() throws {
        let (group, _, clock) = try makeGroup()
        group.pausesOnCompletion = true
        var called = false
        group.addCompletion { _ in called = true }
        try group.start()
        clock.advance(by: 2)
        XCTAssertFalse(called)
        XCTAssertTrue(group.members.allSatisfy { $0.state == .active && !$0.isRunning })
    }
}
