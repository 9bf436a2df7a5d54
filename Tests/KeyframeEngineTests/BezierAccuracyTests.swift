import Foundation
import KeyframeTestSupport
import XCTest
@testable import KeyframeEngine

/// Every eased value of a cubic Bézier (x1, x2 in 0…1) is within 1e-9 of the exact curve: against an independent
/// extended-precision solve (``ExactBezier``) over more than 10⁵ random curves and inputs, steep, near-linear,
/// vertical at an end and nearly stopping in the middle included, and against the exact values of the golden table.
final class BezierAccuracyTests: XCTestCase {
    /// The guarantee (docs/engine.md § Performance).
    private let bound = 1e-9

    private func requireReference() throws {
        guard ExactBezier.isAvailable else { throw XCTSkip("the exact reference needs Float80 (x86-64)") }
    }

    /// One family of curves the test draws from.
    private enum Family: CaseIterable {
        case ordinary, steep, verticalEnds, nearlyVerticalEnds, nearlyLinear, nearlyStoppingMiddle, stoppingMiddle

        func curve(_ rng: inout SeededGenerator) -> (Double, Double, Double, Double) {
            func unit() -> Double { Double.random(in: 0...1, using: &rng) }
            switch self {
            case .ordinary:
                return (unit(), Double.random(in: -1...2, using: &rng), unit(), Double.random(in: -1...2, using: &rng))
            case .steep:
                return (unit(), Double.random(in: -20...20, using: &rng), unit(), Double.random(in: -20...20, using: &rng))
            case .verticalEnds:
                // x1 = 0 and/or x2 = 1: x′ vanishes at an end, where y′ does not.
                let which = Int.random(in: 0..<3, using: &rng)
                return (which == 1 ? unit() : 0, Double.random(in: -2...3, using: &rng),
                        which == 0 ? unit() : 1, Double.random(in: -2...3, using: &rng))
            case .nearlyVerticalEnds:
                return (unit() * 1e-6, Double.random(in: -2...3, using: &rng), 1 - unit() * 1e-6,
                        Double.random(in: -2...3, using: &rng))
            case .nearlyLinear:
                let x1 = unit(), x2 = unit()
                return (x1, x1 + Double.random(in: -1e-7...1e-7, using: &rng), x2,
                        x2 + Double.random(in: -1e-7...1e-7, using: &rng))
            case .nearlyStoppingMiddle:
                // Near cubic-bezier(1, y1, 0, y2): x′ falls to 1e-5…1e-2 around t = ½.
                return (1 - unit() * 0.01, Double.random(in: -1...2, using: &rng), unit() * 0.01,
                        Double.random(in: -1...2, using: &rng))
            case .stoppingMiddle:
                return (1, Double.random(in: -1...2, using: &rng), 0, Double.random(in: -1...2, using: &rng))
            }
        }
    }

