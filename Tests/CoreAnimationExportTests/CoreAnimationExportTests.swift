import Foundation
import KeyframeExport
import KeyframeImport
import KeyframeJSON
import KeyframeModel
import KeyframeTestSupport
import XCTest

// Golden exports of the bundled samples: Tests/CoreAnimationExportTests/Golden/<sample>/<clip>.json, byte for byte,
// written with `prettyJSON` so that a change reads as a line diff (the default one-line file holds the same JSON:
// checked here, and byte for byte against JSONWriter in the conformance test).
// Set RECORD_SNAPSHOTS=1 to rewrite them; the test then fails on purpose, so recording is never silent. On a
// mismatch the actual bytes are written beside the golden as <clip>.actual.json.

private let goldenFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

final class CoreAnimationExportTests: XCTestCase {
    private func sample(_ name: String) -> URL { TestPaths.packageRoot.appendingPathComponent("Samples/\(name)") }

    private func export(_ name: String, format: CALayerTreeFile.Format = .json, clips: [String]? = nil,
                        strict: Bool = false, pretty: Bool = false) throws -> ExportResult {
        let url = sample(name)
        var options = ExportOptions(clips: clips, strict: strict)
        options.coreAnimationFormat = format
        options.prettyJSON = pretty
        return try CoreAnimationExporter().export(try Importer.importDocument(at: url),
                                                  assetsFolder: try Importer.detect(url).folder, options: options)
    }

    /// Clip names become file names any platform accepts, as the Lottie exporter's do (`robot:hop` → `robot_hop`).
    func testClipFileNamesAreThoseOfTheLottieExport() throws {
        let result = try export("flump-hopbot")
        let names = result.clips.map(\.main.relativePath)
        XCTAssert(names.contains("robot_hop.json"), "\(names)")
        XCTAssertFalse(names.contains { $0.contains(":") }, "\(names)")
        XCTAssertEqual(names, result.clips.map { LottieExporter.fileName(for: $0.clip) })
    }

    // MARK: Goldens

