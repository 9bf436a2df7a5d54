import KeyframeRaster
import XCTest

/// The verify report's heat map: one fixed scale, so the size of a change shows in its colour.
final class HeatMapTests: XCTestCase {
    /// A 4 × 1 opaque grey frame and a copy whose pixels changed by 0, 1, 5 and 60 per channel.
    func testColourFollowsTheSizeOfTheChangeOnOneScale() throws {
        var expected = Bitmap(width: 4, height: 1)
        expected.clear(to: RGBAColor(r: 100, g: 100, b: 100))
        var actual = expected
        for (x, change) in [0, 1, 5, 60].enumerated() {
            let v = UInt8(100 + change)
            actual.setPixel(x: x, y: 0, PremultipliedPixel(r: v, g: v, b: v, a: 255))
        }
        let difference = try XCTUnwrap(BitmapDifference(actual, expected, tolerance: 2))
        let map = difference.heatMap(actual: actual, expected: expected)
        let unchanged = map.pixel(x: 0, y: 0), within = map.pixel(x: 1, y: 0)
        let five = map.pixel(x: 2, y: 0), sixty = map.pixel(x: 3, y: 0)
        XCTAssertEqual(unchanged.r, unchanged.b, "unchanged pixels are grey")
        XCTAssertEqual(within, BitmapDifference.withinToleranceColor.premultiplied)
        XCTAssertEqual(five, BitmapDifference.heatColor(5).premultiplied)
        XCTAssertEqual(sixty, BitmapDifference.heatColor(60).premultiplied)
        // 5 is on the blue side of the scale, 60 on the yellow side.
        XCTAssertGreaterThan(five.b, five.r)
        XCTAssertGreaterThan(sixty.r, sixty.b)
        XCTAssertGreaterThan(abs(Int(five.r) - Int(sixty.r)) + abs(Int(five.b) - Int(sixty.b)), 200)
    }

    /// Every step up the scale changes the colour, and the legend runs from the colour of 1 to the colour of 255.
    func testScaleIsOrderedAndTheLegendSpansIt() {
        XCTAssertEqual(BitmapDifference.heatPosition(1), 0)
        XCTAssertEqual(BitmapDifference.heatPosition(255), 1)
        var previous = -1.0
        for value in 1...255 {
            let position = BitmapDifference.heatPosition(value)
            XCTAssertGreaterThan(position, previous)
            previous = position
        }
        let legend = BitmapDifference.heatLegend(width: 256, height: 2)
        XCTAssertEqual(legend.pixel(x: 0, y: 0), BitmapDifference.heatColor(1).premultiplied)
        XCTAssertEqual(legend.pixel(x: 255, y: 1), BitmapDifference.heatColor(255).premultiplied)
        XCTAssertEqual(Set((0..<256).map { legend.pixel(x: $0, y: 0) }).count > 100, true, "a gradient, not a few bands")
    }
}
