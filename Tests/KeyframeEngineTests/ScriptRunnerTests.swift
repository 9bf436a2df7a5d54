import KeyframeJSON
import KeyframeModel
import KeyframeTestSupport
import XCTest
@testable import KeyframeEngine

/// Playing scripts: values at each tick derived by hand or from independent curve math, steps at
/// their exact times, completions once at the right tick, errors with the step's path.
final class ScriptRunnerTests: XCTestCase {
    private func runner(_ text: String, resolver: ScriptClipResolver = { document, clip in
        throw TestResolveError(message: "no clips in this test (\(clip) of \(document))")
    }) throws -> ScriptRunner {
        try ScriptRunner(script: AnimatorScript(jsonBytes: Array(text.utf8), file: "t.json"), resolver: resolver)
    }

    struct TestResolveError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// y of the unit cubic Bézier at time fraction `x`, by bisection on x(t) (independent of `CubicBezier`).
    private func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        func coordinate(_ c1: Double, _ c2: Double, _ t: Double) -> Double {
            3 * (1 - t) * (1 - t) * t * c1 + 3 * (1 - t) * t * t * c2 + t * t * t
        }
        var low = 0.0, high = 1.0
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if coordinate(x1, x2, mid) < x { low = mid } else { high = mid }
        }
        return coordinate(y1, y2, (low + high) / 2)
    }

    /// The time fraction at which the Bézier reaches progress `p` (monotone curves), by bisection.
    private func inverseBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ p: Double) -> Double {
        var low = 0.0, high = 1.0
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if bezier(x1, y1, x2, y2, mid) < p { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    func testSingleAnimatorFollowsItsCurveAndCompletesOnce() throws {
        let ticks = try runner("""
        {"animators": [{"name": "a", "duration": 1, "timing": "easeInEaseOut", "target": {"from": 0, "to": 100}}],
         "steps": [{"at": 0, "action": "start"}]}
        """).run(fps: 10)
        XCTAssertEqual(ticks.count, 11, "ends at the first tick after which nothing runs (t = 1)")
        for tick in ticks {
            let t = Double(tick.index) / 10
            assertClose(tick.time.value, t, tolerance: 1e-12)
            let sample = try XCTUnwrap(tick.animator("a"))
            assertClose(try XCTUnwrap(sample.value), 100 * bezier(0.42, 0, 0.58, 1, t), tolerance: 1e-5, "t = \(t)")
            XCTAssertNil(sample.clip)
            if tick.index < 10 {
                XCTAssertEqual(sample.state, .active)
                XCTAssertTrue(sample.isRunning)
                assertClose(sample.fractionComplete.value, t, tolerance: 1e-9)
                XCTAssertEqual(tick.completions, [])
            } else {
                XCTAssertEqual(sample.state, .inactive)
                XCTAssertFalse(sample.isRunning)
                XCTAssertEqual(tick.completions.map(\.name), ["a"])
                XCTAssertEqual(tick.completions.first?.position, .end)
                assertClose(try XCTUnwrap(tick.completions.first?.time.value), 1, tolerance: 1e-12)
            }
        }
        XCTAssertEqual(ticks[0].steps, [0], "the step at 0 is applied before tick 0 is recorded")
        XCTAssertEqual(ticks.dropFirst().flatMap(\.steps), [])
    }

    func testPauseScrubReverseContinue() throws {
        // Linear 2 s run of 0 → 100. Derived by hand:
        //   0.5 s pause: u = 0.25, value 25. 0.7 s scrub 0.6 (linear scrub): value 60.
        //   0.8 s reverse while paused: direction flips, value stays 60, fractionComplete 1 − 0.6 = 0.4.
        //   1.0 s continue (same curve, durationFactor 0): re-enters at u = 0.6 and runs back at 0.5 per
        //   second, so value = 60 − 50·(t − 1) until it reaches 0 at t = 2.2 (completion at .start).
        let ticks = try runner("""
        {"animators": [{"name": "a", "duration": 2, "timing": "linear", "target": {"from": 0, "to": 100}}],
         "steps": [{"at": 0, "action": "start"}, {"at": 0.5, "action": "pause"},
                   {"at": 0.7, "action": "scrub", "fraction": 0.6}, {"at": 0.8, "action": "reverse"},
                   {"at": 1.0, "action": "continue"}]}
        """).run(fps: 10)
        XCTAssertEqual(ticks.count, 23)
        func expected(_ t: Double) -> Double {
            switch t {
            case ..<0.5: return 50 * t
            case ..<0.7: return 25
            case ..<1.0: return 60
            default: return max(0, 60 - 50 * (t - 1))
            }
        }
        for tick in ticks {
            let t = tick.time.value
            let sample = try XCTUnwrap(tick.animator("a"))
            assertClose(try XCTUnwrap(sample.value), expected(t), tolerance: 1e-9, "t = \(t)")
            XCTAssertEqual(sample.isReversed, t >= 0.8 - 1e-9 && t < 2.2 - 1e-9 || t >= 2.2 - 1e-9, "t = \(t)")
            XCTAssertEqual(sample.isRunning, (t < 0.5 - 1e-9) || (t >= 1 - 1e-9 && t < 2.2 - 1e-9), "t = \(t)")
        }
        assertClose(ticks[8].animators[0].fractionComplete.value, 0.4, tolerance: 1e-12)
        let completions = ticks.flatMap(\.completions)
        XCTAssertEqual(completions.map(\.position), [.start])
        XCTAssertEqual(ticks.firstIndex { !$0.completions.isEmpty }, 22)
        XCTAssertEqual(ticks[5].steps, [1])
        XCTAssertEqual(ticks[7].steps, [2])
    }

    func testContinueWithNewTimingFollowsTheRetimedSegment() throws {
        // Linear 1 s run paused at 0.4 (p = 0.4), continued with easeOut over 0.5 × 1 s: p = 0.4 + 0.6·easeOut(τ / 0.5).
        let ticks = try runner("""
        {"animators": [{"name": "a", "duration": 1, "timing": "linear", "target": {"from": 0, "to": 10}}],
         "steps": [{"at": 0, "action": "start"}, {"at": 0.4, "action": "pause"},
                   {"at": 0.5, "action": "continue", "timing": "easeOut", "durationFactor": 0.5}]}
        """).run(fps: 20)
        XCTAssertEqual(ticks.last?.time, Seconds(1.0))
        for tick in ticks where tick.time.value > 0.5 {
            let tau = tick.time.value - 0.5
            let expected = 10 * (0.4 + 0.6 * bezier(0, 0, 0.58, 1, tau / 0.5))
            assertClose(try XCTUnwrap(tick.animators[0].value), expected, tolerance: 1e-5, "t = \(tick.time)")
        }
        XCTAssertEqual(ticks.last?.completions.map(\.position), [.end])
    }

    func testGroupWithPrimaryAndSecondary() throws {
        // Primary: linear 1 s, 0 → 100. Secondary: easeIn 0.5 s, 0 → 10.
        // 0.25 s pause: offsets are the members' fractionComplete, which while paused with linear scrubbing is
        // the presented progress: 0.25 and easeIn(0.5). 0.3 s scrub to 0.5: delta 0.25, so the secondary goes
        // to easeIn(0.5) + 0.25. 0.4 s continue: the primary re-enters at u = 0.5 and ends at 0.9; the
        // secondary re-enters easeIn at u' = easeIn⁻¹(easeIn(0.5) + 0.25) and arrives at 0.4 + (1 − u')·0.5,
        // then waits paused at its end; the group completes both, then itself, at 0.9 (tick 18 at 20 fps).
        let ticks = try runner("""
        {"animators": [{"name": "p", "duration": 1, "timing": "linear", "target": {"from": 0, "to": 100}},
                       {"name": "s", "duration": 0.5, "timing": "easeIn", "target": {"from": 0, "to": 10}}],
         "group": {"name": "g", "primary": "p", "secondaries": ["s"]},
         "steps": [{"at": 0, "action": "start"}, {"at": 0.25, "action": "pause"},
                   {"at": 0.3, "action": "scrub", "fraction": 0.5}, {"at": 0.4, "action": "continue"}]}
        """).run(fps: 20)
        let easeIn = (0.42, 0.0, 1.0, 1.0)
        let pausedS = bezier(easeIn.0, easeIn.1, easeIn.2, easeIn.3, 0.5)
        let scrubbedS = pausedS + 0.25
        let reentry = inverseBezier(easeIn.0, easeIn.1, easeIn.2, easeIn.3, scrubbedS)
        let secondaryArrives = 0.4 + (1 - reentry) * 0.5
        XCTAssertLessThan(secondaryArrives, 0.9)
        for tick in ticks {
            let t = tick.time.value
            let p = try XCTUnwrap(tick.animator("p")), s = try XCTUnwrap(tick.animator("s"))
            let expectedP: Double, expectedS: Double
            switch t {
            case ..<0.25: expectedP = 100 * t; expectedS = 10 * bezier(0.42, 0, 1, 1, t / 0.5)
            case ..<0.3: expectedP = 25; expectedS = 10 * pausedS
            case ..<0.4: expectedP = 50; expectedS = 10 * scrubbedS
            default:
                expectedP = min(100, 50 + 100 * (t - 0.4))
                expectedS = 10 * bezier(0.42, 0, 1, 1, min(1, reentry + (t - 0.4) / 0.5))
            }
            assertClose(try XCTUnwrap(p.value), expectedP, tolerance: 1e-7, "primary at t = \(t)")
            assertClose(try XCTUnwrap(s.value), expectedS, tolerance: 1e-5, "secondary at t = \(t)")
            if t > secondaryArrives + 1e-9 && t < 0.9 - 1e-9 {
                XCTAssertEqual(s.state, .active, "the early finisher waits for the group")
                XCTAssertFalse(s.isRunning)
                XCTAssertTrue(p.isRunning)
            }
        }
        let withCompletions = ticks.filter { !$0.completions.isEmpty }
        XCTAssertEqual(withCompletions.map(\.index), [18])
        XCTAssertEqual(withCompletions.first?.completions.map(\.name), ["p", "s", "g"])
        XCTAssertEqual(withCompletions.first?.completions.map(\.position), [.end, .end, .end])
        XCTAssertEqual(ticks.count, 19)
        XCTAssertEqual(ticks.last?.animators.map(\.state), [.inactive, .inactive])
    }

    func testPlaybackExposesItsAnimatorsGroupAndClock() throws {
        let playback = try runner("""
        {"animators": [{"name": "p", "duration": 1, "timing": "linear", "target": {"from": 0, "to": 1}},
                       {"name": "s", "duration": 2, "timing": "easeOut", "scrubsLinearly": false, "target": {"from": 0, "to": 1}},
                       {"name": "solo", "duration": 3, "timing": "easeIn", "target": {"from": 0, "to": 1}}],
         "group": {"primary": "p", "secondaries": ["s"]}}
        """).playback(fps: 10)
        XCTAssertEqual(playback.animators.count, 3)
        XCTAssertTrue(playback.group?.primary === playback.animators[0])
        XCTAssertTrue(playback.group?.secondaries.first === playback.animators[1])
        XCTAssertFalse(playback.animators[1].scrubsLinearly)
        XCTAssertEqual(playback.animators[2].duration, Seconds(3))
        XCTAssertTrue(playback.clock.isRegistered(try XCTUnwrap(playback.group)))
        XCTAssertTrue(playback.clock.isRegistered(playback.animators[2]))
        XCTAssertFalse(playback.clock.isRegistered(playback.animators[0]), "group members are driven by the group")
        XCTAssertEqual(try playback.next()?.animators.map(\.state), [.inactive, .inactive, .inactive])
        XCTAssertNil(try playback.next(), "nothing runs and there are no steps: one tick")
    }

    func testGroupReverseWhilePausedThenContinueEndsAtStart() throws {
        let ticks = try runner("""
        {"animators": [{"name": "p", "duration": 1, "timing": "linear", "target": {"from": 0, "to": 1}},
                       {"name": "s", "duration": 1, "timing": "easeOut", "target": {"from": 0, "to": 1}}],
         "group": {"primary": "p"},
         "steps": [{"at": 0, "action": "start"}, {"at": 0.5, "action": "pause"},
                   {"at": 0.5, "action": "reverse"}, {"at": 0.5, "action": "continue"}]}
        """).run(fps: 4)
        // Back from u = 0.5 at the same rate: both arrive at the start at t = 1.
        XCTAssertEqual(ticks.count, 5)
        XCTAssertEqual(ticks.last?.completions.map(\.name), ["p", "s", "group"])
        XCTAssertEqual(ticks.last?.completions.map(\.position), [.start, .start, .start])
        assertClose(try XCTUnwrap(ticks[3].animator("p")?.value), 0.25, tolerance: 1e-12)
        XCTAssertEqual(ticks[3].animator("s")?.isReversed, true)
    }

    func testStopWithoutFinishingReportsNoCompletionAndFinishReportsOnce() throws {
        let ticks = try runner("""
        {"animators": [{"name": "a", "duration": 1, "timing": "linear", "target": {"from": 0, "to": 100}},
                       {"name": "b", "duration": 1, "timing": "linear", "target": {"from": 0, "to": 100}}],
         "steps": [{"at": 0, "animator": "a", "action": "start"}, {"at": 0, "animator": "b", "action": "start"},
                   {"at": 0.3, "animator": "a", "action": "stop", "withoutFinishing": true},
                   {"at": 0.4, "animator": "b", "action": "stop"},
                   {"at": 0.6, "animator": "b", "action": "finish", "position": "end"}]}
        """).run(fps: 10, until: 1.5)
        XCTAssertEqual(ticks.count, 16)
        let completions = ticks.flatMap(\.completions)
        XCTAssertEqual(completions.map(\.name), ["b"], "stop(withoutFinishing: true) never completes")
        XCTAssertEqual(completions.first?.position, .end)
        XCTAssertEqual(ticks.firstIndex { !$0.completions.isEmpty }, 6)
        assertClose(try XCTUnwrap(completions.first?.time.value), 0.6, tolerance: 1e-12)
        for tick in ticks {
            let a = try XCTUnwrap(tick.animator("a")), b = try XCTUnwrap(tick.animator("b"))
            if tick.time.value >= 0.3 - 1e-9 {
                XCTAssertEqual(a.state, .inactive)
                assertClose(try XCTUnwrap(a.value), 30, tolerance: 1e-9, "a keeps the value it was stopped at")
            }
            if tick.time.value >= 0.4 - 1e-9 && tick.time.value < 0.6 - 1e-9 {
                XCTAssertEqual(b.state, .stopped)
                assertClose(try XCTUnwrap(b.value), 40, tolerance: 1e-9)
            }
            if tick.time.value >= 0.6 - 1e-9 {
                XCTAssertEqual(b.state, .inactive)
                assertClose(try XCTUnwrap(b.value), 100, tolerance: 1e-12, "finish(at: .end) leaves the end value")
            }
        }
    }

    func testAddAnimationsReattachesTheDeclaredTargetAndReportsAddedOnes() throws {
        let ticks = try runner("""
        {"animators": [{"name": "a", "duration": 1, "timing": "linear", "target": {"from": 0, "to": 100}}],
         "steps": [{"at": 0, "action": "start"},
                   {"at": 0.5, "action": "addAnimations", "target": {"from": 10, "to": 20}},
                   {"at": 1.5, "action": "start"}, {"at": 2, "action": "addAnimations"}]}
        """).run(fps: 4)
        // The added animation runs 10 → 20 over the remaining half: value 10 + 10·(u − 0.5)/0.5.
        assertClose(try XCTUnwrap(ticks[3].animators[0].added.first?.number), 15, tolerance: 1e-9)
        assertClose(try XCTUnwrap(ticks[4].animators[0].added.first?.number), 20, tolerance: 1e-9)
        XCTAssertEqual(ticks[4].completions.map(\.position), [.end])
        // start at 1.5 without animations waits (running, no time passes); re-adding the declared target at 2
        // replays 0 → 100 from there, ending at 3.
        XCTAssertEqual(ticks[6].animators[0].isRunning, true)
        assertClose(try XCTUnwrap(ticks[6].animators[0].value), 100, tolerance: 1e-12)
        assertClose(try XCTUnwrap(ticks[10].animators[0].value), 50, tolerance: 1e-9)
        XCTAssertEqual(ticks.last?.time, Seconds(3))
        XCTAssertEqual(ticks.flatMap(\.completions).count, 2)
    }

    func testClipTargetsReportFramesAndSecondsAndResolveOnce() throws {
        var calls: [String] = []
        let runner = try runner("""
        {"animators": [{"name": "w", "duration": 2, "timing": "linear", "target": {"clip": "walk", "document": "../doc"}},
                       {"name": "v", "duration": 2, "timing": "linear", "target": {"clip": "walk", "document": "../doc"}}],
         "steps": [{"at": 0, "animator": "w", "action": "start"}]}
        """) { document, clip in
            calls.append("\(document)|\(clip)")
            return ScriptClip(documentPath: "/abs/doc", clipName: clip, duration: Frames(24), frameRate: FrameRate(24))
        }
        XCTAssertEqual(calls, ["../doc|walk"], "each (document, clip) is resolved once")
        XCTAssertEqual(runner.clip(document: "../doc", name: "walk")?.documentPath, "/abs/doc")
        let ticks = try runner.run(fps: 8, until: 3)
        XCTAssertEqual(ticks.count, 25)
        let atOne = try XCTUnwrap(ticks[8].animator("w")?.clip)
        XCTAssertEqual(atOne.clipName, "walk")
        XCTAssertEqual(atOne.documentPath, "/abs/doc")
        // A 1 s clip stretched over a 2 s linear run: at 1 s the clip is half way, 12 of 24 frames.
        assertClose(atOne.seconds.value, 0.5, tolerance: 1e-12)
        assertClose(atOne.frames.value, 12, tolerance: 1e-9)
        XCTAssertNil(ticks[8].animator("w")?.value)
        assertClose(try XCTUnwrap(ticks.last?.animator("w")?.clip?.frames.value), 24, tolerance: 1e-9)
        assertClose(try XCTUnwrap(ticks.last?.animator("v")?.clip?.frames.value), 0, tolerance: 0)
    }

    func testResolverFailureNamesTheTargetPath() {
        XCTAssertThrowsError(try runner("""
        {"animators": [{"name": "a", "duration": 1, "target": {"from": 0, "to": 1}},
                       {"name": "w", "duration": 1, "target": {"clip": "run", "document": "x"}}]}
        """)) { error in
            let error = error as? ScriptError
            XCTAssertEqual(error?.path?.description, "animators[1].target")
            XCTAssertEqual(error?.description, "t.json: at animators[1].target: no clips in this test (run of x)")
        }
    }

    func testRefusedStepStopsThePlaybackWithTheStepPath() throws {
        let playback = try runner("""
        {"animators": [{"name": "a", "duration": 1, "timing": "linear", "target": {"from": 0, "to": 1}}],
         "steps": [{"at": 0, "action": "start"}, {"at": 0.5, "action": "continue"}]}
        """).playback(fps: 4)
        XCTAssertEqual(try playback.next()?.index, 0)
        XCTAssertEqual(try playback.next()?.index, 1)
        XCTAssertThrowsError(try playback.next()) { error in
            let error = error as? ScriptError
            XCTAssertEqual(error?.path?.description, "steps[1]")
            XCTAssert(error?.description.hasPrefix("t.json: at steps[1] (a: continue ×0 at 0.5 s): continueAnimation is illegal while active (running)") == true,
                      "\(String(describing: error))")
        }
        XCTAssertNil(try playback.next(), "a failed playback is over")
    }

    func testUntilAndFps() throws {
        let script = """
        {"animators": [{"name": "a", "duration": 1, "timing": "linear", "target": {"from": 0, "to": 1}}],
         "steps": [{"at": 0, "action": "start"}, {"at": 0.75, "action": "pause"}]}
        """
        let short = try runner(script).run(fps: 4, until: 0.5)
        XCTAssertEqual(short.map(\.time.value), [0, 0.25, 0.5])
        XCTAssertEqual(short.flatMap(\.steps), [0], "steps after until are not applied")
        let long = try runner(script).run(fps: 2, until: 3)
        XCTAssertEqual(long.count, 7)
        assertClose(try XCTUnwrap(long.last?.animators[0].value), 0.75, tolerance: 1e-12)
        let settled = try runner(script).run(fps: 4)
        XCTAssertEqual(settled.last?.time, Seconds(0.75), "without until: the first tick after the last step with nothing running")
    }

    func testStepsHappenAtTheirExactTimeWhateverTheFps() throws {
        let script = """
        {"animators": [{"name": "a", "duration": 1, "timing": "easeOut", "target": {"from": 0, "to": 1}}],
         "steps": [{"at": 0, "action": "start"}, {"at": 0.3, "action": "pause"},
                   {"at": 0.55, "action": "continue", "timing": "easeIn", "durationFactor": 0.4}]}
        """
        let coarse = try runner(script).run(fps: 4, until: 1)
        let fine = try runner(script).run(fps: 8, until: 1)
        for tick in coarse {
            let match = try XCTUnwrap(fine.first { abs($0.time.value - tick.time.value) < 1e-12 })
            assertClose(try XCTUnwrap(tick.animators[0].value), try XCTUnwrap(match.animators[0].value), tolerance: 1e-12,
                        "t = \(tick.time)")
        }
        // Paused at 0.3 (between ticks): progress easeOut(0.3) from then until 0.55.
        assertClose(try XCTUnwrap(coarse[2].animators[0].value), bezier(0, 0, 0.58, 1, 0.3), tolerance: 1e-6)
    }

    func testSettleLimitStopsARunThatNeverSettles() throws {
        let playback = try runner("""
        {"animators": [{"name": "a", "duration": 1000, "timing": "linear", "target": {"from": 0, "to": 1}}],
         "steps": [{"at": 1, "action": "start"}]}
        """).playback(fps: 2)
        var count = 0
        while try playback.next() != nil { count += 1 }
        XCTAssertEqual(count, 2 * 61 + 1, "ticks from 0 to 61 s at 2 fps")
        XCTAssertTrue(playback.reachedSettleLimit)
    }

    func testTickLimitStopsAPlaybackWhoseStepsReachTooFar() throws {
        let playback = try runner("""
        {"animators": [{"name": "a", "duration": 1, "target": {"from": 0, "to": 1}}],
         "steps": [{"at": 1e9, "action": "start"}]}
        """).playback(fps: 1000)
        var count = 0
        while try playback.next() != nil { count += 1 }
        XCTAssertEqual(count, ScriptRunner.maximumTicks)
        XCTAssertTrue(playback.reachedTickLimit)
        XCTAssertFalse(playback.reachedSettleLimit)
    }

    func testJSONLineIsDeterministicAndComplete() throws {
        let runner = try runner("""
        {"animators": [{"name": "a", "duration": 0.5, "timing": "linear", "target": {"from": 0, "to": 8}}],
         "steps": [{"at": 0, "action": "start"}]}
        """)
        let ticks = try runner.run(fps: 4)
        XCTAssertEqual(ticks.map { $0.jsonLine(script: runner.script) }, [
            #"{"animators":[{"fractionComplete":0,"isReversed":false,"isRunning":true,"name":"a","state":"active","value":0}],"completions":[],"steps":[{"action":"start","animator":"a","at":0,"index":0,"summary":"start"}],"tick":0,"time":0}"#,
            #"{"animators":[{"fractionComplete":0.5,"isReversed":false,"isRunning":true,"name":"a","state":"active","value":4}],"completions":[],"steps":[],"tick":1,"time":0.25}"#,
            #"{"animators":[{"fractionComplete":0,"isReversed":false,"isRunning":false,"name":"a","state":"inactive","value":8}],"completions":[{"animator":"a","position":"end","time":0.5}],"steps":[],"tick":2,"time":0.5}"#,
        ])
        for tick in ticks { XCTAssertNoThrow(try JSONParser.parse(tick.jsonLine(script: runner.script))) }
    }
}
