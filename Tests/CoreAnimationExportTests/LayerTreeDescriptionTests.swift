import Foundation
import KeyframeCoreAnimation
import KeyframeExport
import KeyframeImport
import KeyframeTestSupport
import XCTest

/// The Apple loader's decisions (`KeyframeCoreAnimation.LayerTreeDescription`), checked on Linux against the files the
/// exporter writes: every field of every layer and animation must read back as the exporter's own model says, in
/// both spellings, and a damaged file must fail naming the field.
final class LayerTreeDescriptionTests: XCTestCase {
    private static let samples = ["animate-bouncer-long", "animate-walker", "bta-spinner", "dragonbones-waver", "flump-hopbot"]

    /// Writes every clip of a sample's export to a folder, as `export -o DIR/` does; returns the clip files.
    private func exportFiles(_ name: String, format: CALayerTreeFile.Format, into folder: URL) throws -> [URL] {
        let url = TestPaths.packageRoot.appendingPathComponent("Samples/\(name)")
        var options = ExportOptions()
        options.coreAnimationFormat = format
        let result = try CoreAnimationExporter().export(try Importer.importDocument(at: url),
                                                        assetsFolder: try Importer.detect(url).folder, options: options)
        var mains: [URL] = []
        for clip in result.clips {
            for file in [clip.main] + clip.companions {
                let target = folder.appendingPathComponent(file.relativePath)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(),
                                                        withIntermediateDirectories: true)
                try Data(file.bytes).write(to: target)
            }
            mains.append(folder.appendingPathComponent(clip.main.relativePath))
        }
        return mains
    }

    func testEveryExportedFileReadsBackAsTheExporterWroteIt() throws {
        var layers = 0, animations = 0
        for name in Self.samples {
            for format in [CALayerTreeFile.Format.json, .plist] {
                let folder = try TestPaths.temporaryFolder("keyframe-ca-load")
                defer { try? FileManager.default.removeItem(at: folder) }
                for file in try exportFiles(name, format: format, into: folder) {
                    let expected = try CALayerTreeFile.decode(Array(try Data(contentsOf: file)), source: file.path)
                    let loaded = try LayerTreeDescription(contentsOf: file)
                    let context = "\(name) \(file.lastPathComponent) (\(format))"
                    XCTAssertEqual(loaded.clip, expected.clip, context)
                    XCTAssertEqual(loaded.frameRate, expected.frameRate, context)
                    XCTAssertEqual(loaded.duration, expected.duration, context)
                    XCTAssertEqual(loaded.loopCount, expected.loopCount, context)
                    XCTAssertEqual(Set(loaded.images.keys), Set(expected.images.map(\.id)), context)
                    for image in expected.images {
                        let url = try XCTUnwrap(loaded.images[image.id])
                        XCTAssertEqual(url.standardizedFileURL.path,
                                       folder.appendingPathComponent(image.path).standardizedFileURL.path, context)
                        XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), "\(context): \(url.path)")
                    }
                    compare(loaded.root, expected.root, "\(context) root", layers: &layers, animations: &animations)
                }
            }
        }
        XCTAssertGreaterThan(layers, 100)
        XCTAssertGreaterThan(animations, 20)
    }

    private func compare(_ loaded: LayerTreeDescription.Layer, _ spec: CALayerSpec, _ at: String,
                         layers: inout Int, animations: inout Int) {
        layers += 1
        XCTAssertEqual(loaded.name, spec.name, at)
        XCTAssertEqual([loaded.bounds.x, loaded.bounds.y, loaded.bounds.width, loaded.bounds.height], spec.bounds, at)
        XCTAssertEqual([loaded.anchorPoint.x, loaded.anchorPoint.y], spec.anchorPoint, at)
        XCTAssertEqual([loaded.position.x, loaded.position.y], spec.position, at)
        XCTAssertEqual(loaded.transform, spec.transform, at)
        XCTAssertEqual(loaded.opacity, Float(spec.opacity), at)
        XCTAssertEqual(loaded.isHidden, spec.isHidden, at)
        XCTAssertEqual(loaded.zPosition, spec.zPosition, at)
        XCTAssertEqual(loaded.allowsGroupOpacity, spec.allowsGroupOpacity, at)
        XCTAssertEqual(loaded.contents, spec.contents, at)
        let r = loaded.contentsRect
        XCTAssertEqual([r.x, r.y, r.width, r.height], spec.contentsRect, at)
        // A layer's beginTime is relative to its parent's time and copied as written; only animations need the
        // "time zero" spelling.
        XCTAssertEqual(loaded.beginTime, spec.beginTime, at)
        XCTAssertEqual(loaded.timeOffset, spec.timeOffset, at)
        XCTAssertEqual(loaded.speed, Float(spec.speed), at)
        XCTAssertEqual(loaded.animation == nil, spec.animation == nil, at)
        if let group = loaded.animation, let expected = spec.animation {
            assertTiming(group.timing, beginTime: expected.beginTime, duration: expected.duration,
                         timeOffset: expected.timeOffset, speed: expected.speed, repeatCount: expected.repeatCount,
                         repeatDuration: expected.repeatDuration, autoreverses: expected.autoreverses,
                         fillMode: expected.fillMode, removed: expected.isRemovedOnCompletion, at + ".animation")
            XCTAssertEqual(group.animations.count, expected.animations.count, at)
            for (animation, spec) in zip(group.animations, expected.animations) {
                animations += 1
                let where_ = "\(at) \(spec.keyPath)"
                XCTAssertEqual(animation.keyPath, spec.keyPath, where_)
                XCTAssertEqual(animation.values.count, spec.values.count, where_)
                for (value, numbers) in zip(animation.values, spec.values) {
                    switch (value, spec.valueType) {
                    case (.number(let n), .number): XCTAssertEqual([n], numbers, where_)
                    case (.bool(let b), .bool): XCTAssertEqual([b ? 1 : 0], numbers, where_)
                    case (.point(let p), .point): XCTAssertEqual([p.x, p.y], numbers, where_)
                    case (.transform(let m), .transform): XCTAssertEqual(m, numbers, where_)
                    default: XCTFail("\(where_): \(value) read for a \(spec.valueType) animation")
                    }
                }
                XCTAssertEqual(animation.keyTimes, spec.keyTimes, where_)
                XCTAssertEqual(animation.timingFunctions, spec.timingFunctions.map { $0.map(Float.init) }, where_)
                XCTAssertEqual(animation.calculationMode, spec.calculationMode, where_)
                assertTiming(animation.timing, beginTime: spec.beginTime, duration: spec.duration,
                             timeOffset: spec.timeOffset, speed: spec.speed, repeatCount: spec.repeatCount,
                             repeatDuration: spec.repeatDuration, autoreverses: spec.autoreverses,
                             fillMode: spec.fillMode, removed: spec.isRemovedOnCompletion, where_)
            }
        }
        XCTAssertEqual(loaded.path.flatMap { [$0.x, $0.y] }, spec.path ?? [], at + ".path")
        XCTAssertEqual(loaded.mask.count, spec.mask == nil ? 0 : 1, at)
        if let mask = loaded.mask.first, let expected = spec.mask?.layer {
            compare(mask, expected, at + ".mask", layers: &layers, animations: &animations)
        }
        XCTAssertEqual(loaded.sublayers.count, spec.sublayers.count, at)
        for (index, (sublayer, expected)) in zip(loaded.sublayers, spec.sublayers).enumerated() {
            compare(sublayer, expected, "\(at).sublayers[\(index)]", layers: &layers, animations: &animations)
        }
    }

    private func assertTiming(_ t: LayerTreeDescription.Timing, beginTime: Double, duration: Double, timeOffset: Double,
                              speed: Double, repeatCount: Double, repeatDuration: Double, autoreverses: Bool,
                              fillMode: String, removed: Bool, _ at: String) {
        // Core Animation reads an animation beginTime of exactly 0 as "now": the loader must never hand it 0.
        XCTAssertEqual(t.beginTime, beginTime == 0 ? 1e-100 : beginTime, at)
        XCTAssertNotEqual(t.beginTime, 0, at)
        XCTAssertEqual(t.duration, duration, at)
        XCTAssertEqual(t.timeOffset, timeOffset, at)
        XCTAssertEqual(t.speed, Float(speed), at)
        XCTAssertEqual(t.repeatCount, Float(repeatCount), at)
        XCTAssertEqual(t.repeatDuration, repeatDuration, at)
        XCTAssertEqual(t.autoreverses, autoreverses, at)
        XCTAssertEqual(t.fillMode, fillMode, at)
        XCTAssertEqual(t.isRemovedOnCompletion, removed, at)
    }

    // MARK: Damaged files

    /// One exported file as a JSON object, to damage.
    private func exportedObject() throws -> (object: [String: Any], folder: URL) {
        let folder = try TestPaths.temporaryFolder("keyframe-ca-load-bad")
        let file = try XCTUnwrap(try exportFiles("animate-bouncer-long", format: .json, into: folder).first)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        return (object, folder)
    }

    private func assertFails(_ object: [String: Any], folder: URL, at path: String, saying message: String,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        let data = try JSONSerialization.data(withJSONObject: object)
        XCTAssertThrowsError(try LayerTreeDescription(data: data, folder: folder, file: "clip.json"),
                             file: file, line: line) { error in
            guard let error = error as? LayerTreeLoadError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(error.file, "clip.json", file: file, line: line)
            XCTAssertEqual(error.path, path, "\(error)", file: file, line: line)
            XCTAssertTrue(error.message.contains(message), "\(error)", file: file, line: line)
        }
    }

    func testDamagedFilesFailNamingTheField() throws {
        let (good, folder) = try exportedObject()
        defer { try? FileManager.default.removeItem(at: folder) }
        XCTAssertNoThrow(try LayerTreeDescription(data: try JSONSerialization.data(withJSONObject: good), folder: folder,
                                                  file: "clip.json"))

        func edited(_ change: (inout [String: Any]) -> Void) -> [String: Any] {
            var copy = good
            change(&copy)
            return copy
        }
        func editedRoot(_ change: (inout [String: Any]) -> Void) -> [String: Any] {
            edited { file in
                var root = file["root"] as! [String: Any]
                change(&root)
                file["root"] = root
            }
        }
        try assertFails(edited { $0["format"] = "lottie" }, folder: folder, at: "format", saying: "not a Keyframe")
        try assertFails(edited { $0["version"] = 2 }, folder: folder, at: "version", saying: "unsupported version 2")
        try assertFails(edited { $0["loopCount"] = 1.5 }, folder: folder, at: "loopCount", saying: "whole number")
        try assertFails(editedRoot { $0["opacity"] = nil }, folder: folder, at: "root.opacity", saying: "missing number")
        try assertFails(editedRoot { $0["transform"] = Array(repeating: 0, count: 15) }, folder: folder,
                        at: "root.transform", saying: "expected 16 numbers, found 15")
        try assertFails(editedRoot { $0["contents"] = "no-such-image" }, folder: folder, at: "root.contents",
                        saying: "unknown image")
        try assertFails(editedRoot { $0["isHidden"] = "no" }, folder: folder, at: "root.isHidden",
                        saying: "expected a boolean")

        // The first layer with an animation, damaged in its first keyframe animation.
        func editedAnimation(_ change: @escaping (inout [String: Any]) -> Void) -> ([String: Any], String) {
            var path = ""
            func visit(_ layer: inout [String: Any], _ at: String) -> Bool {
                if var group = layer["animation"] as? [String: Any], var list = group["animations"] as? [[String: Any]],
                   !list.isEmpty {
                    change(&list[0])
                    group["animations"] = list
                    layer["animation"] = group
                    path = at + ".animation.animations[0]"
                    return true
                }
                guard var sublayers = layer["sublayers"] as? [[String: Any]] else { return false }
                for index in sublayers.indices where visit(&sublayers[index], at + ".sublayers[\(index)]") {
                    layer["sublayers"] = sublayers
                    return true
                }
                return false
            }
            var copy = good
            var root = copy["root"] as! [String: Any]
            XCTAssertTrue(visit(&root, "root"), "the sample has an animated layer")
            copy["root"] = root
            return (copy, path)
        }
        var (object, path) = editedAnimation { $0["valueType"] = "colour" }
        try assertFails(object, folder: folder, at: path + ".valueType", saying: "unknown value type \"colour\"")
        (object, path) = editedAnimation { $0["keyTimes"] = Array(($0["keyTimes"] as! [Any]).dropLast()) }
        try assertFails(object, folder: folder, at: path + ".keyTimes", saying: "key times for")
        (object, path) = editedAnimation { $0["timingFunctions"] = [[0, 0, 1]] }
        try assertFails(object, folder: folder, at: path + ".timingFunctions[0]", saying: "expected 4 numbers")
    }

    /// Images are read from inside the file's folder only, as every input path of Keyframe is.
    func testImagePathsOutsideTheFilesFolderAreRefused() throws {
        let (good, folder) = try exportedObject()
        defer { try? FileManager.default.removeItem(at: folder) }
        var images = try XCTUnwrap(good["images"] as? [[String: Any]])
        XCTAssertFalse(images.isEmpty)
        for path in ["../secret.png", "images/../../secret.png", "/etc/passwd", "", "images//a.png"] {
            images[0]["path"] = path
            var bad = good
            bad["images"] = images
            try assertFails(bad, folder: folder, at: "images[0].path", saying: "must be relative and stay inside")
        }
    }
}