    func testSampleExportsMatchTheirGoldens() throws {
        let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil
        var recorded: [String] = []
        for name in CoreAnimationConformanceTests.samples {
            let oneLine = try export(name).clips
            let clips = try export(name, pretty: true).clips
            XCTAssertEqual(oneLine.map(\.clip), clips.map(\.clip))
            for (compact, clip) in zip(oneLine, clips) {
                XCTAssertEqual(compact.main.bytes.filter { $0 == 0x0A }.count, 1, "\(name)/\(clip.clip): one line")
                XCTAssertEqual(try JSONParser.parse(compact.main.bytes), try JSONParser.parse(clip.main.bytes),
                               "\(name)/\(clip.clip): the one-line file holds the indented file's JSON")
            }
            for clip in clips {
                let file = clip.clip.replacingOccurrences(of: ":", with: "_") + ".json"
                let url = goldenFolder.appendingPathComponent(name).appendingPathComponent(file)
                if record {
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(clip.main.bytes).write(to: url)
                    recorded.append("\(name)/\(file)")
                    continue
                }
                guard let golden = FileManager.default.contents(atPath: url.path) else {
                    XCTFail("no golden \(name)/\(file); record with RECORD_SNAPSHOTS=1")
                    continue
                }
                if [UInt8](golden) != clip.main.bytes {
                    let actual = url.deletingPathExtension().appendingPathExtension("actual.json")
                    try Data(clip.main.bytes).write(to: actual)
                    let a = String(decoding: clip.main.bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                    let g = String(decoding: golden, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                    let line = zip(a, g).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, g.count)
                    XCTFail("\(name)/\(file) differs from its golden at line \(line + 1); actual written to \(actual.path)")
                }
            }
        }
        if record { XCTFail("RECORD_SNAPSHOTS is set: recorded \(recorded.joined(separator: ", ")); run again without it") }
    }

    func testGoldensFollowTheSchema() throws {
        var paths: [String] = []
        for name in CoreAnimationConformanceTests.samples {
            let folder = goldenFolder.appendingPathComponent(name)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            where file.hasSuffix(".json") && !file.hasSuffix(".actual.json") {
                paths.append(folder.appendingPathComponent(file).path)
            }
        }
        XCTAssertGreaterThanOrEqual(paths.count, 11)
        let (status, output) = try CommandRun.run(
            ["python3", "Scripts/validate-schema.py", "--schema", "docs/core-animation.schema.json", "--schema-only"]
                + paths, in: TestPaths.packageRoot)
        if status == 3 || status == 127 { throw XCTSkip("no python3 jsonschema") }
        XCTAssertEqual(status, 0, output)
    }

    // MARK: Determinism and the two spellings

    func testExportingTwiceGivesIdenticalBytesInBothFormats() throws {
        for name in CoreAnimationConformanceTests.samples {
            for format in CALayerTreeFile.Format.allCases {
                let first = try export(name, format: format), second = try export(name, format: format)
                XCTAssertEqual(first.clips, second.clips, "\(name) \(format): two exports differ")
            }
        }
    }

    func testPropertyListAndJSONHoldTheSameTree() throws {
        for name in CoreAnimationConformanceTests.samples {
            let json = try export(name, format: .json), plist = try export(name, format: .plist)
            XCTAssertEqual(json.clips.count, plist.clips.count)
            for (a, b) in zip(json.clips, plist.clips) {
                XCTAssertTrue(b.main.bytes.starts(with: Array("<?xml".utf8)), "\(name)/\(b.clip) is not an XML plist")
                XCTAssertTrue(b.main.relativePath.hasSuffix(".plist"))
                XCTAssertEqual(try CALayerTreeFile.decode(a.main.bytes), try CALayerTreeFile.decode(b.main.bytes),
                               "\(name)/\(a.clip): the plist reads back to a different tree")
                XCTAssertEqual(a.companions, b.companions)
            }
        }
    }

    // MARK: What the tree says

    func testCompanionsAreTheAtlasImagesTheTreeNames() throws {
        let result = try export("flump-hopbot")
        for clip in result.clips {
            let tree = try CALayerTreeFile.decode(clip.main.bytes)
            XCTAssertEqual(Set(tree.images.map(\.path)), Set(clip.companions.map(\.relativePath)), clip.clip)
            for companion in clip.companions {
                let name = (companion.relativePath as NSString).lastPathComponent
                let original = try Data(contentsOf: sample("flump-hopbot").appendingPathComponent(name))
                XCTAssertEqual(companion.bytes, [UInt8](original), "\(companion.relativePath) is not the atlas image")
            }
        }
    }

    /// The walker's nested graphics keep their own clocks as layer timing (not flattened): in `wave` (frames
    /// 24–47) each nested timeline layer begins at the parent's frame 24 (1 s), the eyes' timeline repeats, and the
    /// rotated arm region is turned back by its layer transform.
    func testNestedTimelinesBecomeLayerTiming() throws {
        let result = try export("animate-walker", clips: ["wave"])
        let tree = try CALayerTreeFile.decode(result.clips[0].main.bytes)
        var repeating = 0, rotated = 0
        var nestedBegins: [String: Double] = [:]
        func walk(_ layer: CALayerSpec, depth: Int) {
            if layer.animation?.repeatCount == CAAnimationGroupSpec.forever { repeating += 1 }
            if depth > 1 && (layer.timeOffset != 0 || layer.beginTime != 0) { nestedBegins[layer.name] = layer.beginTime }
            if layer.contents != nil && layer.transform[1] == -1 { rotated += 1 }
            for sublayer in layer.sublayers { walk(sublayer, depth: depth + 1) }
        }
        walk(tree.root, depth: 0)
        XCTAssertGreaterThan(repeating, 0, "no looping nested timeline")
        XCTAssertEqual(nestedBegins["walker_arm"] ?? .nan, 1, accuracy: 1e-12, "\(nestedBegins)")
        XCTAssertEqual(nestedBegins["walker_head"] ?? .nan, 1, accuracy: 1e-12, "\(nestedBegins)")
        XCTAssertEqual(tree.root.sublayers[0].timeOffset, 1, accuracy: 1e-6, "the clip's timeline starts at frame 24")
        XCTAssertGreaterThanOrEqual(rotated, 1, "the arm sprite is stored rotated and must be turned back")
        XCTAssertFalse(result.diagnostics.contains { $0.code == "ca-timeline-flattened" }, "\(result.diagnostics)")
    }

    func testWhatCannotBeShownIsAWarning() throws {
        XCTAssertTrue(try export("dragonbones-waver", clips: ["wave"]).diagnostics.contains { $0.code == "ca-color-transform" && $0.severity == .warning },
                      "the waver's head flash changes colour: it cannot be baked")
        // Meshes are exported (triangle layers masked by shape layers): the waver's idle clip warns of nothing.
        XCTAssertFalse(try export("dragonbones-waver", clips: ["idle"]).diagnostics.contains { $0.severity == .warning })
        XCTAssertFalse(try export("bta-spinner").diagnostics.contains { $0.severity == .warning })
        XCTAssertThrowsError(try export("dragonbones-waver", strict: true)) { error in
            XCTAssertTrue("\(error)".contains("--strict"), "\(error)")
        }
        XCTAssertNoThrow(try export("bta-spinner", strict: true))
    }

    /// The walker's constant colour effects (the shadow's, and the head's tint while waving, both on symbol
    /// instances) are baked into copies of the sprites they reach, written beside the file; nothing warns.
    func testConstantTintsAreBakedIntoImageCopies() throws {
        let result = try export("animate-walker", clips: ["walk", "wave"])
        XCTAssertFalse(result.diagnostics.contains { $0.code == "ca-color-transform" }, "\(result.diagnostics)")
        for clip in result.clips {
            let tree = try CALayerTreeFile.decode(clip.main.bytes)
            let baked = tree.images.filter { $0.sprite != nil }
            XCTAssertFalse(baked.isEmpty, "\(clip.clip): nothing baked")
            for image in baked {
                XCTAssertEqual(image.colorTransform?.count, 8)
                XCTAssertEqual(image.colorTransform?[3], 1, "alpha stays the layer's opacity")
                let png = try XCTUnwrap(clip.companions.first { $0.relativePath == image.path }, image.path)
                XCTAssertTrue(png.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(image.path) is not a PNG")
            }
        }
        let wave = try CALayerTreeFile.decode(result.clips[1].main.bytes)
        XCTAssertGreaterThan(wave.images.filter { $0.sprite != nil }.count,
                             try CALayerTreeFile.decode(result.clips[0].main.bytes).images.filter { $0.sprite != nil }.count,
                             "the head's tint while waving bakes more sprites")
    }

    /// The bouncer's mask layer becomes the `mask` of a wrapper around the run of layers it clips (ball and
    /// shadow), holding the mask's own layers; the unmasked floor stays outside; nothing warns.
    func testMasksBecomeMaskLayers() throws {
        let result = try export("animate-bouncer-long")
        XCTAssertFalse(result.diagnostics.contains { $0.severity == .warning }, "\(result.diagnostics)")
        let timeline = try CALayerTreeFile.decode(result.clips[0].main.bytes).root.sublayers[0]
        XCTAssertEqual(timeline.sublayers.map(\.name), ["3:floor/0", "masked-by:0:window"])
        let wrapper = timeline.sublayers[1]
        XCTAssertEqual(wrapper.sublayers.map(\.name), ["2:shadow/0", "1:ball/0"])
        XCTAssertEqual(wrapper.mask?.layer.sublayers.map(\.name), ["0:window/0"])
    }

    func testUnknownClipIsAnErrorNamingTheClips() throws {
        XCTAssertThrowsError(try export("animate-walker", clips: ["run"])) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("\"run\"") && text.contains("\"walk\"") && text.contains("\"wave\""), text)
        }
    }

