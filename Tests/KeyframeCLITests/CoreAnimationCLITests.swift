import Foundation
import KeyframeTestSupport
import XCTest

/// `keyframe export --to core-animation` through the built binary: files, images, formats, errors and exit codes.
final class CoreAnimationCLITests: XCTestCase {
    private let walker = TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker")

    func run(_ arguments: [String]) throws -> CLIRun { try CLIRunner.run(arguments) }

    func testOneClipWritesTheFileAndItsImages() throws {
        let folder = try TestPaths.temporaryFolder("ca-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out/walk.json")
        let result = try run(["export", walker.path, "--to", "core-animation", "--clip", "walk", "-o", output.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        XCTAssertEqual(object["format"] as? String, "keyframe-core-animation")
        XCTAssertEqual(object["clip"] as? String, "walk")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/images/spritemap1.png").path))
        let images = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out/images").path)
        XCTAssertTrue(images.contains { $0.contains("~tint-") && $0.hasSuffix(".png") }, "the shadow's colour effect is baked: \(images)")
    }

    func testPlistFormatWritesPropertyListsForEveryClip() throws {
        let folder = try TestPaths.temporaryFolder("ca-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try run(["export", walker.path, "--to", "core-animation", "--format", "plist", "-o", folder.path + "/"])
        XCTAssertEqual(result.status, 0, result.stderr)
        for clip in ["walk", "wave"] {
            let data = try Data(contentsOf: folder.appendingPathComponent("\(clip).plist"))
            let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any]
            XCTAssertEqual(object?["clip"] as? String, clip)
        }
    }

    /// `--pretty` writes the same JSON indented, for both exporters; the default files are one line each.
    func testPrettyWritesTheSameJSONIndented() throws {
        let folder = try TestPaths.temporaryFolder("ca-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        for format in ["core-animation", "lottie"] {
            let line = folder.appendingPathComponent("\(format)-line.json")
            let pretty = folder.appendingPathComponent("\(format)-pretty.json")
            for (url, extra) in [(line, [String]()), (pretty, ["--pretty"])] {
                let result = try run(["export", walker.path, "--to", format, "--clip", "walk", "-o", url.path] + extra)
                XCTAssertEqual(result.status, 0, result.stderr)
            }
            let lineBytes = try Data(contentsOf: line), prettyBytes = try Data(contentsOf: pretty)
            XCTAssertEqual(lineBytes.filter { $0 == 0x0A }.count, 1, format)
            XCTAssertGreaterThan(prettyBytes.filter { $0 == 0x0A }.count, 100, format)
            XCTAssertEqual(try JSONSerialization.jsonObject(with: lineBytes) as? NSDictionary,
                           try JSONSerialization.jsonObject(with: prettyBytes) as? NSDictionary, format)
        }
        let plist = try run(["export", walker.path, "--to", "core-animation", "--format", "plist", "--pretty",
                             "-o", folder.path + "/x.plist"])
        XCTAssertEqual(plist.status, 2, plist.stderr)
        XCTAssertTrue(plist.stderr.contains("--pretty"), plist.stderr)
    }

    /// Clips are exported in parallel; the files are the same with one job as with more jobs than clips.
    func testFilesAreTheSameForAnyNumberOfJobs() throws {
        let folder = try TestPaths.temporaryFolder("ca-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let hopbot = TestPaths.packageRoot.appendingPathComponent("Samples/flump-hopbot")
        for format in ["core-animation", "lottie"] {
            var trees: [[String: Data]] = []
            for jobs in ["1", "5"] {
                let out = folder.appendingPathComponent("\(format)-\(jobs)")
                let result = try run(["export", hopbot.path, "--to", format, "--jobs", jobs, "-o", out.path + "/"])
                XCTAssertEqual(result.status, 0, result.stderr)
                var files: [String: Data] = [:]
                for name in try FileManager.default.subpathsOfDirectory(atPath: out.path).sorted() {
                    var isFolder: ObjCBool = false
                    let path = out.appendingPathComponent(name).path
                    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                        files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
                    }
                }
                trees.append(files)
            }
            XCTAssertGreaterThan(trees[0].keys.filter { $0.hasSuffix(".json") }.count, 1, "\(format): several clips")
            XCTAssertEqual(trees[0], trees[1], format)
        }
        let zero = try run(["export", hopbot.path, "--to", "lottie", "--jobs", "0", "-o", folder.path + "/z/"])
        XCTAssertEqual(zero.status, 2, zero.stderr)
    }

    func testUsageAndInputErrors() throws {
        let folder = try TestPaths.temporaryFolder("ca-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let badFormat = try run(["export", walker.path, "--to", "core-animation", "--format", "xml", "-o", folder.path + "/x"])
        XCTAssertEqual(badFormat.status, 2, badFormat.stderr)
        let wrongExporter = try run(["export", walker.path, "--to", "lottie", "--format", "plist", "-o", folder.path + "/x"])
        XCTAssertEqual(wrongExporter.status, 2, wrongExporter.stderr)
        XCTAssertTrue(wrongExporter.stderr.contains("--format"), wrongExporter.stderr)
        let unknownClip = try run(["export", walker.path, "--to", "core-animation", "--clip", "run", "-o", folder.path + "/x"])
        XCTAssertEqual(unknownClip.status, 1, unknownClip.stderr)
        XCTAssertTrue(unknownClip.stderr.contains("keyframe: error:") && unknownClip.stderr.contains("\"run\""), unknownClip.stderr)
        let waver = TestPaths.packageRoot.appendingPathComponent("Samples/dragonbones-waver")
        let strict = try run(["export", waver.path, "--to", "core-animation", "--strict", "-o", folder.path + "/y/"])
        XCTAssertEqual(strict.status, 1, strict.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "a failed export wrote files")
    }
}
