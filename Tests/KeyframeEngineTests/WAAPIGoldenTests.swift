import Foundation
import XCTest
@testable import KeyframeEngine

/// Replays Web Animations cases through the engine and compares with Chromium's output.
///
/// `Fixtures/waapi/<name>.case.json` is the oracle's input, `<name>.out.json` what
/// `../shared/tools/waapi-oracle` printed for it (headless Chromium). Each WAAPI action is
/// mapped to the UIKit-style operation with the same meaning (engine.md §e mapping table).
///
/// The engine's curves are exact (within 1e-9, `BezierAccuracyTests`); Chromium's cubic-Bézier solver stops at
/// |x(t) − x| < 1e-7, so its value is the exact curve's at a time fraction within 1e-7 of the requested one. Each
/// value is compared within 1e-6 plus what that 1e-7 moves it by (``chromiumSolverSlack(_:at:span:)``): timing
/// semantics are held to 1e-6, the solver's early stop is not held against either side.
final class WAAPIGoldenTests: XCTestCase {
    static let tolerance = 1e-6
    /// How far Chromium's solver may be from the requested time fraction (its kBezierEpsilon).
    static let chromiumSolverEpsilon = 1e-7

    /// How much a value `span × curve(x)` moves when `x` moves by up to Chromium's solver epsilon (× 1.5).
    static func chromiumSolverSlack(_ curve: TimingCurve, at x: Double, span: Double) -> Double {
        guard case .cubic = curve else { return 0 }
        let here = curve.evaluate(x)
        let moved = [x - chromiumSolverEpsilon, x + chromiumSolverEpsilon].map { abs(curve.evaluate($0) - here) }
        return 1.5 * abs(span) * moved.max()!
    }

    struct Track {
        var id: String
        var duration: Double      // ms
        var delay: Double         // ms
        var from: Double
        var to: Double
        var curve: TimingCurve
    }

    static func curve(css: String?) throws -> TimingCurve {
        let text = (css ?? "linear").replacingOccurrences(of: " ", with: "")
        switch text {
        case "linear": return .linear
        case "ease": return .default
        case "ease-in": return .easeIn
        case "ease-out": return .easeOut
        case "ease-in-out": return .easeInEaseOut
        default: break
        }
        if text.hasPrefix("cubic-bezier(") {
            let numbers = text.dropFirst("cubic-bezier(".count).dropLast().split(separator: ",").compactMap { Double($0) }
            guard numbers.count == 4 else { throw CaseError("bad easing \(text)") }
            return .bezier(numbers[0], numbers[1], numbers[2], numbers[3])
        }
        if text.hasPrefix("steps(") {
            let parts = text.dropFirst("steps(".count).dropLast().split(separator: ",")
            guard let count = Int(parts[0]) else { throw CaseError("bad easing \(text)") }
            let position = parts.count > 1 ? String(parts[1]) : "end"
            let map: [String: StepPosition] = ["end": .end, "jump-end": .end, "start": .start, "jump-start": .start,
                                               "jump-none": .none, "jump-both": .both]
            return .steps(count, map[position] ?? .end)
        }
        throw CaseError("unsupported easing \(text)")
    }

    struct CaseError: Error, CustomStringConvertible {
        var description: String
        init(_ text: String) { description = text }
    }

    static func tracks(of root: [String: Any]) throws -> [Track] {
        let list = (root["animations"] as? [[String: Any]]) ?? [root.merging(["id": "a"]) { old, _ in old }]
        return try list.map { anim in
            let keyframes = try XCTUnwrap(anim["keyframes"] as? [[String: Any]])
            guard keyframes.count == 2 else { throw CaseError("the animator cases use two keyframes") }
            let effect = try curve(css: anim["easing"] as? String)
            let segment = try curve(css: keyframes[0]["easing"] as? String)
            guard effect == .linear || segment == .linear else { throw CaseError("one easing per animation") }
            return Track(id: try XCTUnwrap(anim["id"] as? String),
                         duration: try XCTUnwrap((anim["duration"] as? NSNumber)?.doubleValue),
                         delay: (anim["delay"] as? NSNumber)?.doubleValue ?? 0,
                         from: try XCTUnwrap((keyframes[0]["value"] as? NSNumber)?.doubleValue),
                         to: try XCTUnwrap((keyframes[1]["value"] as? NSNumber)?.doubleValue),
                         curve: effect == .linear ? segment : effect)
        }
    }

    /// Applies one WAAPI action to one animator (or, with `group`, to all members at once).
    static func apply(_ action: String, value: Double?, to animator: PropertyAnimator, track: Track) throws {
        switch action {
        case "play":
            if animator.state == .inactive && track.delay > 0 {
                try animator.start(afterDelay: .milliseconds(track.delay))
            } else {
                try animator.start()
            }
        case "pause":
            try animator.pause()
        case "setCurrentTime":
            let forward = try XCTUnwrap(value) / track.duration
            try animator.setFractionComplete(Progress(animator.isReversed ? 1 - forward : forward))
        case "reverse":
            let paused = animator.state == .active && !animator.isRunning
            try animator.setReversed(!animator.isReversed)
            if paused { try animator.start() }   // WAAPI reverse() on a paused animation plays it
        case "updatePlaybackRate":
            let rate = try XCTUnwrap(value)
            try animator.pause()
            if (rate < 0) != animator.isReversed { try animator.setReversed(rate < 0) }
            let remaining = 1 - animator.fractionComplete.value
            try animator.continue(timing: nil, durationFactor: remaining / abs(rate))
        case "finish":
            try animator.stop(withoutFinishing: false)
            try animator.finish(at: animator.isReversed ? .start : .end)
        default:
            throw CaseError("unmapped action \(action)")
        }
    }

