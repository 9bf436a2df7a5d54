import Foundation
import KeyframeTestSupport
import XCTest
@testable import KeyframeEngine

final class TimingCurveTests: XCTestCase {
    /// Every point of Chromium's golden table, for all six curves, within 1e-6 (`BezierAccuracyTests` holds the
    /// values to 1e-9 of the table's exact ones).
    func testBezierMatchesChromiumGolden() throws {
        let url = TestPaths.shared.appendingPathComponent("golden/bezier.json")
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw XCTSkip("golden table not found at \(url.path); ../shared must sit beside the checkout")
        }
        let root = try XCTUnwrap(loadJSON(url) as? [String: Any])
        let curves = try XCTUnwrap(root["curves"] as? [String: [String: Any]])
        XCTAssertEqual(curves.count, 6)
        var maxError = 0.0
        var checked = 0
        for (name, curve) in curves.sorted(by: { $0.key < $1.key }) {
            let cp = try XCTUnwrap(curve["control_points"] as? [Double])
            let bezier = CubicBezier(cp[0], cp[1], cp[2], cp[3])
            for point in try XCTUnwrap(curve["points"] as? [[String: Any]]) {
                let x = try XCTUnwrap((point["x"] as? NSNumber)?.doubleValue)
                let y = try XCTUnwrap((point["y"] as? NSNumber)?.doubleValue)
                let error = abs(bezier.progress(at: x) - y)
                maxError = max(maxError, error)
                XCTAssertLessThanOrEqual(error, 1e-6, "\(name) at x=\(x)")
                checked += 1
            }
        }
        XCTAssertEqual(checked, 6 * 21)
        print("bezier golden: \(checked) points, max |error| = \(maxError)")
    }

    func testNamedCurvesHaveCoreAnimationControlPoints() {
        let expected: [(TimingCurve, [Double])] = [
            (.easeIn, [0.42, 0, 1, 1]), (.easeOut, [0, 0, 0.58, 1]),
            (.easeInEaseOut, [0.42, 0, 0.58, 1]), (.default, [0.25, 0.1, 0.25, 1]),
        ]
        for (curve, points) in expected {
            guard case .cubic(let b) = curve else { return XCTFail("\(curve) is not cubic") }
            XCTAssertEqual([b.x1, b.y1, b.x2, b.y2], points)
        }
    }

    func testBezierExtrapolatesLinearlyOutsideUnitInterval() {
        let back = CubicBezier(0.68, -0.55, 0.265, 1.55)
        assertClose(back.progress(at: -0.5), -0.5 * (-0.55 / 0.68))
        assertClose(back.progress(at: 1.5), 1 + 0.5 * (1.55 - 1) / (0.265 - 1))
        // x1 == 0: the start gradient falls back to y2 / x2.
        assertClose(CubicBezier(0, 0, 0.58, 1).progress(at: -1), -(1 / 0.58))
        assertClose(TimingCurve.easeIn.evaluate(1), 1, tolerance: 0)
        assertClose(TimingCurve.easeIn.evaluate(0), 0, tolerance: 0)
    }

    func testFlashQuadraticEase() {
        // s = 1 is Flash's full ease-out 2p − p², s = −1 the full ease-in p².
        assertClose(TimingCurve.quadraticEase(1).evaluate(0.25), 0.4375)
        assertClose(TimingCurve.quadraticEase(-1).evaluate(0.25), 0.0625)
        assertClose(TimingCurve.quadraticEase(0.5).evaluate(0.5), 0.625)
        assertClose(TimingCurve.quadraticEase(0).evaluate(0.3), 0.3)
    }

    func testStepsAndHold() {
        assertClose(TimingCurve.steps(4, .end).evaluate(0.49), 0.25)
        assertClose(TimingCurve.steps(4, .start).evaluate(0.49), 0.5)
        assertClose(TimingCurve.steps(4, .start).evaluate(0), 0.25)
        assertClose(TimingCurve.steps(3, .none).evaluate(0.5), 0.5)
        assertClose(TimingCurve.steps(3, .both).evaluate(0.1), 0.25)
        assertClose(TimingCurve.steps(4, .end).evaluate(1), 1)
        assertClose(TimingCurve.hold.evaluate(0.999), 0)
        assertClose(TimingCurve.hold.evaluate(1), 1)
    }

    func testInverseFindsRootNearReference() throws {
        // The back-easing curve passes progress 1.05 twice (rising, then settling).
        let curve = TimingCurve.bezier(0.68, -0.55, 0.265, 1.55)
        let early = try XCTUnwrap(curve.time(forProgress: 1.05, near: 0.6))
        let late = try XCTUnwrap(curve.time(forProgress: 1.05, near: 0.95))
        XCTAssertLessThan(early, late)
        assertClose(curve.evaluate(early), 1.05, tolerance: 1e-9)
        assertClose(curve.evaluate(late), 1.05, tolerance: 1e-9)
        let ease = TimingCurve.easeInEaseOut
        let u = try XCTUnwrap(ease.time(forProgress: 0.3, near: 0))
        assertClose(ease.evaluate(u), 0.3, tolerance: 1e-9)
        XCTAssertNil(TimingCurve.spring(dampingRatio: 0.5).time(forProgress: 0.5, near: 0.5))
        assertClose(try XCTUnwrap(TimingCurve.quadraticEase(0.8).time(forProgress: 0.7, near: 0)),
                    (1.8 - (1.8 * 1.8 - 4 * 0.8 * 0.7).squareRoot()) / 1.6, tolerance: 1e-9)
    }
}

final class TimingCurveNameTests: XCTestCase {
    func testNamesMapToTheCoreAnimationCurves() {
        XCTAssertEqual(TimingCurve(named: "easeInOut"), .easeInEaseOut)
        XCTAssertEqual(TimingCurve(named: "EASE-IN"), .easeIn)
        XCTAssertEqual(TimingCurve(named: "ease"), .default)
        XCTAssertEqual(TimingCurve(named: "ease-out"), .easeOut)
        XCTAssertEqual(TimingCurve(named: "linear"), .linear)
        XCTAssertNil(TimingCurve(named: "bouncy"))
    }

    func testSystemSpringIsOverDampedWithOwnDuration() throws {
        guard case .spring(let timing) = TimingCurve.systemSpring else { return XCTFail("not a spring") }
        assertClose(timing.spring.dampingRatio, 500 / (2 * 3000.0.squareRoot()), tolerance: 1e-12)
        XCTAssertGreaterThan(timing.spring.dampingRatio, 4.5)
        let duration = try XCTUnwrap(TimingCurve.systemSpring.intrinsicDuration).value
        XCTAssertGreaterThan(duration, 0.1)
        XCTAssertLessThan(duration, 5)
    }
}
