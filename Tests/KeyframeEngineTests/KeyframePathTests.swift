import Foundation
import XCTest
@testable import KeyframeEngine

/// `CAKeyframeAnimation.path` and `rotationMode` (engine.md §d.6–7). Expected points are worked
/// out by hand from the Bézier formulas; paced travel is checked against polyline lengths
/// computed here.
final class KeyframePathTests: XCTestCase {
    private typealias P = KeyframePath.Point

    /// (0,0) —line→ (10,0) —quad via (20,0)→ (20,10) —cubic via (20,20), (0,20)→ (0,10).
    private let mixed = KeyframePath(start: P(0, 0), segments: [
        .line(to: P(10, 0)),
        .quad(control: P(20, 0), to: P(20, 10)),
        .cubic(control1: P(20, 20), control2: P(0, 20), to: P(0, 10)),
    ])

    private func assertPoint(_ value: [Double], _ x: Double, _ y: Double, accuracy: Double = 1e-12,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(value.count, 2, file: file, line: line)
        XCTAssertEqual(value[0], x, accuracy: accuracy, "x", file: file, line: line)
        XCTAssertEqual(value[1], y, accuracy: accuracy, "y", file: file, line: line)
    }

    func testVerticesAreTheKeyframesAndSegmentsKeepTheirGeometry() {
        let track = KeyframeTrack(path: mixed)
        XCTAssertEqual(track.values, [[0, 0], [10, 0], [20, 10], [0, 10]])
        XCTAssertEqual(track.resolvedKeyTimes, [0, 1.0 / 3, 2.0 / 3, 1])
        assertPoint(track.value(at: 0), 0, 0)
        assertPoint(track.value(at: 1.0 / 6), 5, 0)
        // Quad at u = ½: ¼·(10,0) + ½·(20,0) + ¼·(20,10).
        assertPoint(track.value(at: 0.5), 17.5, 2.5)
        // Cubic at u = ½: ⅛·(20,10) + ⅜·(20,20) + ⅜·(0,20) + ⅛·(0,10).
        assertPoint(track.value(at: 5.0 / 6), 10, 17.5)
        assertPoint(track.value(at: 1), 0, 10)
        // cubic mode follows the same geometry (no spline through the vertices).
        XCTAssertEqual(KeyframeTrack(path: mixed, calculationMode: .cubic).value(at: 0.5), track.value(at: 0.5))
    }

    func testKeyTimesCountVerticesAndSegmentsHaveTheirOwnTiming() {
        let track = KeyframeTrack(path: mixed, keyTimes: [0, 0.5, 0.75, 1], timingFunctions: [.easeIn])
        // f = 0.25 is u = ½ of the first segment; ease-in(½) = 0.31535681257 (the exact curve: y_exact of
        // ../shared/golden/bezier.json; Chromium's solver gives 0.315356734).
        assertPoint(track.value(at: 0.25), 3.1535681257, 0, accuracy: 1e-8)
        // The second segment has no timing function: linear in u.
        assertPoint(track.value(at: 0.625), 17.5, 2.5)
        // Key times with the wrong count fall back to even spacing.
        XCTAssertEqual(KeyframeTrack(path: mixed, keyTimes: [0, 1]).resolvedKeyTimes, [0, 1.0 / 3, 2.0 / 3, 1])
    }

    func testDiscreteHoldsEachVertex() {
        let track = KeyframeTrack(path: mixed, keyTimes: [0, 0.1, 0.2, 0.6, 1], calculationMode: .discrete)
        assertPoint(track.value(at: 0.05), 0, 0)
        assertPoint(track.value(at: 0.15), 10, 0)
        assertPoint(track.value(at: 0.5), 20, 10)
        assertPoint(track.value(at: 0.65), 0, 10)
    }

    func testPacedTravelsLinesAtConstantSpeedIgnoringKeyTimes() {
        // A 30 × 10 rectangle: 80 units around.
        let rectangle = KeyframePath(start: P(0, 0), segments: [
            .line(to: P(30, 0)), .line(to: P(30, 10)), .line(to: P(0, 10)), .line(to: P(0, 0)),
        ])
        let track = KeyframeTrack(path: rectangle, keyTimes: [0, 0.1, 0.2, 0.3, 1], timingFunctions: [.easeIn],
                                  timingFunction: .easeOut, calculationMode: .paced)
        let expected = [0, 30.0 / 80, 40.0 / 80, 70.0 / 80, 1]
        for (a, b) in zip(track.resolvedKeyTimes, expected) { XCTAssertEqual(a, b, accuracy: 1e-12) }
        assertPoint(track.value(at: 0.25), 20, 0, accuracy: 1e-9)
        assertPoint(track.value(at: 0.5), 30, 10, accuracy: 1e-9)
        assertPoint(track.value(at: 0.6), 22, 10, accuracy: 1e-9)
        assertPoint(track.value(at: 0.95), 0, 4, accuracy: 1e-9)
    }

