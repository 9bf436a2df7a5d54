import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import KeyframeExport
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

// Every format read back by a reader written here from the format's public description (Sparrow/Starling's
// `TextureAtlas` XML, TexturePacker's JSON hash and array, Phaser 3's multi-atlas), independent of the exporter's
// code: each frame is cut out of its page, turned back when stored rotated, put at its offset in a frame of its source
// size, and compared byte for byte with the PNG `keyframe render` writes for that frame (RenderSession, as the CLI
// runs it). Pillow does the same from Python (read_sheet.py) when python3 with PIL is installed.

/// One frame as a reader finds it in a data file.
private struct ReadFrame {
    var name: String
    var image: String
    var x: Int, y: Int, width: Int, height: Int
    var rotated: Bool
    var offsetX: Int, offsetY: Int
    var sourceWidth: Int, sourceHeight: Int
}

/// Reads Sparrow XML: `SubTexture` attributes `x y width height frameX frameY frameWidth frameHeight`.
private final class SparrowReader: NSObject, XMLParserDelegate {
    var image = ""
    var frames: [ReadFrame] = []

    static func read(_ data: Data) -> [ReadFrame] {
        let reader = SparrowReader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        XCTAssert(parser.parse(), "XML: \(String(describing: parser.parserError))")
        return reader.frames
    }

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        let number = { (key: String) in Int(attributes[key] ?? "") ?? 0 }
        if element == "TextureAtlas" { image = attributes["imagePath"] ?? "" }
        guard element == "SubTexture" else { return }
        let width = number("width"), height = number("height")
        frames.append(ReadFrame(
            name: attributes["name"] ?? "", image: image, x: number("x"), y: number("y"), width: width, height: height,
            rotated: attributes["rotated"] == "true", offsetX: -number("frameX"), offsetY: -number("frameY"),
            sourceWidth: attributes["frameWidth"] != nil ? number("frameWidth") : width,
            sourceHeight: attributes["frameHeight"] != nil ? number("frameHeight") : height))
    }
}

/// Reads TexturePacker JSON (hash or array) and Phaser 3 multi-atlas files.
private enum JSONSheetReader {
    static func read(_ data: Data) throws -> [ReadFrame] {
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        if let textures = root["textures"] as? [[String: Any]] {
            return try textures.flatMap { texture in
                try (texture["frames"] as? [[String: Any]] ?? []).map {
                    try frame($0, name: $0["filename"] as? String ?? "", image: texture["image"] as? String ?? "")
                }
            }
        }
        let image = (root["meta"] as? [String: Any])?["image"] as? String ?? ""
        if let hash = root["frames"] as? [String: [String: Any]] {
            return try hash.keys.sorted().map { try frame(hash[$0]!, name: $0, image: image) }
        }
        let array = try XCTUnwrap(root["frames"] as? [[String: Any]])
        return try array.map { try frame($0, name: $0["filename"] as? String ?? "", image: image) }
    }

    static func frame(_ object: [String: Any], name: String, image: String) throws -> ReadFrame {
        let rect = try XCTUnwrap(object["frame"] as? [String: Int])
        let sprite = object["spriteSourceSize"] as? [String: Int] ?? ["x": 0, "y": 0]
        let source = object["sourceSize"] as? [String: Int] ?? ["w": rect["w"]!, "h": rect["h"]!]
        return ReadFrame(name: name, image: image, x: rect["x"]!, y: rect["y"]!, width: rect["w"]!, height: rect["h"]!,
                         rotated: object["rotated"] as? Bool ?? false, offsetX: sprite["x"]!, offsetY: sprite["y"]!,
                         sourceWidth: source["w"]!, sourceHeight: source["h"]!)
    }
}

