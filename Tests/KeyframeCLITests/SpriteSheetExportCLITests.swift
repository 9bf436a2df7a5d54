import Foundation
import KeyframeTestSupport
import XCTest

/// `keyframe export --to spritesheet` as a user runs it: files named after -o, the options' checks and exit codes.
final class SpriteSheetExportCLITests: XCTestCase {
    private let walker = TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker").path

    func testPagesAreNamedAfterTheDataFileAndRunsRepeatByteForByte() throws {
        let out = try TestPaths.temporaryFolder("sheet-cli")
        let first = try CLIRunner.run(["export", walker, "--to", "spritesheet", "--sheet-format", "json-hash",
                                       "--max-size", "512", "-o", out.appendingPathComponent("a/walker.json").path])
        XCTAssertEqual(first.status, 0, first.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("a").path).sorted()
        XCTAssert(names.contains("walker-0.json") || names.contains("walker.json"), "\(names)")
        XCTAssert(names.contains { $0.hasPrefix("walker") && $0.hasSuffix(".png") }, "\(names)")
        let second = try CLIRunner.run(["export", walker, "--to", "spritesheet", "--sheet-format", "json-hash",
                                        "--max-size", "512", "--jobs", "1",
                                        "-o", out.appendingPathComponent("b/walker.json").path])
        XCTAssertEqual(second.status, 0, second.stderr)
        for name in names {
            XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("a/\(name)")),
                           try Data(contentsOf: out.appendingPathComponent("b/\(name)")), name)
        }
    }

    func testOptionsThatCannotApplyAreUsageErrors() throws {
        let out = try TestPaths.temporaryFolder("sheet-cli").appendingPathComponent("s.xml").path
        for arguments in [["--to", "lottie", "--padding", "3"], ["--to", "spritesheet", "--rotate"],
                          ["--to", "spritesheet", "--sheet-format", "godot", "--rotate"],
                          ["--to", "spritesheet", "--pot", "--max-size", "1000"]] {
            let run = try CLIRunner.run(["export", walker, "-o", out] + arguments)
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.stderr)")
            XCTAssert(run.stderr.hasPrefix("keyframe: error: "), run.stderr)
        }
        let tooSmall = try CLIRunner.run(["export", walker, "--to", "spritesheet", "--max-size", "16", "-o", out])
        XCTAssertEqual(tooSmall.status, 1)
        XCTAssert(tooSmall.stderr.contains("does not fit a page of at most 16 pixels"), tooSmall.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }
}
