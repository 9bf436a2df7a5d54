import Foundation
import KeyframeEngine
import KeyframeJSON
import XCTest

/// `play` costs time linear in the animators (trust trial, class 5): reading a script and playing its ticks never
/// searches the animators by name. Before: 10,000 animators took 3.1 s, 30,000 16–20 s, and with 100,000 a tick
/// took about 9 s, because every step and every group member looked its animator up in a list.
final class ScriptScalingTests: XCTestCase {
    /// A script of `count` animators, all in one group, each started by its own step at 0.
    func script(_ count: Int) -> [UInt8] {
        var animators: [String] = []
        var steps: [String] = []
        for index in 0..<count {
            animators.append(#"{"name":"a\#(index)","duration":1,"timing":"linear","target":{"from":0,"to":\#(index)}}"#)
            steps.append(#"{"at":0,"animator":"a\#(index)","action":"start"}"#)
        }
        return Array((#"{"format":"keyframe-script","version":1,"animators":["# + animators.joined(separator: ",")
            + #"],"steps":["# + steps.joined(separator: ",") + "]}").utf8)
    }

    func testFiftyThousandAnimatorsReadAndPlayInLinearTime() throws {
        let count = 50_000
        let bytes = script(count)
        let started = Date()
        let parsed = try AnimatorScript(jsonBytes: bytes, file: "many.json")
        let runner = try ScriptRunner(script: parsed) { _, _ in throw ScriptScalingError() }
        let playback = runner.playback(fps: 10, until: Seconds(0.2))
        var ticks = 0
        while let tick = try playback.next() {
            XCTAssertEqual(tick.animators.count, count)
            XCTAssertEqual(tick.animators[count - 1].value ?? .nan, tick.index == 0 ? 0 : Double(count - 1) * tick.time.value,
                           accuracy: 1e-6)
            ticks += 1
        }
        let seconds = Date().timeIntervalSince(started)
        print("ScriptScalingTests: \(count) animators, \(ticks) ticks in \(seconds) s")
        XCTAssertEqual(ticks, 3)
        // Far above the linear cost in a debug build; the quadratic lookups alone took minutes here.
        XCTAssertLessThan(seconds, 30)
    }
}

private struct ScriptScalingError: Error {}