/// Reads a Cocos2d format-2 plist with Foundation's property-list reader, as Cocos's `SpriteFrameCache` does: the
/// picture's place in the untrimmed frame comes from `offset` (centre difference, y up) and `sourceSize`.
private enum CocosReader {
    static func read(_ data: Data) throws -> [ReadFrame] {
        let root = try XCTUnwrap(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        let metadata = try XCTUnwrap(root["metadata"] as? [String: Any])
        XCTAssertEqual(metadata["format"] as? Int, 2)
        let image = try XCTUnwrap(metadata["textureFileName"] as? String)
        let frames = try XCTUnwrap(root["frames"] as? [String: [String: Any]])
        func numbers(_ text: Any?) -> [Double] {
            (text as? String ?? "").split(whereSeparator: { "{},".contains($0) }).compactMap { Double($0) }
        }
        return try frames.keys.sorted().map { name in
            let frame = frames[name]!
            let rect = numbers(frame["frame"]), offset = numbers(frame["offset"]), source = numbers(frame["sourceSize"])
            XCTAssertEqual(rect.count, 4, name); XCTAssertEqual(offset.count, 2, name); XCTAssertEqual(source.count, 2, name)
            let (w, h) = (Int(rect[2]), Int(rect[3]))
            let x = (source[0] - Double(w)) / 2 + offset[0], y = (source[1] - Double(h)) / 2 - offset[1]
            XCTAssertEqual(x, x.rounded(), name)
            XCTAssertEqual(y, y.rounded(), name)
            return ReadFrame(name: name, image: image, x: Int(rect[0]), y: Int(rect[1]), width: w, height: h,
                             rotated: try XCTUnwrap(frame["rotated"] as? Bool), offsetX: Int(x), offsetY: Int(y),
                             sourceWidth: Int(source[0]), sourceHeight: Int(source[1]))
        }
    }
}

/// Reads a Godot 3 `SpriteFrames` resource: `AtlasTexture`s (`atlas`, `region`, `margin`) and the animations' frame
/// lists; frame `i` of animation `clip` is named `clip` + `i` in four digits.
private enum GodotReader {
    static func read(_ text: String) throws -> [ReadFrame] {
        var images: [String: String] = [:]
        for match in text.matches(of: /\[ext_resource path="([^"]*)" type="Texture" id=(\d+)\]/) {
            images[String(match.2)] = String(match.1)
        }
        var textures: [String: (image: String, region: [Int], margin: [Int])] = [:]
        let pattern = /\[sub_resource type="AtlasTexture" id=(\d+)\]\natlas = ExtResource\( (\d+) \)\nregion = Rect2\( ([-\d, ]+) \)\nmargin = Rect2\( ([-\d, ]+) \)/
        for match in text.matches(of: pattern) {
            let numbers = { (text: Substring) in text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces))! } }
            textures[String(match.1)] = (try XCTUnwrap(images[String(match.2)]), numbers(match.3), numbers(match.4))
        }
        var frames: [ReadFrame] = []
        let animation = /"frames": \[ ([^\]]*) \],\n"loop": true,\n"name": "([^"]*)",\n"speed": ([\d.]+)/
        for match in text.matches(of: animation) {
            let ids = match.1.matches(of: /SubResource\( (\d+) \)/).map { String($0.1) }
            for (index, id) in ids.enumerated() {
                let texture = try XCTUnwrap(textures[id])
                let (region, margin) = (texture.region, texture.margin)
                let number = String(index)
                frames.append(ReadFrame(
                    name: String(match.2) + String(repeating: "0", count: max(0, 4 - number.count)) + number,
                    image: texture.image, x: region[0], y: region[1], width: region[2], height: region[3],
                    rotated: false, offsetX: margin[0], offsetY: margin[1], sourceWidth: region[2] + margin[2],
                    sourceHeight: region[3] + margin[3]))
            }
        }
        return frames
    }
}

final class SpriteSheetReaderTests: XCTestCase {
    private func sample(_ name: String) -> URL { TestPaths.packageRoot.appendingPathComponent("Samples/\(name)") }

    /// Exports `sampleName` as a sheet into a new folder, writing every file; returns the folder and the result.
    private func exportSheet(_ sampleName: String, settings: SpriteSheetSettings, clips: [String]? = nil,
                             jobs: Int? = nil) throws -> (folder: URL, result: ExportResult) {
        let url = sample(sampleName)
        var options = ExportOptions(clips: clips)
        options.spriteSheet = settings
        options.jobs = jobs
        let result = try SpriteSheetExporter().export(try Importer.importDocument(at: url),
                                                      assetsFolder: try Importer.detect(url).folder, options: options)
        let folder = try TestPaths.temporaryFolder("sheet")
        for file in [result.clips[0].main] + result.clips[0].companions {
            try Data(file.bytes).write(to: folder.appendingPathComponent(file.relativePath))
        }
        return (folder, result)
    }

