import KeyframePNG
import KeyframeRaster
import XCTest

/// Prints PNG benchmark figures; asserts nothing about timing.
///
/// Meaningful only in release: `swift test -c release --filter PNGBenchmarkTests`.
final class PNGBenchmarkTests: XCTestCase {
    func testPNGBenchmarkPrintsFigures() throws {
        #if DEBUG
        let frames = 1
        #else
        let frames = 30
        #endif
        let report = try PNGBenchmark.run(PNGBenchmark.Configuration(frames: frames))
        print("BENCH \(report)")
        XCTAssertGreaterThan(report.bytesPerFrame, 0)
        XCTAssertGreaterThan(report.encodeMillisecondsPerFrame, 0)
    }
}
