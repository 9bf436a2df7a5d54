import KeyframeTestSupport
import XCTest
@testable import KeyframeEngine

/// The clock's batch lane must be invisible: the same values, states and events as advancing
/// each animator on its own, to the last bit, whatever operations interrupt it.
final class AnimatorLaneTests: XCTestCase {
    private let curves: [TimingCurve] = [
        .linear, .easeIn, .easeOut, .easeInEaseOut, .default, .bezier(0.68, -0.55, 0.265, 1.55),
        .bezier(0.1, 0.7, 1, 0.1), .bezier(0, 0, 1, 1), .bezier(1, 0, 0, 1), .spring(dampingRatio: 0.5),
        .steps(3, .end), .quadraticEase(0.4),
    ]

    /// The prepared table gives the bits of `CubicBezier.progress(at:)` (it only stores what that computes), and takes
    /// every curve except those whose x leaves 0…1 or almost stops in the middle.
    func testPreparedBezierSolverIsBitIdentical() {
        var rng = SeededGenerator(seed: 7)
        var beziers = curves.compactMap { curve -> CubicBezier? in
            if case .cubic(let bezier) = curve { return bezier } else { return nil }
        }
        for _ in 0..<40 {
            beziers.append(CubicBezier(Double.random(in: 0...1, using: &rng), Double.random(in: -1...2, using: &rng),
                                       Double.random(in: 0...1, using: &rng), Double.random(in: -1...2, using: &rng)))
        }
        beziers.append(CubicBezier(1.2, 0, 0.5, 1))
        let solver = CubicBezierSolver()
        var checked = 0
        for bezier in beziers {
            guard let index = solver.append(bezier) else {
                XCTAssertTrue(!bezier.isMonotone || BezierFlatMiddle(bezier) != nil, "\(bezier) refused")
                continue
            }
            XCTAssertTrue(bezier.isMonotone && BezierFlatMiddle(bezier) == nil, "\(bezier) taken")
            var xs: [Double] = [-0.5, -1e-12, 0, 1e-300, 1e-9, 0.1, 0.2, 0.5, 0.9, 1 - 1e-12, 1 - 1e-16, 1, 1.5]
            for i in 0...1000 { xs.append(Double(i) / 1000) }
            for _ in 0..<1000 { xs.append(Double.random(in: 0...1, using: &rng)) }
            for x in xs {
                let expected = bezier.progress(at: x), actual = solver.progress(Int(index), at: x)
                // Bit-identical by construction (same arithmetic), so compare the bits.
                XCTAssertEqual(actual.bitPattern, expected.bitPattern, "\(bezier) at \(x): \(actual) vs \(expected)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 90_000)
    }

    /// The lane's fast path (a certified grid bucket, no test at run time) gives the scalar solver's bits wherever it
    /// applies, and applies to almost every input of the engine benchmark's curves.
    func testCertifiedFastPathIsBitIdentical() {
        var rng = SeededGenerator(seed: 11)
        let benchmarkCurves: [CubicBezier] = [
            CubicBezier(0.42, 0, 1, 1), CubicBezier(0, 0, 0.58, 1), CubicBezier(0.42, 0, 0.58, 1),
            CubicBezier(0.25, 0.1, 0.25, 1), CubicBezier(0.68, -0.55, 0.265, 1.55), CubicBezier(0.1, 0.7, 1, 0.1),
            CubicBezier(0.3, 0.2, 0.7, 0.9),
        ]
        var beziers = benchmarkCurves
        for _ in 0..<30 {
            beziers.append(CubicBezier(Double.random(in: 0...1, using: &rng), Double.random(in: -1...2, using: &rng),
                                       Double.random(in: 0...1, using: &rng), Double.random(in: -1...2, using: &rng)))
        }
        let solver = CubicBezierSolver()
        var applied = 0, benchmarkApplied = 0, benchmarkInputs = 0
        for (number, bezier) in beziers.enumerated() {
            guard let index = solver.append(bezier) else { continue }
            let special: [Double] = [0, 1e-300, 1e-9, 0.5, 1 - 1e-12, 1, 0.5 + 1e-16]
            for round in 0..<3_000 {
                let x = round < special.count ? special[round] : Double.random(in: 0...1, using: &rng)
                let (progress, applies) = CubicBezierSolver.certifiedProgress(solver.table, index, at: x)
                if number < benchmarkCurves.count && x > 0 && x < 1 {
                    benchmarkInputs += 1
                    if applies { benchmarkApplied += 1 }
                }
                guard applies else { continue }
                XCTAssertTrue(x > 0 && x < 1, "x = \(x) must be left to the full solver")
                XCTAssertEqual(progress.bitPattern, bezier.progress(at: x).bitPattern, "\(bezier) at \(x)")
                applied += 1
            }
        }
        XCTAssertGreaterThan(applied, 60_000)
        XCTAssertGreaterThan(Double(benchmarkApplied) / Double(benchmarkInputs), 0.95)
    }

    /// Records every event an animator reports.
    private final class EventLog {
        var events: [AnimatorEvent] = []
    }

    func testLaneMatchesThePerAnimatorPathOverRandomSequences() throws {
        var laneTicks = 0
        for seed in 0..<150 {
            var rng = SeededGenerator(seed: UInt64(1000 + seed))
            let clock = VirtualClock()
            var clocked: [PropertyAnimator] = [], manual: [PropertyAnimator] = []
            var clockedLogs: [EventLog] = [], manualLogs: [EventLog] = []
            for _ in 0..<6 {
                let duration = Seconds(Double.random(in: 0.2...1.5, using: &rng))
                let curve = curves.randomElement(using: &rng)!
                let linear = Bool.random(using: &rng)
                for list in 0..<2 {
                    let animator = PropertyAnimator(duration: duration, timing: curve)
                    animator.scrubsLinearly = linear
                    _ = try animator.addAnimations(.value(from: 3, to: 50))
                    let log = EventLog()
                    animator.observe { log.events.append($0) }
                    if list == 0 { clocked.append(animator); clockedLogs.append(log); clock.register(animator) } else {
                        manual.append(animator); manualLogs.append(log)
                    }
                }
            }
            var scalars: [Double] = []
            for step in 0..<120 {
                let index = Int.random(in: 0..<clocked.count, using: &rng)
                let a = clocked[index], b = manual[index]
                let label = "seed \(seed) step \(step) animator \(index)"
                switch Int.random(in: 0..<16, using: &rng) {
                case 0..<6:
                    let dt = [1.0 / 60, 1.0 / 30, 0.1, 0.37, 0.0][Int.random(in: 0..<5, using: &rng)]
                    clock.advance(by: Seconds(dt))
                    for animator in manual { animator.advance(by: Seconds(dt)) }
                    laneTicks += clocked.filter { $0.laneSlot != nil }.count
                    clock.primaryScalars(into: &scalars)
                    for (i, animator) in clocked.enumerated() {
                        XCTAssertEqual(scalars[i].bitPattern, (animator.primaryScalar ?? .nan).bitPattern, label)
                    }
                case 6: XCTAssertEqual(outcome { try a.start() }, outcome { try b.start() }, label)
                case 7: XCTAssertEqual(outcome { try a.pause() }, outcome { try b.pause() }, label)
                case 8: XCTAssertEqual(outcome { try a.setReversed(!a.isReversed) },
                                       outcome { try b.setReversed(!b.isReversed) }, label)
                case 9:
                    let f = Progress(Double.random(in: 0...1, using: &rng))
                    XCTAssertEqual(outcome { try a.setFractionComplete(f) }, outcome { try b.setFractionComplete(f) }, label)
                case 10:
                    let timing: TimingCurve? = Bool.random(using: &rng) ? nil : curves.randomElement(using: &rng)
                    let factor = [0, 0.5, 2][Int.random(in: 0..<3, using: &rng)]
                    XCTAssertEqual(outcome { try a.continue(timing: timing, durationFactor: factor) },
                                   outcome { try b.continue(timing: timing, durationFactor: factor) }, label)
                case 11:
                    let flag = Bool.random(using: &rng)
                    XCTAssertEqual(outcome { try a.stop(withoutFinishing: flag) },
                                   outcome { try b.stop(withoutFinishing: flag) }, label)
                case 12:
                    let position = AnimatingPosition.allCases.randomElement(using: &rng)!
                    XCTAssertEqual(outcome { try a.finish(at: position) }, outcome { try b.finish(at: position) }, label)
                case 13:
                    let target = AnimationTarget.value(from: Double.random(in: -5...5, using: &rng), to: 9)
                    let factor = Bool.random(using: &rng) ? 0 : 0.5
                    XCTAssertEqual(outcome { _ = try a.addAnimations(target, delayFactor: factor) },
                                   outcome { _ = try b.addAnimations(target, delayFactor: factor) }, label)
                case 14:
                    let delay = Seconds(Double.random(in: 0...0.3, using: &rng))
                    XCTAssertEqual(outcome { try a.start(afterDelay: delay) },
                                   outcome { try b.start(afterDelay: delay) }, label)
                default:
                    a.pausesOnCompletion.toggle()
                    b.pausesOnCompletion.toggle()
                }
                for i in clocked.indices {
                    XCTAssertEqual(clocked[i].status, manual[i].status, "\(label): animator \(i) differs")
                    XCTAssertEqual(clocked[i].fractionComplete.value.bitPattern, manual[i].fractionComplete.value.bitPattern, label)
                    XCTAssertEqual(clockedLogs[i].events, manualLogs[i].events, "\(label): events of animator \(i) differ")
                }
            }
        }
        XCTAssertGreaterThan(laneTicks, 2_000, "the lane must actually be used")
    }

    func testCallbacksDuringATickSeeRegistrationOrder() throws {
        // a (registered first) completes and pauses c (registered later, in the lane) before c is advanced:
        // c must stop at its value before the tick, exactly as without the lane.
        func run(useClock: Bool) throws -> (Double, Double) {
            let clock = VirtualClock()
            let a = PropertyAnimator(duration: 0.5, timing: .linear)
            let c = PropertyAnimator(duration: 2, timing: .easeIn)
            _ = try a.addAnimations(.value(from: 0, to: 1))
            _ = try c.addAnimations(.value(from: 0, to: 100))
            a.addCompletion { _ in try? c.pause() }
            if useClock { clock.register(a); clock.register(c) }
            try a.start(); try c.start()
            for _ in 0..<40 {
                if useClock { clock.advance(by: 0.05) } else { a.advance(by: 0.05); c.advance(by: 0.05) }
            }
            return (try XCTUnwrap(c.primaryScalar), c.fractionComplete.value)
        }
        let laned = try run(useClock: true), manual = try run(useClock: false)
        XCTAssertEqual(laned.0.bitPattern, manual.0.bitPattern)
        XCTAssertEqual(laned.1.bitPattern, manual.1.bitPattern)
        // c was paused after 9 ticks (0.45 s of its 2 s run): the tick that completed a never moved it.
        assertClose(manual.0, 100 * TimingCurve.easeIn.evaluate(0.45 / 2), tolerance: 1e-9)
    }

    func testUnregisteringDuringATickKeepsEveryoneCorrect() throws {
        let clock = VirtualClock()
        var animators: [PropertyAnimator] = []
        for i in 0..<5 {
            let animator = PropertyAnimator(duration: Seconds(0.3 + 0.2 * Double(i)), timing: .easeOut)
            _ = try animator.addAnimations(.value(from: 0, to: 1))
            clock.register(animator)
            animators.append(animator)
        }
        animators[0].addCompletion { _ in clock.unregister(animators[2]) }
        for animator in animators { try animator.start() }
        var elapsed = 0.0
        while elapsed < 1.5 {
            clock.advance(by: 0.1)
            elapsed += 0.1
        }
        XCTAssertFalse(clock.isRegistered(animators[2]))
        XCTAssertEqual(animators.map(\.state), [.inactive, .inactive, .active, .inactive, .inactive])
        // Animator 2 was advanced in the tick that unregistered it (0.3 s), never after.
        assertClose(animators[2].fractionComplete.value, 0.3 / 0.7, tolerance: 1e-9)
        var scalars: [Double] = []
        clock.primaryScalars(into: &scalars)
        XCTAssertEqual(scalars.count, 4)
    }

    func testGroupsAndAnimatorsShareAClock() throws {
        let clock = VirtualClock()
        let solo = PropertyAnimator(duration: 1, timing: .easeInEaseOut)
        let primary = PropertyAnimator(duration: 1, timing: .linear), secondary = PropertyAnimator(duration: 0.5, timing: .easeIn)
        for animator in [solo, primary, secondary] { _ = try animator.addAnimations(.value(from: 0, to: 10)) }
        let group = AnimatorGroup(primary: primary, secondaries: [secondary])
        clock.register(solo)
        clock.register(group)
        try solo.start()
        try group.start()
        for _ in 0..<30 { clock.advance(by: 1.0 / 60) }
        XCTAssertNotNil(solo.laneSlot)
        XCTAssertNil(primary.laneSlot, "group members are advanced by their group")
        var scalars: [Double] = []
        clock.primaryScalars(into: &scalars)
        assertClose(scalars[0], 10 * TimingCurve.easeInEaseOut.evaluate(0.5), tolerance: 1e-9)
        XCTAssertTrue(scalars[1].isNaN, "a group has no scalar of its own")
    }
}

/// The error `body` threw, as text, or `nil` if it succeeded.
private func outcome(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return "\(error)"
    }
}
