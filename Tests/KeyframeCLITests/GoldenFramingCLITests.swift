import Foundation
import KeyframeTestSupport
import XCTest

/// A golden set keeps its framing (`golden-framing.json`), so one edited keyframe fails only the frames it changes:
/// the walker with its arm moved 30 px outward in one frame, verified against a set recorded from the original.
final class GoldenFramingCLITests: XCTestCase {
    /// The walker's frame-0 arm placement, and the same moved 30 px right (outside the walker's content bounds).
    static let arm = #""M3D":[1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,4.0,-84.0"#
    static let movedArm = #""M3D":[1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,34.0,-84.0"#

    /// The frames of `walk` that differ between the original walker and the edited copy, both rendered with the
    /// same explicit `--bounds` (the golden set's stored rectangle): what verify must report, found without it.
    private func changedFrames(original: String, edited: String, bounds: String, size: [String], root: URL) throws
        -> [String]
    {
        var folders: [URL] = []
        for (name, input) in [("a", original), ("b", edited)] {
            let folder = root.appendingPathComponent("bounds-\(name)")
            let run = try CLIRunner.run(["render", input, "--clip", "walk", "--bounds", bounds, "-o", folder.path] + size)
            XCTAssertEqual(run.status, 0, run.stderr)
            folders.append(folder)
        }
        return try FileManager.default.contentsOfDirectory(atPath: folders[0].path).sorted().filter { name in
            try Data(contentsOf: folders[0].appendingPathComponent(name))
                != Data(contentsOf: folders[1].appendingPathComponent(name))
        }
    }

    private func check(size: [String]) throws {
        let root = try TestPaths.temporaryFolder("golden-framing")
        defer { try? FileManager.default.removeItem(at: root) }
        let original = TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker").path
        let edited = root.appendingPathComponent("walker")
        try SampleEdit.copy("animate-walker", to: edited, file: "Animation.json", Self.arm, Self.movedArm)
        let golden = root.appendingPathComponent("golden")

        let record = try CLIRunner.run(["verify", original, "--clip", "walk", "--golden", golden.path, "--record",
                                        "--fit", "content"] + size, directory: root)
        XCTAssertEqual(record.status, 0, record.stderr)
        let framing = try XCTUnwrap(JSONSerialization.jsonObject(
            with: Data(contentsOf: golden.appendingPathComponent("golden-framing.json"))) as? [String: Any])
        let walk = try XCTUnwrap((framing["clips"] as? [String: Any])?["walk"] as? [String: Any])
        let bounds = try XCTUnwrap(walk["bounds"] as? [Double]).map { String($0) }.joined(separator: ",")

        // Framed anew (what verify did before the framing was kept): the edit reframes the clip.
        let anew = try CLIRunner.run(["verify", edited.path, "--clip", "walk", "--golden", golden.path, "--fit",
                                      "content"] + size, directory: root)
        XCTAssertEqual(anew.status, 1)
        XCTAssertGreaterThan(anew.stderr.components(separatedBy: "FAIL walk-").count - 1, 1, anew.stderr)

        // With the kept framing: exactly the frames the edit changes fail, and none for its size.
        let expected = try changedFrames(original: original, edited: edited.path, bounds: bounds, size: size, root: root)
        XCTAssertEqual(expected, ["walk-0000.png"], "the edit moves the arm in frame 0 only")
        let kept = try CLIRunner.run(["verify", edited.path, "--clip", "walk", "--golden", golden.path] + size,
                                     directory: root)
        XCTAssertEqual(kept.status, 1, kept.stdout)
        let failing = kept.stderr.split(separator: "\n").filter { $0.hasPrefix("FAIL ") }
        XCTAssertEqual(failing.count, expected.count, kept.stderr)
        for name in expected { XCTAssertTrue(kept.stderr.contains("FAIL \(name): "), kept.stderr) }
        XCTAssertFalse(kept.stderr.contains(" but the render is "), "no size mismatch: \(kept.stderr)")
        XCTAssertTrue(kept.stderr.contains("approve the new frames with: "), kept.stderr)
        XCTAssertTrue(kept.stderr.contains("--record"), kept.stderr)
    }

    func testOneEditedKeyframeFailsOnlyItsFramesWithTheKeptFraming() throws {
        try check(size: [])
    }

    func testOneEditedKeyframeFailsOnlyItsFramesAtAFixedSize() throws {
        try check(size: ["--size", "256x256"])
    }

    func testASizeMismatchSaysWhatChanged() throws {
        let root = try TestPaths.temporaryFolder("golden-framing-size")
        defer { try? FileManager.default.removeItem(at: root) }
        let walker = TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker").path
        let golden = root.appendingPathComponent("golden")
        let record = try CLIRunner.run(["verify", walker, "--clip", "walk", "--golden", golden.path, "--record", "-q"],
                                       directory: root)
        XCTAssertEqual(record.status, 0, record.stderr)
        XCTAssertEqual(record.stdout, "", "-q prints nothing on success")
        let other = try CLIRunner.run(["verify", walker, "--clip", "walk", "--golden", golden.path, "--size", "100x100"],
                                      directory: root)
        XCTAssertEqual(other.status, 1)
        XCTAssertTrue(other.stderr.contains("--size 100x100 asks for 100×100 where the golden set keeps"), other.stderr)

        // A set without kept framing (an older recording, or frames written by `render`) says so.
        try FileManager.default.removeItem(at: golden.appendingPathComponent("golden-framing.json"))
        let older = try CLIRunner.run(["verify", walker, "--clip", "walk", "--golden", golden.path, "--size", "100x100"],
                                      directory: root)
        XCTAssertEqual(older.status, 1)
        XCTAssertTrue(older.stderr.contains("the golden set keeps no framing"), older.stderr)
    }
}
