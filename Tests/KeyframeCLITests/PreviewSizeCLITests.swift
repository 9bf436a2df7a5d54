import Foundation
import KeyframeTestSupport
import XCTest

/// `preview --size` accepts only what the page can hold (trust trial, class 6): a size whose frames its picture
/// encoder cannot decode is a usage error naming the option, before anything is rendered. Before: the frames were
/// rendered, then the error named the internal scratch file and an internal error name.
final class PreviewSizeCLITests: XCTestCase {
    func testASizeThePageCannotHoldIsAUsageError() throws {
        let walker = TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker").path
        let work = try TestPaths.temporaryFolder("preview-size")
        defer { try? FileManager.default.removeItem(at: work) }
        let page = work.appendingPathComponent("p.html").path
        for size in ["16384x16384", "16384x8193", "12000x12000"] {
            let result = try CLIRunner.run(["preview", walker, "--size", size, "--frames", "0", "-o", page])
            XCTAssertEqual(result.status, 2, "\(size): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("keyframe: error: --size \(size): a preview frame holds at most "),
                          result.stderr)
            for leaked in ["keyframe-preview-", "PNGError", "tooLarge", "scratch"] {
                XCTAssertFalse(result.stderr.contains(leaked), "\(size): \(result.stderr)")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: page))
        }
    }
}