    func testAnUnreadableAtlasImageIsAnError() throws {
        let folder = try TestPaths.temporaryFolder("ca-missing-atlas")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = sample("bta-spinner")
        let document = try Importer.importDocument(at: url)
        XCTAssertThrowsError(try CoreAnimationExporter().export(document, assetsFolder: folder, options: ExportOptions())) {
            XCTAssertTrue("\($0)".contains("spritemap1.png"), "\($0)")
        }
    }

    func testRegistryReturnsTheExporter() {
        XCTAssertEqual(Exporters.exporter(for: .coreAnimation)?.format, .coreAnimation)
    }

    // MARK: Reading bad files

    func testReadingRejectsOtherFormatsAndVersions() throws {
        let bytes = try export("bta-spinner").clips[0].main.bytes
        let text = String(decoding: bytes, as: UTF8.self)
        for (from, to, expected) in [("\"version\":1", "\"version\":2", "unsupported version 2"),
                                     ("keyframe-core-animation", "lottie", "not a Keyframe Core Animation file")] {
            XCTAssertThrowsError(try CALayerTreeFile.decode(Array(text.replacingOccurrences(of: from, with: to).utf8))) {
                XCTAssertTrue("\($0)".contains(expected), "\($0)")
            }
        }
        XCTAssertThrowsError(try CALayerTreeFile.decode(Array("{ \"format\": ".utf8), source: "x.json")) {
            XCTAssertTrue("\($0)".contains("x.json") && "\($0)".contains("line"), "\($0)")
        }
    }
}
