import Foundation
import KeyframeTestSupport
import XCTest
@testable import KeyframeEngine

final class KeyframeTrackTests: XCTestCase {
    /// Linear mode (animation timing + per-segment timing) and discrete mode against Chromium, within 1e-6 plus what
    /// Chromium's solver epsilon moves each easing's input by (`WAAPIGoldenTests.chromiumSolverSlack`).
    func testLinearAndDiscreteMatchChromium() throws {
        let directory = fixturesDirectory.appendingPathComponent("waapi")
        let out = try XCTUnwrap(loadJSON(directory.appendingPathComponent("keyframes-linear-discrete.out.json"))
                                as? [String: Any])
        let linear = KeyframeTrack(scalars: [0, 10, -5, 20], keyTimes: [0, 0.3, 0.8, 1],
                                   timingFunctions: [.easeOut, .linear, .bezier(0.1, 0.7, 1, 0.1)],
                                   timingFunction: .easeIn)
        // CA discrete: n values, n + 1 key times (the oracle repeats the last value at offset 1).
        let discrete = KeyframeTrack(scalars: [1, 2, 3], keyTimes: [0, 0.25, 0.7, 1], calculationMode: .discrete)
        var maxError = 0.0
        let samples = try XCTUnwrap(out["samples"] as? [[String: Any]])
        XCTAssertGreaterThan(samples.count, 10)
        for sample in samples {
            let t = try XCTUnwrap((sample["t"] as? NSNumber)?.doubleValue) / 1000
            let values = try XCTUnwrap(sample["values"] as? [String: Any])
            for (id, track) in [("linear", linear), ("discrete", discrete)] {
                let expected = try XCTUnwrap((values[id] as? NSNumber)?.doubleValue)
                let error = abs(track.scalar(at: t) - expected)
                maxError = max(maxError, error)
                var allowed = 1e-6
                if id == "linear" {
                    // The animation's ease-in at t, then the segment's own curve at its local fraction.
                    let f = TimingCurve.easeIn.evaluate(t)
                    let slope = (track.scalar(at: t + 1e-7) - track.scalar(at: t - 1e-7)) / 2e-7
                    allowed += 1.5 * abs(slope) * WAAPIGoldenTests.chromiumSolverEpsilon
                    let keys = [0, 0.3, 0.8, 1], values = [0.0, 10, -5, 20]
                    let curves: [TimingCurve] = [.easeOut, .linear, .bezier(0.1, 0.7, 1, 0.1)]
                    if let i = (0..<3).first(where: { f <= keys[$0 + 1] }) {
                        allowed += WAAPIGoldenTests.chromiumSolverSlack(
                            curves[i], at: (f - keys[i]) / (keys[i + 1] - keys[i]), span: values[i + 1] - values[i])
                    }
                }
                XCTAssertLessThanOrEqual(error, allowed, "\(id) at \(t)")
            }
        }
        print("keyframe golden: max |error| = \(maxError)")
    }

    func testInvalidKeyTimesFallBackToEvenSpacing() {
        for bad in [[0, 0.5], [0.1, 0.5, 1], [0, 0.7, 0.4, 1], [0, 0.5, 1.2, 1]] as [[Double]] {
            let track = KeyframeTrack(scalars: [0, 10, 20, 30], keyTimes: bad)
            XCTAssertEqual(track.resolvedKeyTimes, [0, 1.0 / 3, 2.0 / 3, 1], "\(bad)")
        }
        // Discrete with n (not n + 1) key times is invalid too.
        XCTAssertEqual(KeyframeTrack(scalars: [1, 2], keyTimes: [0, 1], calculationMode: .discrete).resolvedKeyTimes,
                       [0, 0.5, 1])
    }

    func testZeroLengthSegmentJumps() {
        let track = KeyframeTrack(scalars: [0, 10, 20], keyTimes: [0, 0.5, 0.5].dropLast() + [1])
        assertClose(track.scalar(at: 0.25), 5)
        let jump = KeyframeTrack(scalars: [0, 10, 50, 60], keyTimes: [0, 0.5, 0.5, 1])
        assertClose(jump.scalar(at: 0.4999), 9.998, tolerance: 1e-9)
        assertClose(jump.scalar(at: 0.5), 50)
    }

