import Foundation
import KeyframeTestSupport
import XCTest
@testable import KeyframeEngine

final class MediaTimingTests: XCTestCase {
    /// CAMediaTiming against Chromium's timing model: delay = beginTime, iterations = repeatCount,
    /// alternate with doubled iterations = autoreverses, playbackRate = speed, fill = fillMode.
    func testFractionsMatchChromiumTiming() throws {
        let directory = fixturesDirectory.appendingPathComponent("waapi")
        let out = try XCTUnwrap(loadJSON(directory.appendingPathComponent("keyframes-media-timing.out.json"))
                                as? [String: Any])
        let timings: [String: MediaTiming] = [
            "repeat": MediaTiming(beginTime: 0.2, duration: 0.4, repeatCount: 2.5, fillMode: .forwards),
            "autoreverse": MediaTiming(beginTime: 0.1, duration: 0.3, repeatCount: 2, autoreverses: true, fillMode: .both),
            // WAAPI's delay is local time: 100 ms at rate 2 begins 50 ms into the parent timeline.
            "fast": MediaTiming(beginTime: 0.05, duration: 0.5, speed: 2, fillMode: .removed),
        ]
        let track = KeyframeTrack(scalars: [0, 1])
        var compared = 0, absent = 0
        for sample in try XCTUnwrap(out["samples"] as? [[String: Any]]) {
            let t = Seconds.milliseconds(try XCTUnwrap((sample["t"] as? NSNumber)?.doubleValue))
            let anims = try XCTUnwrap(sample["anims"] as? [String: [String: Any]])
            for (id, timing) in timings {
                let expected = (anims[id]?["progress"] as? NSNumber)?.doubleValue
                let actual = timing.fraction(atParentTime: t)
                XCTAssertEqual(actual == nil, expected == nil, "\(id) at \(t): \(String(describing: actual))")
                if let expected, let actual {
                    assertClose(actual, expected, tolerance: 1e-6, "\(id) at \(t)")
                    assertClose(track.value(atParentTime: t, timing: timing)?.first ?? .nan, expected, tolerance: 1e-6)
                    compared += 1
                } else {
                    absent += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 60)
        XCTAssertGreaterThan(absent, 10)
    }

    func testTimeOffsetAndRepeatDuration() {
        let timing = MediaTiming(duration: 1, timeOffset: 0.25, repeatDuration: 1.5, fillMode: .forwards)
        assertClose(timing.fraction(atParentTime: 0) ?? -1, 0.25)
        assertClose(timing.fraction(atParentTime: 1) ?? -1, 0.25, tolerance: 1e-12)   // local 1.25 → second cycle
        assertClose(timing.fraction(atParentTime: 5) ?? -1, 0.5, tolerance: 1e-12)    // held at local 1.5
        XCTAssertNil(MediaTiming(duration: 1).fraction(atParentTime: 1.5), "removed after the end")
        XCTAssertNil(MediaTiming(beginTime: 1, duration: 1).fraction(atParentTime: 0.5), "nothing before the start")
        assertClose(MediaTiming(duration: 1, repeatCount: .infinity).fraction(atParentTime: 1e6 + 0.5) ?? -1, 0.5,
                    tolerance: 1e-6)
    }
}