    func testPacedTravelsCurvesAtConstantSpeed() throws {
        let track = KeyframeTrack(path: mixed, calculationMode: .cubicPaced)
        // The path's length from a fine polyline, independent of the track's integration.
        var polyline = 0.0
        for segment in 0..<mixed.segments.count {
            var previous = mixed.point(segment: segment, at: 0)
            for k in 1...20_000 {
                let point = mixed.point(segment: segment, at: Double(k) / 20_000)
                polyline += hypot(point.x - previous.x, point.y - previous.y)
                previous = point
            }
        }
        let total = try XCTUnwrap(track.pathLength).total
        XCTAssertEqual(total, polyline, accuracy: 1e-6)
        // Equal steps in time are equal steps along the path.
        let steps = 400
        var previous = track.value(at: 0)
        for k in 1...steps {
            let value = track.value(at: Double(k) / Double(steps))
            let chord = hypot(value[0] - previous[0], value[1] - previous[1])
            // A chord is at most the arc it spans; on these curves it is within 0.05 % of it.
            XCTAssertEqual(chord, total / Double(steps), accuracy: total / Double(steps) * 5e-4, "step \(k)")
            previous = value
        }
        assertPoint(track.value(at: 1), 0, 10, accuracy: 1e-9)
    }

    func testRotationFollowsTheDirectionOfTravel() throws {
        let diagonal = KeyframePath(start: P(0, 0), segments: [.line(to: P(10, 10))])
        XCTAssertEqual(try XCTUnwrap(KeyframeTrack(path: diagonal, rotationMode: .auto).rotation(at: 0.3)),
                       Double.pi / 4, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(KeyframeTrack(path: diagonal, rotationMode: .autoReverse).rotation(at: 0.3)),
                       -3 * Double.pi / 4, accuracy: 1e-12)
        let track = KeyframeTrack(path: mixed, rotationMode: .auto)
        // The quad leaves (10,0) towards its control point (20,0) and arrives from it at (20,10).
        XCTAssertEqual(try XCTUnwrap(track.rotation(at: 1.0 / 3 + 1e-12)), 0, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(track.rotation(at: 2.0 / 3 - 1e-12)), Double.pi / 2, accuracy: 1e-9)
        // Cubic at u = ½: ¾·(c1 − p0) + 3/2·(c2 − c1) + ¾·(p1 − c2) = (−30, 0): heading −x.
        XCTAssertEqual(abs(try XCTUnwrap(track.rotation(at: 5.0 / 6))), Double.pi, accuracy: 1e-9)
        XCTAssertNil(KeyframeTrack(path: mixed).rotation(at: 0.5), "no rotation mode, no rotation")
        XCTAssertNil(KeyframeTrack(scalars: [0, 1]).rotation(at: 0.5))
    }

    func testRotationWhereTheDerivativeVanishes() throws {
        // The first control point sits on the start: the curve leaves towards the second one.
        let curve = KeyframePath(start: P(0, 0), segments: [
            .cubic(control1: P(0, 0), control2: P(10, 10), to: P(20, 10)),
        ])
        let track = KeyframeTrack(path: curve, rotationMode: .auto)
        XCTAssertEqual(try XCTUnwrap(track.rotation(at: 0)), Double.pi / 4, accuracy: 1e-12)
        // A discrete track turns to the segment leaving each vertex; at the last, the one arriving.
        let discrete = KeyframeTrack(path: mixed, calculationMode: .discrete, rotationMode: .auto)
        XCTAssertEqual(try XCTUnwrap(discrete.rotation(at: 0.3)), 0, accuracy: 1e-12)   // vertex 1, quad leaves +x
        XCTAssertEqual(try XCTUnwrap(discrete.rotation(at: 0.9)), -Double.pi / 2, accuracy: 1e-12)   // cubic arrives −y
    }

    func testMoveJumpsAndHasNoLength() throws {
        let path = KeyframePath(start: P(0, 0), segments: [
            .line(to: P(10, 0)), .move(to: P(50, 50)), .line(to: P(60, 50)),
        ])
        let track = KeyframeTrack(path: path, rotationMode: .auto)
        assertPoint(track.value(at: 0.5), 10, 0)            // inside the move: still at its start
        assertPoint(track.value(at: 2.0 / 3 + 1e-9), 50, 50, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(track.rotation(at: 0.5)), 0, accuracy: 1e-12, "borrowed from the line before")
        let paced = KeyframeTrack(path: path, calculationMode: .paced)
        XCTAssertEqual(paced.resolvedKeyTimes, [0, 0.5, 0.5, 1])
        assertPoint(paced.value(at: 0.25), 5, 0, accuracy: 1e-9)
        assertPoint(paced.value(at: 0.75), 55, 50, accuracy: 1e-9)
    }

    /// Bad numbers give bad values, quickly: arc-length integration must not recurse to its full
    /// depth on NaN or infinite speeds.
    func testNonFiniteCoordinatesDoNotHang() {
        let start = Date()
        let path = KeyframePath(start: P(0, 0), segments: [
            .cubic(control1: P(.nan, 0), control2: P(10, 10), to: P(20, 10)),
            .quad(control: P(.infinity, 0), to: P(30, 30)),
        ])
        for mode in CalculationMode.allCases {
            let track = KeyframeTrack(path: path, calculationMode: mode, rotationMode: .auto)
            _ = track.value(at: 0.5)
            _ = track.rotation(at: 0.5)
        }
        let spline = KeyframeTrack(values: [[0], [.nan], [2], [.infinity]], calculationMode: .cubicPaced)
        _ = spline.value(at: 0.3)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "must not take the integration to full depth")
    }
}