    func testPacedIgnoresKeyTimesAndTimingFunctions() {
        let track = KeyframeTrack(values: [[0, 0], [3, 4], [3, 14]], keyTimes: [0, 0.9, 1],
                                  timingFunctions: [.easeIn, .easeIn], timingFunction: .easeOut,
                                  calculationMode: .paced)
        XCTAssertEqual(track.resolvedKeyTimes, [0, 1.0 / 3, 1])
        let mid = track.value(at: 0.5)   // 7.5 of 15 units along: 2.5 into the second leg
        assertClose(mid[0], 3); assertClose(mid[1], 6.5)
        XCTAssertEqual(KeyframeTrack(scalars: [2, 2, 2], calculationMode: .paced).resolvedKeyTimes, [0, 0.5, 1])
    }

    func testCubicIsCatmullRomInsideAndHalfChordAtEnds() {
        let p: [Double] = [0, 1, 4, 9, 3]
        let track = KeyframeTrack(scalars: p, calculationMode: .cubic)
        // Interior segment midpoint of a uniform Catmull-Rom spline.
        assertClose(track.scalar(at: 0.375), (-p[0] + 9 * p[1] + 9 * p[2] - p[3]) / 16, tolerance: 1e-12)
        for (i, key) in p.enumerated() { assertClose(track.scalar(at: Double(i) / 4), key, tolerance: 1e-12) }
        // First segment: phantom p−1 = p0, so the start tangent is half the first chord.
        let h = 1e-6
        let slope = (track.scalar(at: h) - track.scalar(at: 0)) / h * 0.25   // per unit of segment parameter
        assertClose(slope, 0.5 * (p[1] - p[0]), tolerance: 1e-4)
    }

    func testTensionOneGivesFlatTangents() {
        let track = KeyframeTrack(scalars: [0, 10, 0], calculationMode: .cubic, tensionValues: [1, 1, 1])
        let u = 0.3
        assertClose(track.scalar(at: u / 2), 10 * (3 * u * u - 2 * u * u * u), tolerance: 1e-12)
    }

    func testBiasAndContinuityChangeTheShape() {
        let plain = KeyframeTrack(scalars: [0, 10, 0, 10], calculationMode: .cubic)
        let biased = KeyframeTrack(scalars: [0, 10, 0, 10], calculationMode: .cubic, biasValues: [0, 1, 0, 0])
        let cornered = KeyframeTrack(scalars: [0, 10, 0, 10], calculationMode: .cubic, continuityValues: [0, -1, 0, 0])
        XCTAssertGreaterThan(abs(plain.scalar(at: 0.4) - biased.scalar(at: 0.4)), 0.01)
        XCTAssertGreaterThan(abs(plain.scalar(at: 0.4) - cornered.scalar(at: 0.4)), 0.01)
    }

    /// With non-uniform key times the velocity in time stays continuous through interior keys.
    func testNonUniformKeyTimesKeepVelocityContinuous() {
        let track = KeyframeTrack(scalars: [0, 10, 12, 30], keyTimes: [0, 0.1, 0.7, 1], calculationMode: .cubic)
        for key in [0.1, 0.7] {
            let h = 1e-6
            let left = (track.scalar(at: key) - track.scalar(at: key - h)) / h
            let right = (track.scalar(at: key + h) - track.scalar(at: key)) / h
            assertClose(left, right, tolerance: 1e-3 * max(1, abs(left)), "at \(key)")
        }
    }

    func testCubicPacedTravelsAtConstantSpeed() {
        let track = KeyframeTrack(values: [[0, 0], [10, 5], [12, 0], [30, 10]], keyTimes: [0, 0.9, 0.95, 1],
                                  calculationMode: .cubicPaced)
        let steps = 1000
        let points = (0...steps).map { track.value(at: Double($0) / Double(steps)) }
        let distances = zip(points, points.dropFirst()).map { a, b in
            ((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1])).squareRoot()
        }
        let mean = distances.reduce(0, +) / Double(distances.count)
        for d in distances { assertClose(d, mean, tolerance: 0.01 * mean) }
        XCTAssertEqual(track.value(at: 1).map { ($0 * 1e9).rounded() / 1e9 }, [30, 10])
    }
}
