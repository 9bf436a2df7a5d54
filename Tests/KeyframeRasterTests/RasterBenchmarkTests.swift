import KeyframeRaster
import XCTest

/// Prints the rasterizer benchmark figures; asserts nothing about timing.
///
/// Meaningful only in release: `swift test -c release --filter RasterBenchmarkTests`.
final class RasterBenchmarkTests: XCTestCase {
    func testRasterBenchmarkPrintsFigures() {
        #if DEBUG
        let frames = 1
        let counts = [45]
        #else
        let frames = 120
        let counts = [30, 45, 60]
        #endif
        for count in counts {
            let report = RasterBenchmark.run(RasterBenchmark.Configuration(spriteCount: count, frames: frames))
            print("BENCH \(report)")
            XCTAssertGreaterThan(report.millisecondsPerFrame, 0)
        }
        let small = RasterBenchmark.run(
            RasterBenchmark.Configuration(spriteCount: 45, spriteSizes: 32...128, frames: frames))
        print("BENCH \(small)")
    }
}
