import KeyframeBenchmarks
import XCTest

/// Runs each benchmark at a tiny size: the code that `keyframe bench` runs must do its work and report it.
///
/// Nothing here measures speed (timings are not asserted, and a debug build says nothing about them); the benchmarks
/// themselves run through `keyframe bench` in a release build (docs/performance.md).
final class BenchmarkSmokeTests: XCTestCase {
    func testEngineBenchmarkRunsAtTinySize() {
        let report = EngineBenchmark.run(animators: 20, ticks: 5)
        XCTAssertEqual(report.animators, 20)
        XCTAssertEqual(report.ticks, 5)
        XCTAssertGreaterThan(report.cubicAnimatorTick.value, 0)
        XCTAssertGreaterThan(report.plainInterpolationTick.value, 0)
        XCTAssertTrue(report.checksum.isFinite)
        XCTAssertGreaterThan(report.checksum, 0)
        XCTAssertTrue(report.description.contains("cubic / plain lerp"))
    }

    func testRasterBenchmarkRunsAtTinySize() {
        let report = RasterBenchmark.run(
            RasterBenchmark.Configuration(frameSize: 96, spriteCount: 4, spriteSizes: 16...32, frames: 1))
        XCTAssertGreaterThan(report.millisecondsPerFrame, 0)
        XCTAssertFalse(report.description.isEmpty)
    }

    func testPNGBenchmarkRunsAtTinySize() throws {
        let scene = RasterBenchmark.Configuration(frameSize: 96, spriteCount: 4, spriteSizes: 16...32, frames: 1)
        let report = try PNGBenchmark.run(PNGBenchmark.Configuration(scene: scene, frames: 1))
        XCTAssertGreaterThan(report.bytesPerFrame, 0)
        XCTAssertGreaterThan(report.encodeMillisecondsPerFrame, 0)
    }
}