    static func apply(_ action: String, value: Double?, to group: AnimatorGroup, tracks: [Track]) throws {
        switch action {
        case "play": try group.start()
        case "pause": try group.pause()
        case "setCurrentTime":
            guard Set(tracks.map(\.duration)).count == 1 else { throw CaseError("group seek needs equal durations") }
            let forward = try XCTUnwrap(value) / tracks[0].duration
            let relative = group.isReversed ? 1 - forward : forward
            try group.scrub(by: relative - group.scrubOffsets[0].value)
        case "reverse":
            let paused = !group.isRunning
            try group.reverse()
            if paused { try group.start() }
        default:
            throw CaseError("unmapped group action \(action)")
        }
    }

    func testEngineMatchesChromiumTraces() throws {
        let directory = fixturesDirectory.appendingPathComponent("waapi")
        let cases = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".case.json") && !$0.hasPrefix("keyframes-") }.sorted()
        XCTAssertGreaterThanOrEqual(cases.count, 7)
        var overallMax = 0.0
        for name in cases {
            let base = String(name.dropLast(".case.json".count))
            let root = try XCTUnwrap(loadJSON(directory.appendingPathComponent(name)) as? [String: Any])
            let out = try XCTUnwrap(loadJSON(directory.appendingPathComponent(base + ".out.json")) as? [String: Any])
            XCTAssertEqual(out["ok"] as? Bool, true, base)
            let maxError = try replay(root, out, label: base)
            overallMax = max(overallMax, maxError)
            print("waapi golden \(base): max |error| = \(maxError)")
        }
        print("waapi golden overall: max |error| = \(overallMax)")
    }

    func replay(_ root: [String: Any], _ out: [String: Any], label: String) throws -> Double {
        let tracks = try Self.tracks(of: root)
        let clock = VirtualClock()
        var animators: [String: PropertyAnimator] = [:]
        var ids: [String: AnimationID] = [:]
        for track in tracks {
            let animator = PropertyAnimator(duration: .milliseconds(track.duration), timing: track.curve)
            animator.scrubsLinearly = false      // WAAPI seeks in time, through the easing
            ids[track.id] = try animator.addAnimations(.value(from: track.from, to: track.to))
            animators[track.id] = animator
        }
        let group: AnimatorGroup? = tracks.count > 1 && (root["steps"] as? [[String: Any]] ?? []).contains {
            ($0["anim"] as? String ?? "*") == "*" && $0["action"] as? String != "play"
        } || label.hasPrefix("coordinated") ? AnimatorGroup(primary: animators[tracks[0].id]!,
                                                         secondaries: tracks.dropFirst().map { animators[$0.id]! }) : nil
        if let group { clock.register(group) } else { for track in tracks { clock.register(animators[track.id]!) } }

        let steps = try XCTUnwrap(root["steps"] as? [[String: Any]])
        let samples = try XCTUnwrap(out["samples"] as? [[String: Any]])
        let times = Set(steps.compactMap { ($0["t"] as? NSNumber)?.doubleValue } +
                        samples.compactMap { ($0["t"] as? NSNumber)?.doubleValue }).sorted()
        var maxError = 0.0
        for time in times {
            clock.advance(to: .milliseconds(time))
            for step in steps where (step["t"] as? NSNumber)?.doubleValue == time {
                let action = try XCTUnwrap(step["action"] as? String)
                let value = (step["value"] as? NSNumber)?.doubleValue
                let target = step["anim"] as? String ?? "*"
                if target == "*", let group {
                    try Self.apply(action, value: value, to: group, tracks: tracks)
                } else {
                    for track in tracks where target == "*" || target == track.id {
                        try Self.apply(action, value: value, to: animators[track.id]!, track: track)
                    }
                }
            }
            guard let sample = samples.first(where: { ($0["t"] as? NSNumber)?.doubleValue == time }) else { continue }
            let values = try XCTUnwrap(sample["values"] as? [String: Any])
            let states = try XCTUnwrap(sample["anims"] as? [String: [String: Any]])
            for track in tracks {
                let expected = try XCTUnwrap((values[track.id] as? NSNumber)?.doubleValue)
                let actual = try XCTUnwrap(animators[track.id]!.value(of: ids[track.id]!)?.scalar, "\(label) \(track.id)")
                let error = abs(actual - expected)
                maxError = max(maxError, error)
                let animator = animators[track.id]!
                let forward = animator.isReversed ? 1 - animator.fractionComplete.value : animator.fractionComplete.value
                let allowed = Self.tolerance + Self.chromiumSolverSlack(track.curve, at: forward, span: track.to - track.from)
                XCTAssertLessThanOrEqual(error, allowed, "\(label) \(track.id) at \(time) ms: \(actual) vs \(expected)")
                let playState = states[track.id]?["playState"] as? String
                XCTAssertEqual(animators[track.id]!.isRunning, playState == "running",
                               "\(label) \(track.id) at \(time) ms: WAAPI \(playState ?? "?")")
            }
        }
        return maxError
    }
}
