import Foundation
import KeyframePNG
import KeyframeRaster
import KeyframeTestSupport
import XCTest

/// `keyframe export --to lottie`: files written where asked, errors for bad input, nothing half-written.
final class LottieCLITests: XCTestCase {
    func run(_ arguments: [String]) throws -> CLIRun { try CLIRunner.run(arguments) }

    private var walker: String { TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker").path }

    func testExportsEveryClipIntoAFolderWithImageFiles() throws {
        let folder = try TestPaths.temporaryFolder("keyframe-lottie-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try run(["export", walker, "--to", "lottie", "-o", folder.path + "/", "--images", "folder",
                              "--profile", "full"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(names, ["images", "walk.json", "walker.json", "wave.json"])
        let images = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("images").path)
        XCTAssertFalse(images.isEmpty)
        // Named after the sprites (the walker's numbered atlas sprites after the first layer showing them).
        XCTAssertTrue(images.allSatisfy { $0.hasSuffix(".png") }, "\(images)")
        XCTAssertTrue(images.contains("skull_0000.png"), "\(images)")
    }

    func testUnknownClipFailsWithoutWriting() throws {
        let folder = try TestPaths.temporaryFolder("keyframe-lottie-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.json").path
        let result = try run(["export", walker, "--to", "lottie", "-o", output, "--clip", "run"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("keyframe: error:") && result.stderr.contains("no clip named \"run\""),
                      result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    }

    func testUnwritableOutputFailsAndLeavesNothingBehind() throws {
        let folder = try TestPaths.temporaryFolder("keyframe-lottie-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A regular file where the output folder should be: no folder can be made under it (even as root).
        let blocker = folder.appendingPathComponent("blocker")
        try Data("keep".utf8).write(to: blocker)
        let result = try run(["export", walker, "--to", "lottie", "-o", blocker.path + "/out/", "--clip", "walk",
                              "--images", "folder"])
        XCTAssertEqual(result.status, 1, result.stdout)
        XCTAssertTrue(result.stderr.hasPrefix("keyframe: error:"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["blocker"])
        XCTAssertEqual(try Data(contentsOf: blocker), Data("keep".utf8))

        // An existing folder named as the single output file is not replaced.
        let existing = folder.appendingPathComponent("walk.json")
        try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: false)
        let second = try run(["export", walker, "--to", "lottie", "-o", existing.path, "--clip", "walk"])
        XCTAssertEqual(second.status, 1, second.stdout)
        var isFolder: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: existing.path, isDirectory: &isFolder) && isFolder.boolValue)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: existing.path), [])
    }

    func testBadProfileIsAUsageError() throws {
        let result = try run(["export", walker, "--to", "lottie", "-o", "/tmp/x.json", "--profile", "web"])
        XCTAssertEqual(result.status, 2)
    }

    /// An Animate export whose instances carry glow, blur and adjust-colour filters: `inspect --lottie-report` lists
    /// each as dropped for the clips that show it (never "dropped: none" there), `export` warns, and
    /// `export --strict` fails without writing.
    func testDrawnFiltersAreBakedAndPassStrictExports() throws {
        let fixture = try AnimateFixture(animation: AnimateFixture.filtered)
        var picture = Bitmap(width: 4, height: 4)
        picture.clear(to: RGBAColor(r: 200, g: 60, b: 40))
        var encoder = PNGEncoder()
        try encoder.write(picture, to: fixture.folder.appendingPathComponent("spritemap1.png").path)
        let report = try run(["inspect", fixture.folder.path, "--lottie-report"])
        XCTAssertEqual(report.status, 0, report.stderr)
        let clipLines = report.stdout.split(separator: "\n").filter { $0.hasPrefix("  first:") || $0.hasPrefix("  second:") }
        XCTAssertEqual(clipLines.count, 4, report.stdout)  // two clips × two profiles
        for line in clipLines {
            XCTAssertTrue(line.contains("dropped: none") && line.contains("baked filter pictures"), String(line))
        }

        let folder = try TestPaths.temporaryFolder("keyframe-lottie-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The glow, blur and adjust-colour filters are drawn into the pictures: no warning, so --strict passes.
        let strict = try run(["export", fixture.folder.path, "--to", "lottie", "-o", folder.path + "/", "--strict"])
        XCTAssertEqual(strict.status, 0, strict.stderr)
        XCTAssertFalse(strict.stderr.contains("[lottie-filter-dropped]"), strict.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("second.json").path))
    }

    /// `--single-file` writes one Lottie file for the export at `-o`, every clip a marker range in it (images beside
    /// it in folder mode), and applies to Lottie only.
    func testSingleFileHoldsEveryClipAsAMarker() throws {
        let folder = try TestPaths.temporaryFolder("keyframe-lottie-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let waver = TestPaths.packageRoot.appendingPathComponent("Samples/dragonbones-waver").path
        let output = folder.appendingPathComponent("waver.json")
        let result = try run(["export", waver, "--to", "lottie", "--single-file", "-o", output.path, "--images", "folder"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["images", "waver.json"])
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any]
        let markers = (root?["markers"] as? [[String: Any]] ?? []).map { [$0["cm"] as? String ?? "", "\($0["tm"] ?? "")", "\($0["dr"] ?? "")"] }
        XCTAssertEqual(markers, [["idle", "0", "24"], ["wave", "24", "17"]])
        XCTAssertEqual(root?["op"] as? Double, 41)
        let wrongFormat = try run(["export", waver, "--to", "core-animation", "--single-file", "-o", output.path])
        XCTAssertEqual(wrongFormat.status, 2, wrongFormat.stderr)
        XCTAssertTrue(wrongFormat.stderr.contains("--single-file"), wrongFormat.stderr)
    }

    /// `--container dotlottie` writes one `.lottie` archive at `-o` (a ZIP: its local header first) and nothing else.
    func testDotLottieContainerWritesOneArchive() throws {
        let folder = try TestPaths.temporaryFolder("keyframe-lottie-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("walker.lottie")
        let result = try run(["export", walker, "--to", "lottie", "--container", "dotlottie", "-o", output.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["walker.lottie"])
        XCTAssertEqual(Array(try Data(contentsOf: output).prefix(4)), [0x50, 0x4B, 0x03, 0x04])
        let wrong = try run(["export", walker, "--to", "core-animation", "--container", "dotlottie", "-o", output.path])
        XCTAssertEqual(wrong.status, 2, wrong.stderr)
        let bad = try run(["export", walker, "--to", "lottie", "--container", "zip", "-o", output.path])
        XCTAssertEqual(bad.status, 2, bad.stderr)
    }
}
