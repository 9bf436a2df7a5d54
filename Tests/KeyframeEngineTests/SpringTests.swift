import Foundation
import KeyframeTestSupport
import XCTest
@testable import KeyframeEngine

final class SpringTests: XCTestCase {
    /// The fitted threshold reproduces UIKit's published settling time for m 1, k 100, c 10.
    func testSettlingDurationMatchesUIKitDataPoint() {
        assertClose(Spring(mass: 1, stiffness: 100, damping: 10).settlingDuration, 1.4727003346780927, tolerance: 1e-6)
        // Apple: damping 5 ≈ 2.85 s, damping 15 "just over 1 second"; the fit gives 2.90 and 1.018.
        assertClose(Spring(mass: 1, stiffness: 100, damping: 5).settlingDuration, 2.90, tolerance: 0.01)
        assertClose(Spring(mass: 1, stiffness: 100, damping: 15).settlingDuration, 1.018, tolerance: 0.01)
        XCTAssertEqual(TimingCurve.spring(mass: 1, stiffness: 100, damping: 10).intrinsicDuration.map { $0.value } ?? 0,
                       1.4727003346780927, accuracy: 1e-6)
    }

    /// Closed forms satisfy the differential equation and the initial conditions.
    func testDisplacementSolvesTheOscillatorEquation() {
        let springs = [
            Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0),      // under-damped
            Spring(mass: 2, stiffness: 50, damping: 20, initialVelocity: 3),       // critical
            Spring(mass: 3, stiffness: 1000, damping: 500, initialVelocity: -2),   // over-damped (UIKit default)
        ]
        XCTAssertLessThan(springs[0].dampingRatio, 1)
        assertClose(springs[1].dampingRatio, 1)
        XCTAssertGreaterThan(springs[2].dampingRatio, 4.5)
        for spring in springs {
            let h = 1e-4
            assertClose(spring.displacement(at: 0), 1, tolerance: 1e-12)
            let k = 1e-7
            assertClose((spring.displacement(at: k) - spring.displacement(at: -k)) / (2 * k), -spring.initialVelocity,
                        tolerance: 1e-5)
            for t in stride(from: 0.05, through: 1.0, by: 0.05) {
                let x = spring.displacement(at: t)
                let v = (spring.displacement(at: t + h) - spring.displacement(at: t - h)) / (2 * h)
                let a = (spring.displacement(at: t + h) - 2 * x + spring.displacement(at: t - h)) / (h * h)
                let residual = spring.mass * a + spring.damping * v + spring.stiffness * x
                XCTAssertLessThan(abs(residual), 1e-3 * max(1, spring.stiffness), "\(spring) t=\(t)")
            }
        }
    }

    /// Critically and over-damped settling: |x| stays below the threshold after, and not before.
    func testNumericSettlingIsTheLastThresholdCrossing() {
        for spring in [Spring(mass: 1, stiffness: 100, damping: 20), Spring(mass: 3, stiffness: 1000, damping: 500),
                       Spring(mass: 1, stiffness: 100, damping: 30, initialVelocity: 40)] {
            let settle = spring.settlingDuration
            XCTAssertGreaterThanOrEqual(abs(spring.displacement(at: settle - 1e-6)), Spring.settlingThreshold * 0.999)
            for k in 1...200 {
                XCTAssertLessThan(abs(spring.displacement(at: settle + Double(k) * settle / 50)), Spring.settlingThreshold)
            }
        }
    }

    func testSwiftUIMappings() {
        let s = Spring(response: 0.5, dampingRatio: 0.7)
        assertClose(s.stiffness, pow(2 * .pi / 0.5, 2))
        assertClose(s.damping, 4 * .pi * 0.7 / 0.5)
        assertClose(s.dampingRatio, 0.7)
        // Apple's example: Spring(duration: 0.5, bounce: 0.3) → stiffness 157.9, damping 17.6.
        let b = Spring(duration: 0.5, bounce: 0.3)
        assertClose(b.stiffness, 157.9, tolerance: 0.05)
        assertClose(b.damping, 17.6, tolerance: 0.05)
        assertClose(Spring(duration: 1, bounce: -0.5).dampingRatio, 2)
    }

    /// A damping-ratio spring is stretched: the same shape at every duration, ending at 1.
    func testDampingRatioSpringIsStretchedToDuration() {
        let curve = TimingCurve.spring(dampingRatio: 0.3)
        assertClose(curve.evaluate(0.2, duration: 0.5), curve.evaluate(0.2, duration: 3))
        XCTAssertGreaterThan((0...100).map { curve.evaluate(Double($0) / 100) }.max() ?? 0, 1.2, "ζ 0.3 overshoots")
        assertClose(curve.evaluate(1), 1, tolerance: 0)
        assertClose(curve.evaluate(0.999), 1, tolerance: 2e-3)
        // With velocity the curve depends on the duration: velocity is per second.
        let fast = TimingCurve.spring(dampingRatio: 1, initialVelocity: 5)
        XCTAssertGreaterThan(fast.evaluate(0.05, duration: 2), fast.evaluate(0.05, duration: 0.5))
        // Initial slope in progress per second equals the velocity.
        let d = 2.0, h = 1e-6
        assertClose(fast.evaluate(h / d, duration: d) / h, 5, tolerance: 1e-3)
    }
}
