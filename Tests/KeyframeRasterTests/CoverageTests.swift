import KeyframeRaster
import KeyframeTestSupport
import XCTest

/// Exact-area coverage: analytic expectations for axis-aligned and rotated shapes.
final class CoverageTests: XCTestCase {
    private func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [SIMD2<Double>] {
        [SIMD2(x0, y0), SIMD2(x1, y0), SIMD2(x1, y1), SIMD2(x0, y1)]
    }

    func testSquareAtHalfPixelOffsetsCoversQuarterAndHalfBoundaryPixels() {
        var r = Rasterizer()
        let cov = r.coverage(of: rect(1.5, 1.5, 4.5, 4.5), width: 6, height: 6)
        func c(_ x: Int, _ y: Int) -> Float { cov[y * 6 + x] }
        for (x, y) in [(1, 1), (4, 1), (1, 4), (4, 4)] { XCTAssertEqual(c(x, y), 0.25, accuracy: 1e-6) }
        for (x, y) in [(2, 1), (3, 1), (1, 2), (1, 3), (4, 2), (4, 3), (2, 4), (3, 4)] {
            XCTAssertEqual(c(x, y), 0.5, accuracy: 1e-6)
        }
        for (x, y) in [(2, 2), (3, 2), (2, 3), (3, 3)] { XCTAssertEqual(c(x, y), 1, accuracy: 1e-6) }
        for x in 0..<6 { XCTAssertEqual(c(x, 0), 0); XCTAssertEqual(c(x, 5), 0); XCTAssertEqual(c(0, x), 0) }
        XCTAssertEqual(cov.reduce(0, +), 9, accuracy: 1e-5)
    }

    func testAxisAlignedRectanglesMatchProductOfOverlaps() {
        let cases: [(Double, Double, Double, Double)] = [
            (0.3, 0.2, 2.7, 1.0), (1.1, 1.9, 1.4, 5.25), (0.0, 0.0, 8.0, 8.0), (2.75, 3.125, 7.5, 3.875),
        ]
        var r = Rasterizer()
        for (x0, y0, x1, y1) in cases {
            let cov = r.coverage(of: rect(x0, y0, x1, y1), width: 8, height: 8)
            for y in 0..<8 {
                for x in 0..<8 {
                    let ox = max(0, min(Double(x + 1), x1) - max(Double(x), x0))
                    let oy = max(0, min(Double(y + 1), y1) - max(Double(y), y0))
                    XCTAssertEqual(Double(cov[y * 8 + x]), ox * oy, accuracy: 1e-6, "rect \(x0),\(y0)-\(x1),\(y1) at \(x),\(y)")
                }
            }
        }
    }

    func testRotatedSquareCoverageSumsToItsAreaAndMatchesClipping() {
        // A square of side 10 rotated by 45° about (10, 10): area 100.
        let half = 5 * 2.0.squareRoot()
        let diamond = [SIMD2(10, 10 - half), SIMD2(10 + half, 10), SIMD2(10, 10 + half), SIMD2(10 - half, 10)]
        var r = Rasterizer()
        let cov = r.coverage(of: diamond, width: 20, height: 20)
        XCTAssertEqual(Double(cov.reduce(0, +)), 100, accuracy: 1e-3)
        XCTAssertEqual(cov[10 * 20 + 10], 1, accuracy: 1e-6)  // centre
        XCTAssertEqual(cov[0], 0)
        for y in 0..<20 {
            for x in 0..<20 {
                XCTAssertEqual(Double(cov[y * 20 + x]), referenceCoverage(diamond, x, y), accuracy: 1e-5)
            }
        }
    }

    func testArbitraryShapesMatchReferenceClippingInBothOrientations() {
        var generator = SeededGenerator(seed: 7)
        var r = Rasterizer()
        for _ in 0..<40 {
            let centre = SIMD2(generator.next(in: -4...20), generator.next(in: -4...20))
            let angle = generator.next(in: 0...(2 * Double.pi))
            let size = SIMD2(generator.next(in: 0.3...12), generator.next(in: 0.3...12))
            let m = Affine.translation(centre.x, centre.y).concatenating(.rotation(angle))
            var quad = [SIMD2(-size.x / 2, -size.y / 2), SIMD2(size.x / 2, -size.y / 2),
                        SIMD2(size.x / 2, size.y / 2), SIMD2(-size.x / 2, size.y / 2)].map(m.apply)
            if generator.next(in: 0...1) < 0.5 { quad.removeLast() }  // a triangle
            let forward = r.coverage(of: quad, width: 17, height: 15)
            let backward = r.coverage(of: quad.reversed(), width: 17, height: 15)
            for y in 0..<15 {
                for x in 0..<17 {
                    let expected = referenceCoverage(quad, x, y)
                    XCTAssertEqual(Double(forward[y * 17 + x]), expected, accuracy: 1e-5, "\(quad) at \(x),\(y)")
                    XCTAssertEqual(forward[y * 17 + x], backward[y * 17 + x], accuracy: 1e-6)
                }
            }
        }
    }

    func testShapesLargerThanTheCanvasAreClippedExactly() {
        var r = Rasterizer()
        let big = [SIMD2(-1e6, -3.5), SIMD2(1e6, 2.25), SIMD2(1e6, 1e6), SIMD2(-1e6, 1e6)]
        let cov = r.coverage(of: big, width: 8, height: 8)
        for y in 0..<8 {
            for x in 0..<8 {
                XCTAssertEqual(Double(cov[y * 8 + x]), referenceCoverage(big, x, y), accuracy: 1e-5)
            }
        }
    }

    func testSharedEdgeCoveragesSumToUnion() {
        var r = Rasterizer()
        let a = SIMD2(1.3, 0.7), b = SIMD2(11.6, 1.9), c = SIMD2(10.2, 12.4), d = SIMD2(0.4, 10.8)
        let t1 = r.coverage(of: [a, b, c], width: 14, height: 14)
        let t2 = r.coverage(of: [a, c, d], width: 14, height: 14)
        let union = r.coverage(of: [a, b, c, d], width: 14, height: 14)
        for i in union.indices { XCTAssertEqual(t1[i] + t2[i], union[i], accuracy: 1e-6) }
    }

    func testDegenerateInputGivesNoCoverageAndNoCrash() {
        var r = Rasterizer()
        XCTAssertEqual(r.coverage(of: [SIMD2(1, 1), SIMD2(5, 5), SIMD2(9, 9)], width: 10, height: 10).reduce(0, +), 0)
        XCTAssertEqual(r.coverage(of: [SIMD2(.nan, 1), SIMD2(5, 5), SIMD2(9, 1)], width: 10, height: 10).reduce(0, +), 0)
        XCTAssertEqual(r.coverage(of: [SIMD2(.infinity, 1), SIMD2(5, 5), SIMD2(9, 1)], width: 4, height: 4).reduce(0, +), 0)
        XCTAssertEqual(r.coverage(of: [SIMD2(1, 1), SIMD2(5, 5)], width: 10, height: 10).reduce(0, +), 0)
        XCTAssertTrue(r.coverage(of: [SIMD2(1, 1), SIMD2(5, 5), SIMD2(1, 5)], width: 0, height: 10).isEmpty)
    }
}

extension SeededGenerator {
    /// A uniform value in `range`, for reproducible test shapes.
    mutating func next(in range: ClosedRange<Double>) -> Double {
        let unit = Double(next() >> 11) / Double(1 << 53)
        return range.lowerBound + unit * (range.upperBound - range.lowerBound)
    }
}
