import Foundation
import KeyframeTestSupport
import XCTest

/// `keyframe render --duration`: a clip played for longer than its own frames, with nested movies on their own clock.
final class DurationCLITests: XCTestCase {
    /// A Flump library whose one-frame movie `holder` shows the 80-frame movie `spinner` (see its README).
    var library: String {
        TestPaths.packageRoot.appendingPathComponent("Tests/KeyframeEngineTests/Fixtures/flump-own/nested-clock/export").path
    }

    func testAOneFrameClipRenderedForASecondShowsItsNestedMovieRunning() throws {
        let out = try TestPaths.temporaryFolder("render-cli-duration")
        addTeardownBlock { try? FileManager.default.removeItem(at: out) }
        let result = try CLIRunner.run(["render", library, "--clip", "holder", "--duration", "1", "--fit", "content",
                                        "-o", out.path, "--jobs", "2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("holder: 24 frame(s)"), result.stdout)
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".png") }.sorted()
        XCTAssertEqual(files.count, 24)
        // The bar moves every frame: no two frames are the same picture.
        let contents = try Set(files.map { try Data(contentsOf: out.appendingPathComponent($0)) })
        XCTAssertEqual(contents.count, 24)
        // Without --duration the clip is one frame long.
        let single = try TestPaths.temporaryFolder("render-cli-duration-1")
        addTeardownBlock { try? FileManager.default.removeItem(at: single) }
        let once = try CLIRunner.run(["render", library, "--clip", "holder", "-o", single.path])
        XCTAssertEqual(once.status, 0, once.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: single.path).count, 1)
    }

    func testDurationMustBePositive() throws {
        let result = try CLIRunner.run(["render", library, "--duration", "0", "-o", "/tmp"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("--duration 0: must be a number of seconds above 0 and at most 1000000"), result.stderr)
    }
}