    /// `keyframe render`'s frames of the sample, by sheet frame name (`<clip>NNNN`): straight RGBA as decoded.
    private func renderedFrames(_ sampleName: String, clips: [String]? = nil, scale: Double = 1) throws
        -> [String: (width: Int, height: Int, pixels: [UInt8], path: String)] {
        let url = sample(sampleName)
        let scene = try RenderScene(document: try Importer.importDocument(at: url),
                                    assetsFolder: try Importer.detect(url).folder)
        var session = RenderSession(scene: scene)
        session.clips = clips
        let folder = try TestPaths.temporaryFolder("render")
        session.outputFolder = folder
        var frames: [String: (width: Int, height: Int, pixels: [UInt8], path: String)] = [:]
        var summaries = try session.run()
        if scale != 1 {
            // `render --size` at the scaled frame size, clip by clip (each clip has its own framing).
            summaries = try summaries.map { summary in
                var scaled = session
                scaled.clips = [summary.name]
                scaled.size = (Int((Double(summary.framing.width) * scale).rounded()),
                               Int((Double(summary.framing.height) * scale).rounded()))
                scaled.outputFolder = try TestPaths.temporaryFolder("render-scaled")
                return try scaled.run()[0]
            }
        }
        for summary in summaries {
            for (plan, path) in zip(summary.frames, summary.paths) {
                let decoded = try PNGDecoder().decodeStraight(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
                let number = String(plan.number)
                let name = summary.name + String(repeating: "0", count: max(0, 4 - number.count)) + number
                frames[name] = (decoded.width, decoded.height, decoded.pixels, path)
            }
        }
        return frames
    }

    /// A read frame rebuilt at its source size from its page (`page`: straight bytes as stored in the file).
    private func rebuild(_ frame: ReadFrame, page: (width: Int, height: Int, pixels: [UInt8])) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: frame.sourceWidth * frame.sourceHeight * 4)
        for sy in 0..<frame.height {
            for sx in 0..<frame.width {
                // Rotated: stored a quarter turn clockwise, so the picture's (sx, sy) is at (height-1-sy, sx).
                let (px, py) = frame.rotated ? (frame.x + frame.height - 1 - sy, frame.y + sx) : (frame.x + sx, frame.y + sy)
                let source = (py * page.width + px) * 4
                let target = ((frame.offsetY + sy) * frame.sourceWidth + frame.offsetX + sx) * 4
                for channel in 0..<4 { out[target + channel] = page.pixels[source + channel] }
            }
        }
        return out
    }

    /// Reads every data file in `folder` of `format`, rebuilds each frame and compares it with the render's.
    private func assertFramesMatchRender(_ folder: URL, format: SpriteSheetSettings.Format, sampleName: String,
                                         clips: [String]? = nil, premultiplied: Bool = false, scale: Double = 1,
                                         only prefix: String? = nil,
                                         file: StaticString = #filePath, line: UInt = #line) throws {
        let dataExtension = format == .sparrow ? "xml" : format == .godot ? "tres" : format == .cocos2d ? "plist" : "json"
        let dataFiles = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix("." + dataExtension) && (prefix.map($0.hasPrefix) ?? true) }.sorted()
        XCTAssertFalse(dataFiles.isEmpty, file: file, line: line)
        var read: [ReadFrame] = []
        for name in dataFiles {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            switch format {
            case .sparrow: read += SparrowReader.read(data)
            case .godot: read += try GodotReader.read(String(decoding: data, as: UTF8.self))
            case .cocos2d: read += try CocosReader.read(data)
            default: read += try JSONSheetReader.read(data)
            }
        }
        let expected = try renderedFrames(sampleName, clips: clips, scale: scale)
        XCTAssertEqual(Set(read.map(\.name)), Set(expected.keys), "every rendered frame, once", file: file, line: line)
        XCTAssertEqual(read.count, expected.count, file: file, line: line)
        var pages: [String: (width: Int, height: Int, pixels: [UInt8])] = [:]
        for frame in read {
            if pages[frame.image] == nil {
                pages[frame.image] = try PNGDecoder().decodeStraight(
                    Array(try Data(contentsOf: folder.appendingPathComponent(frame.image))))
            }
            let rebuilt = rebuild(frame, page: pages[frame.image]!)
            let reference = try XCTUnwrap(expected[frame.name])
            XCTAssertEqual(frame.sourceWidth, reference.width, frame.name, file: file, line: line)
            XCTAssertEqual(frame.sourceHeight, reference.height, frame.name, file: file, line: line)
            // Premultiplied pages hold the render's colour premultiplied (exact: straight → premultiplied → straight
            // is the identity on what the renderer draws).
            let want = premultiplied
                ? Bitmap(width: reference.width, height: reference.height, straightRGBA: reference.pixels)!.pixels
                : reference.pixels
            if rebuilt != want {
                let differing = zip(rebuilt, want).filter { $0 != $1 }.count
                let diff = folder.appendingPathComponent("\(frame.name).rebuilt.png")
                var encoder = PNGEncoder()
                try Data(try encoder.encode(pixels: rebuilt, width: frame.sourceWidth, height: frame.sourceHeight,
                                            layout: .rgba)).write(to: diff)
                XCTFail("\(frame.name): \(differing) bytes differ from \(reference.path); rebuilt frame: \(diff.path)",
                        file: file, line: line)
                return
            }
        }
    }

    func testSparrowFramesAreTheRenderedFrames() throws {
        var settings = SpriteSheetSettings()
        settings.format = .sparrow
        let (folder, result) = try exportSheet("animate-walker", settings: settings)
        XCTAssertEqual(result.clips[0].main.relativePath, "sheet.xml")
        try assertFramesMatchRender(folder, format: .sparrow, sampleName: "animate-walker")
        let xml = String(decoding: result.clips[0].main.bytes, as: UTF8.self)
        XCTAssert(xml.contains("imagePath=\"sheet.png\""), xml)
    }

    func testJSONHashWithRotationPaddingAndExtrusion() throws {
        var settings = SpriteSheetSettings()
        settings.format = .jsonHash
        settings.rotation = true
        settings.padding = 3
        settings.extrude = 2
        let (folder, _) = try exportSheet("flump-hopbot", settings: settings)
        try assertFramesMatchRender(folder, format: .jsonHash, sampleName: "flump-hopbot")
    }

    func testJSONArrayOnSeveralPagesWithPixiAnimations() throws {
        var settings = SpriteSheetSettings()
        settings.format = .jsonArray
        settings.maximumPageSide = 256
        settings.name = "hop"
        let (folder, result) = try exportSheet("flump-hopbot", settings: settings)
        let pages = result.clips[0].companions.filter { $0.relativePath.hasSuffix(".png") }
        XCTAssertGreaterThan(pages.count, 1, "a 256-pixel page cannot hold every frame")
        XCTAssertEqual(result.clips[0].main.relativePath, "hop-0.json")
        try assertFramesMatchRender(folder, format: .jsonArray, sampleName: "flump-hopbot")
        // Pixi's `animations`: in each page's file, each clip's frames on that page in order; over the files, every
        // clip with all its frames. Each file names the others (`related_multi_packs`) for Pixi to load.
        var animations: [String: [String]] = [:]
        let dataFiles = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        for name in dataFiles {
            let root = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(name)))
            let object = try XCTUnwrap(root as? [String: Any])
            for (clip, frames) in object["animations"] as? [String: [String]] ?? [:] {
                XCTAssertEqual(frames.sorted(), frames, "\(name): \(clip)")
                animations[clip, default: []] += frames
            }
            let related = (object["meta"] as? [String: Any])?["related_multi_packs"] as? [String] ?? []
            XCTAssertEqual(Set(related), Set(dataFiles).subtracting([name]), name)
        }
        let document = try Importer.importDocument(at: sample("flump-hopbot"))
        XCTAssertEqual(Set(animations.keys), Set(document.clips.map(\.name)))
        let rendered = try renderedFrames("flump-hopbot")
        for (clip, frames) in animations {
            XCTAssertEqual(Set(frames), Set(rendered.keys.filter { $0.dropLast(4) == clip }), clip)
        }
    }

    func testPhaser3MultiAtlasPremultiplied() throws {
        var settings = SpriteSheetSettings()
        settings.format = .phaser3
        settings.maximumPageSide = 256
        settings.premultipliedAlpha = true
        settings.powerOfTwo = true
        let (folder, result) = try exportSheet("flump-hopbot", settings: settings)
        XCTAssertEqual(result.clips[0].main.relativePath, "sheet.json")
        try assertFramesMatchRender(folder, format: .phaser3, sampleName: "flump-hopbot", premultiplied: true)
    }

    /// Aseprite: every frame in one array, each clip a frame tag over its range, whole-millisecond durations.
    func testAsepriteFramesTagsAndDurations() throws {
        var settings = SpriteSheetSettings()
        settings.format = .aseprite
        let (folder, result) = try exportSheet("animate-walker", settings: settings)
        try assertFramesMatchRender(folder, format: .aseprite, sampleName: "animate-walker")
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.clips[0].main.bytes)) as? [String: Any])
        let frames = try XCTUnwrap(root["frames"] as? [[String: Any]])
        let tags = try XCTUnwrap((root["meta"] as? [String: Any])?["frameTags"] as? [[String: Any]])
        let document = try Importer.importDocument(at: sample("animate-walker"))
        XCTAssertEqual(tags.map { $0["name"] as? String }, document.clips.map(\.name))
        for tag in tags {
            let (from, to) = (try XCTUnwrap(tag["from"] as? Int), try XCTUnwrap(tag["to"] as? Int))
            let names = frames[from...to].map { $0["filename"] as? String ?? "" }
            XCTAssert(names.allSatisfy { $0.dropLast(4) == tag["name"] as? String ?? "" }, "\(tag): \(names)")
        }
        let duration = (1000 / document.frameRate.framesPerSecond).rounded()
        XCTAssert(frames.allSatisfy { ($0["duration"] as? Double) == duration }, "every frame lasts \(duration) ms")
        settings.maximumPageSide = 256
        XCTAssertThrowsError(try exportSheet("animate-walker", settings: settings)) { error in
            XCTAssert("\(error)".contains("one page"), "\(error)")
        }
    }

    /// Godot 3 SpriteFrames: AtlasTextures over several pages, one animation per clip.
    func testGodotSpriteFramesOnSeveralPages() throws {
        var settings = SpriteSheetSettings()
        settings.format = .godot
        settings.maximumPageSide = 256
        let (folder, result) = try exportSheet("flump-hopbot", settings: settings)
        XCTAssertEqual(result.clips[0].main.relativePath, "sheet.tres")
        XCTAssertGreaterThan(result.clips[0].companions.count, 1)
        try assertFramesMatchRender(folder, format: .godot, sampleName: "flump-hopbot")
    }

    /// Cocos2d plists, one per page, read by their `offset` (half pixels included) and `sourceSize`.
    func testCocos2dPlistOnSeveralPages() throws {
        var settings = SpriteSheetSettings()
        settings.format = .cocos2d
        settings.maximumPageSide = 256
        settings.extrude = 1
        let (folder, result) = try exportSheet("flump-hopbot", settings: settings)
        XCTAssertEqual(result.clips[0].main.relativePath, "sheet-0.plist")
        try assertFramesMatchRender(folder, format: .cocos2d, sampleName: "flump-hopbot")
        XCTAssert(String(decoding: result.clips[0].main.bytes, as: UTF8.self).contains(".5,"), "a half-pixel offset")
    }

    /// Scale variants: `@2x` and `@0.5x` sheets beside the 1× one, each frame `render --size`'s at the scaled size.
    func testScaleVariantsAreRenderedAtTheirSize() throws {
        var settings = SpriteSheetSettings()
        settings.format = .jsonHash
        settings.name = "walker"
        settings.scales = [1, 2, 0.5]
        let (folder, result) = try exportSheet("animate-walker", settings: settings)
        XCTAssertEqual(result.clips[0].main.relativePath, "walker.json")
        let names = Set(([result.clips[0].main] + result.clips[0].companions).map(\.relativePath))
        XCTAssertEqual(names, ["walker.json", "walker.png", "walker@2x.json", "walker@2x.png", "walker@0.5x.json",
                               "walker@0.5x.png"])
        try assertFramesMatchRender(folder, format: .jsonHash, sampleName: "animate-walker", scale: 2, only: "walker@2x")
        try assertFramesMatchRender(folder, format: .jsonHash, sampleName: "animate-walker", scale: 0.5,
                                    only: "walker@0.5x")
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("walker@2x.json")))
        XCTAssertEqual(((root as? [String: Any])?["meta"] as? [String: Any])?["scale"] as? String, "2")
    }

    /// Frames that show the same picture share one stored rectangle; output is the same for any number of workers.
    func testDuplicatesStoredOnceAndDeterministic() throws {
        var settings = SpriteSheetSettings()
        settings.format = .jsonHash
        let (_, one) = try exportSheet("animate-bouncer-long", settings: settings, jobs: 1)
        let (_, four) = try exportSheet("animate-bouncer-long", settings: settings, jobs: 4)
        XCTAssertEqual(one, four)
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(one.clips[0].main.bytes)) as? [String: Any])
        let frames = try XCTUnwrap(root["frames"] as? [String: [String: Any]])
        let rects = Set(frames.values.map { value -> [Int] in
            let rect = value["frame"] as? [String: Int] ?? [:]
            return [rect["x"] ?? -1, rect["y"] ?? -1]
        })
        XCTAssertLessThan(rects.count, frames.count, "a held pose is stored once")
        XCTAssert(one.diagnostics.contains { $0.code == "sheet-duplicates" }, "\(one.diagnostics)")
    }

    /// Godot 3's headless server imports the pages, loads the resource with its own loader and rebuilds every frame
    /// from the AtlasTextures it made (godot_frames.gd); each must be `render`'s frame byte for byte.
    func testGodot3LoadsTheSpriteFrames() throws {
        let godot = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
            .map { "\($0)/godot3-server" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let godot else {
            throw XCTSkip("godot3-server is not installed (Debian godot3-server; Scripts/ensure-deps.sh test installs it)")
        }
        var settings = SpriteSheetSettings()
        settings.format = .godot
        settings.maximumPageSide = 256
        let (project, _) = try exportSheet("flump-hopbot", settings: settings)
        try Data("config_version=4\n[application]\nconfig/name=\"sheet\"\n".utf8)
            .write(to: project.appendingPathComponent("project.godot"))
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("godot_frames.gd")
        try FileManager.default.copyItem(at: script, to: project.appendingPathComponent("godot_frames.gd"))
        func run(_ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: godot)
            process.arguments = ["--path", project.path] + arguments
            process.environment = ["HOME": project.path, "LANG": "en_US.UTF-8", "PATH": "/usr/bin:/bin"]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, "godot3-server \(arguments): \(output.suffix(2000))")
            return output
        }
        _ = try run(["--editor", "--quit"])  // imports the pages, as opening the project in the editor does
        let output = try run(["-s", "godot_frames.gd"])
        XCTAssert(output.contains("frames written"), output)
        let expected = try renderedFrames("flump-hopbot")
        let list = try String(contentsOf: project.appendingPathComponent("frames/list.txt"), encoding: .utf8)
        var seen = Set<String>()
        for line in list.split(separator: "\n") {
            let fields = line.split(separator: "\t").map(String.init)
            let number = fields[1]
            let name = fields[0] + String(repeating: "0", count: max(0, 4 - number.count)) + number
            seen.insert(name)
            let frame = try PNGDecoder().decodeStraight(
                Array(try Data(contentsOf: project.appendingPathComponent("frames/\(fields[2]).png"))))
            let reference = try XCTUnwrap(expected[name], name)
            XCTAssertEqual(frame.width, reference.width, name)
            XCTAssertEqual(frame.height, reference.height, name)
            XCTAssert(frame.pixels == reference.pixels,
                      "\(name): Godot's frame \(project.path)/frames/\(fields[2]).png differs from \(reference.path)")
        }
        XCTAssertEqual(seen, Set(expected.keys))
    }

    /// TextureAtlas Toolbox's own parsers (its registry picks one per file) place every frame; Pillow cuts them out.
    /// The Toolbox is fetched, never committed: KEYFRAME_ORACLE_TATOOLBOX names a checkout (its `src/` holds the
    /// parsers). Its JSON hash and array parsers read a rotated frame's `w`/`h` as the turned size, unlike Pixi,
    /// Phaser and its own Phaser 3 parser, so rotation is checked here through the Phaser 3 format only.
    func testTextureAtlasToolboxParsersPlaceEveryFrame() throws {
        guard let toolbox = ProcessInfo.processInfo.environment["KEYFRAME_ORACLE_TATOOLBOX"] else {
            throw XCTSkip("KEYFRAME_ORACLE_TATOOLBOX is not set (a checkout of TextureAtlas Toolbox; see docs/spritesheet.md)")
        }
        let render = try TestPaths.temporaryFolder("render")
        var session = RenderSession(scene: try RenderScene(document: try Importer.importDocument(at: sample("flump-hopbot")),
                                                           assetsFolder: try Importer.detect(sample("flump-hopbot")).folder))
        session.outputFolder = render
        _ = try session.run()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("tat_read_sheet.py")
        let formats: [(SpriteSheetSettings.Format, String, Bool)] = [
            (.sparrow, "xml", false), (.jsonHash, "json", false), (.jsonArray, "json", false), (.phaser3, "json", true),
            (.aseprite, "json", false), (.cocos2d, "plist", false),
        ]
        for (format, fileExtension, rotation) in formats {
            var settings = SpriteSheetSettings()
            settings.format = format
            settings.rotation = rotation
            let (folder, _) = try exportSheet("flump-hopbot", settings: settings)
            let run = Process()
            run.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            run.arguments = ["python3", script.path, toolbox, folder.appendingPathComponent("sheet.\(fileExtension)").path,
                             folder.appendingPathComponent("sheet.png").path, render.path]
            let pipe = Pipe()
            run.standardOutput = pipe
            run.standardError = pipe
            try run.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            run.waitUntilExit()
            XCTAssertEqual(run.terminationStatus, 0, "\(format.rawValue): \(output.suffix(1500))")
            XCTAssert(output.contains("117 frames identical"), "\(format.rawValue): \(output.suffix(1500))")
        }
    }

    /// Pillow, a PNG reader written by others, cuts the frames out with its own crop and rotate.
    func testPillowCutsTheRenderedFrames() throws {
        // python3 as the PATH finds it (a pyenv or virtualenv with Pillow comes first).
        let python = "/usr/bin/env"
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = ["python3", "-c", "import PIL"]
        try check.run(); check.waitUntilExit()
        guard check.terminationStatus == 0 else {
            throw XCTSkip("python3 with Pillow is not on the PATH (Scripts/ensure-deps.sh test installs python3-pil)")
        }
        let render = try TestPaths.temporaryFolder("render")
        var session = RenderSession(scene: try RenderScene(document: try Importer.importDocument(at: sample("flump-hopbot")),
                                                           assetsFolder: try Importer.detect(sample("flump-hopbot")).folder))
        session.outputFolder = render
        _ = try session.run()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("read_sheet.py")
        for format in SpriteSheetSettings.Format.allCases {
            var settings = SpriteSheetSettings()
            settings.format = format
            settings.rotation = SpriteSheetSettings.allowsRotation(format)
            settings.maximumPageSide = format == .aseprite ? 4096 : 300
            let (folder, _) = try exportSheet("flump-hopbot", settings: settings)
            let run = Process()
            run.executableURL = URL(fileURLWithPath: python)
            run.arguments = ["python3", script.path, format.rawValue, folder.path, render.path]
            let pipe = Pipe()
            run.standardOutput = pipe
            run.standardError = pipe
            try run.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            run.waitUntilExit()
            XCTAssertEqual(run.terminationStatus, 0, "\(format.rawValue): \(output)")
            XCTAssert(output.contains("frames identical"), output)
        }
    }
}