    /// Time fractions: uniform, near each end (down to 1e-15), near ½, on and beside the solver's bucket boundaries.
    private func input(_ rng: inout SeededGenerator) -> Double {
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: return pow(10, -Double.random(in: 1...15, using: &rng))
        case 1: return 1 - pow(10, -Double.random(in: 1...15, using: &rng))
        case 2: return 0.5 + Double.random(in: -1e-6...1e-6, using: &rng)
        case 3: return Double(Int.random(in: 1..<1024, using: &rng)) / 1024
        case 4: return Double(Int.random(in: 1..<1024, using: &rng)) / 1024 + Double.random(in: -1e-12...1e-12, using: &rng)
        default: return Double.random(in: Double.ulpOfOne...(1 - Double.ulpOfOne), using: &rng)
        }
    }

    func testEveryValueIsWithin1e9OfTheExactCurve() throws {
        try requireReference()
        var rng = SeededGenerator(seed: 2027)
        var worst = [String: Double]()
        var checked = 0
        for family in Family.allCases {
            // 400 curves per family, 40 inputs each: 112,000 values.
            for _ in 0..<400 {
                let (x1, y1, x2, y2) = family.curve(&rng)
                let curve = CubicBezier(x1, y1, x2, y2)
                for _ in 0..<40 {
                    let x = input(&rng)
                    guard x > 0 && x < 1 else { continue }
                    let error = abs(curve.progress(at: x) - ExactBezier.progress(x1, y1, x2, y2, at: x))
                    worst["\(family)", default: 0] = max(worst["\(family)", default: 0], error)
                    if !(error <= bound) {
                        XCTFail("\(family) cubic-bezier(\(x1), \(y1), \(x2), \(y2)) at \(x): off by \(error)")
                    }
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 100_000)
        print("bezier accuracy: \(checked) values, worst |error| per family: "
              + worst.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }

    /// The direct solve alone (what the grid falls back on, and builds its buckets from) meets the bound too.
    func testDirectSolveIsWithin1e9OfTheExactCurve() throws {
        try requireReference()
        var rng = SeededGenerator(seed: 31)
        for _ in 0..<2_000 {
            let family = Family.allCases.filter { $0 != .stoppingMiddle && $0 != .nearlyStoppingMiddle }
                .randomElement(using: &rng)!
            let (x1, y1, x2, y2) = family.curve(&rng)
            let far = Bool.random(using: &rng)
            let end = far ? BezierEnd(1 - x2, 1 - y2, 1 - x1, 1 - y1) : BezierEnd(x1, y1, x2, y2)
            // At the far end the target is 1 − x for an x in ½…1, which is exact (the curve is asked at x).
            let x = far ? max(0.5, input(&rng)) : min(0.5, input(&rng))
            let target = far ? 1 - x : x
            guard target > 0 else { continue }
            let y = end.y(end.parameter(for: target))
            let exact = far ? 1 - ExactBezier.progress(x1, y1, x2, y2, at: x) : ExactBezier.progress(x1, y1, x2, y2, at: x)
            XCTAssertLessThanOrEqual(abs(y - exact), bound, "\(family) (\(x1), \(y1), \(x2), \(y2)) at \(target)")
        }
    }

    /// A bucket the grid certifies must hold its promise everywhere inside: its start's y within the tolerance
    /// (1e-11) of the exact value, up to rounding. Fails if the error bound behind the certificate were wrong.
    func testCertifiedBucketsKeepTheirPromise() throws {
        try requireReference()
        var rng = SeededGenerator(seed: 5)
        var certified = 0, total = 0
        for _ in 0..<60 {
            let (x1, y1, x2, y2) = Family.ordinary.curve(&rng)
            for far in [false, true] {
                let end = far ? BezierEnd(1 - x2, 1 - y2, 1 - x1, 1 - y1) : BezierEnd(x1, y1, x2, y2)
                for g in stride(from: 0, to: BezierEnd.gridBuckets, by: 7) {
                    let bucket = end.bucket(g)
                    total += 1
                    guard bucket.isCertified else { continue }
                    certified += 1
                    for position in [0.0078125, 0.25, 0.5, 0.765625, 0.9921875] {
                        // Positions and targets exact in binary (so that 1 − target is exact too).
                        let target = (Double(g) + position) * BezierEnd.gridWidth
                        let y = end.y(BezierEnd.gridStart(BezierEnd.bucket(holding: target).position, bucket))
                        let exact = far ? 1 - ExactBezier.progress(x1, y1, x2, y2, at: 1 - target)
                            : ExactBezier.progress(x1, y1, x2, y2, at: target)
                        XCTAssertLessThanOrEqual(abs(y - exact), 2e-11, "(\(x1), \(y1), \(x2), \(y2)) bucket \(g)")
                    }
                }
            }
        }
        // Most buckets of ordinary curves are certified; the others take the residual test.
        XCTAssertGreaterThan(Double(certified) / Double(total), 0.8)
        XCTAssertLessThan(certified, total)
    }

    /// The golden table's exact values (a high-precision solve by the oracle) within 1e-9, which puts every value
    /// within Chromium's own error of Chromium's (its solver stops at |x(t) − x| < 1e-7).
    func testMatchesTheGoldenExactValues() throws {
        let url = TestPaths.shared.appendingPathComponent("golden/bezier.json")
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw XCTSkip("golden table not found at \(url.path); ../shared must sit beside the checkout")
        }
        let root = try XCTUnwrap(loadJSON(url) as? [String: Any])
        let curves = try XCTUnwrap(root["curves"] as? [String: [String: Any]])
        var checked = 0, worstExact = 0.0, worstChromium = 0.0
        for (name, curve) in curves.sorted(by: { $0.key < $1.key }) {
            let cp = try XCTUnwrap(curve["control_points"] as? [Double])
            let bezier = CubicBezier(cp[0], cp[1], cp[2], cp[3])
            for point in try XCTUnwrap(curve["points"] as? [[String: Any]]) {
                let x = try XCTUnwrap((point["x"] as? NSNumber)?.doubleValue)
                let exact = try XCTUnwrap((point["y_exact"] as? NSNumber)?.doubleValue)
                let chromium = try XCTUnwrap((point["y"] as? NSNumber)?.doubleValue)
                let y = bezier.progress(at: x)
                XCTAssertLessThanOrEqual(abs(y - exact), bound, "\(name) at x=\(x)")
                XCTAssertLessThanOrEqual(abs(y - chromium), abs(chromium - exact) + bound, "\(name) at x=\(x)")
                worstExact = max(worstExact, abs(y - exact))
                worstChromium = max(worstChromium, abs(y - chromium))
                checked += 1
            }
        }
        XCTAssertEqual(checked, 6 * 21)
        print("bezier golden: \(checked) points, max |error| vs exact \(worstExact), vs Chromium \(worstChromium)")
    }

    func testFlatMiddleCurvesTakeTheExpansionSolver() {
        XCTAssertNotNil(BezierFlatMiddle(CubicBezier(1, 0, 0, 1)))
        XCTAssertNotNil(BezierFlatMiddle(CubicBezier(0.999, 0.2, 0.001, 0.9)))
        for curve in [TimingCurve.easeIn, .easeOut, .easeInEaseOut, .default] {
            guard case .cubic(let bezier) = curve else { return XCTFail("not cubic") }
            XCTAssertNil(BezierFlatMiddle(bezier), "\(bezier)")
        }
        // Symmetric: cubic-bezier(1, 0, 0, 1) passes through (½, ½).
        XCTAssertEqual(CubicBezier(1, 0, 0, 1).progress(at: 0.5), 0.5, accuracy: 1e-15)
    }
}
