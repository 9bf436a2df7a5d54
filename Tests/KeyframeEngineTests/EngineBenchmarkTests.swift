import XCTest
@testable import KeyframeEngine

final class EngineBenchmarkTests: XCTestCase {
    /// Runs the benchmark at a tiny size: it must do the work and report it (times are not asserted).
    func testBenchmarkRunsAtTinySize() {
        let report = EngineBenchmark.run(animators: 20, ticks: 5)
        XCTAssertEqual(report.animators, 20)
        XCTAssertEqual(report.ticks, 5)
        XCTAssertGreaterThan(report.cubicAnimatorTick.value, 0)
        XCTAssertGreaterThan(report.plainInterpolationTick.value, 0)
        XCTAssertTrue(report.checksum.isFinite)
        XCTAssertGreaterThan(report.checksum, 0)
        XCTAssertTrue(report.description.contains("cubic / plain lerp"))
        if ProcessInfo.processInfo.environment["KEYFRAME_BENCH"] != nil {
            print(EngineBenchmark.run(animators: 10_000, ticks: 120))
        }
    }
}
