import Foundation
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Sprite sheets as input (format.md §6.5): the three layouts of ``SpriteSheetFixture``, their quirks, the
/// grouping rules, the sidecar and the errors. The pixels are checked in `SpriteSheetRenderTests`.
final class SpriteSheetImportTests: XCTestCase {
    private func load(_ layout: SpriteSheetFixture.Layout, options: ImportOptions = ImportOptions(),
                      extra: [String: String] = [:]) throws -> Document {
        let folder = try SpriteSheetFixture.write(layout, extra: extra)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return try Importer.importDocument(at: folder, options: options)
    }

    func testSparrowIsDetectedAndGroupedByName() throws {
        let document = try load(.sparrow)
        XCTAssertEqual(document.source.format, .spriteSheet)
        XCTAssertEqual(document.source.variant, "sparrowXML")
        XCTAssertEqual(document.source.files, ["BOYFRIEND.png", "BOYFRIEND.xml"])
        XCTAssertEqual(document.name, "BOYFRIEND")
        XCTAssertEqual(document.frameRate.framesPerSecond, 24)
        XCTAssertEqual(document.stage, Rect(x: 0, y: 0, width: 12, height: 10))
        // The prefixes collide (`BF idle dance` starts `BF idle dance-alt`), the groups do not; frames by number.
        XCTAssertEqual(document.clips.map(\.name), ["BF idle dance", "BF idle dance-alt", "static"])
        XCTAssertEqual(document.clips.map(\.duration.value), [3, 2, 1])
        let content = try XCTUnwrap(document.composition("BF idle dance")?.nodes.first?.tracks.content)
        XCTAssertEqual(content.keyframes.map(\.value),
                       [.sprite("BF idle dance0000"), .sprite("BF idle dance0001"), .sprite("BF idle dance0002")])
        // The renamed image is found by the sheet's name, and said.
        XCTAssertEqual(document.assets.images.map(\.path), ["BOYFRIEND.png"])
        XCTAssert(document.diagnostics.contains { $0.code == "atlas-image-renamed" && $0.message.contains("BF_old.png") },
                  "\(document.diagnostics)")
    }

    /// Every frame's sprite is where the authored frame puts it: origin = offset (negative ones too), upright size,
    /// rotated regions stored turned.
    func testEveryLayoutPlacesTrimmedAndRotatedFramesAsAuthored() throws {
        for layout in SpriteSheetFixture.Layout.allCases {
            let document = try load(layout)
            for frame in SpriteSheetFixture.frames {
                let sprite = try XCTUnwrap(document.assets.sprites.first { $0.name == frame.name }, "\(layout) \(frame.name)")
                XCTAssertEqual(sprite.origin, Vector2(x: Double(frame.offsetX), y: Double(frame.offsetY)), "\(layout) \(frame.name)")
                XCTAssertEqual(sprite.size, Size(width: Double(frame.width), height: Double(frame.height)), "\(layout) \(frame.name)")
                XCTAssertEqual(sprite.rotated, frame.rotated, "\(layout) \(frame.name)")
                let (w, h) = frame.rotated ? (frame.height, frame.width) : (frame.width, frame.height)
                XCTAssertEqual(sprite.region, Rect(x: Double(frame.atlasX), y: Double(frame.atlasY), width: Double(w),
                                                   height: Double(h)), "\(layout) \(frame.name)")
            }
        }
    }

    func testJSONLayoutsRecordTheirToolAndDeclaredAnimations() throws {
        let hash = try load(.hash)
        XCTAssertEqual(hash.source.variant, "jsonHash")
        XCTAssertEqual(hash.source.tool, "Adobe Animate")
        XCTAssertEqual(hash.source.toolVersion, "23.0.0.407")
        XCTAssertEqual(hash.clips.map(\.name), ["BF idle dance", "BF idle dance-alt", "static"])
        // PixiJS's `animations` are the groups when present.
        let array = try load(.array)
        XCTAssertEqual(array.source.variant, "jsonArray")
        XCTAssertEqual(array.clips.map(\.name), ["dance"])
        XCTAssertEqual(array.clips.first?.duration.value, 3)
        // …unless one clip is asked for: all frames in name order.
        let single = try load(.array, options: ImportOptions(sheetAnimations: .single))
        XCTAssertEqual(single.clips.map(\.name), ["sheet"])
        XCTAssertEqual(single.composition("sheet")?.nodes.first?.tracks.content?.keyframes.map(\.value),
                       SpriteSheetFixture.frames.map(\.name).sorted().map { .sprite($0) })
        let declaredOnly = try load(.hash, options: ImportOptions(sheetAnimations: .declared))
        XCTAssertEqual(declaredOnly.clips.map(\.name), ["sheet"])
    }

    func testFrameRateOptionAndSidecar() throws {
        XCTAssertEqual(try load(.sparrow, options: ImportOptions(sheetFrameRate: 30)).frameRate.framesPerSecond, 30)
        // A Psych Engine character JSON naming the image: its animations (addByPrefix, addByIndices) and fps.
        let psych = #"{"image": "characters/BOYFRIEND", "animations": [{"anim": "idle", "name": "BF idle dance", "fps": 12, "loop": false, "indices": []}, {"anim": "alt", "name": "BF idle dance-alt", "fps": 12, "loop": true, "indices": [1, 0, 1]}]}"#
        let document = try load(.sparrow, extra: ["bf.json": psych])
        XCTAssertEqual(document.frameRate.framesPerSecond, 12)
        XCTAssertEqual(document.clips.map(\.name), ["idle", "alt"])
        XCTAssertEqual(document.clips.map(\.loopCount), [1, 0])
        // addByPrefix("BF idle dance") takes the -alt frames too, ordered by number (0000, 0000, 0001, 0001, 0002).
        XCTAssertEqual(document.clips.first?.duration.value, 5)
        XCTAssertEqual(document.composition("alt")?.nodes.first?.tracks.content?.keyframes.map(\.value),
                       [.sprite("BF idle dance-alt0001"), .sprite("BF idle dance-alt0000"), .sprite("BF idle dance-alt0001")])
        XCTAssert(document.source.files.contains("bf.json"))
        // The option wins over the sidecar.
        XCTAssertEqual(try load(.sparrow, options: ImportOptions(sheetFrameRate: 20), extra: ["bf.json": psych])
            .frameRate.framesPerSecond, 20)
    }

    func testOutputMatchesTheSchema() throws {
        var documents: [String: [UInt8]] = [:]
        for layout in SpriteSheetFixture.Layout.allCases { documents[layout.rawValue] = try load(layout).jsonBytes() }
        try SchemaValidator.assertValid(documents, "sprite-sheet output")
    }

    /// The base game's character JSON (`assetPath`, `prefix`, `frameRate`, `looped`, `frameIndices`).
    func testBaseGameSidecar() throws {
        let vslice = #"{"version": "1.0.0", "assetPath": "shared:characters/BOYFRIEND", "animations": [{"name": "idle", "prefix": "BF idle dance", "frameRate": 30, "looped": true, "frameIndices": [2, 0]}]}"#
        let document = try load(.sparrow, extra: ["bf.json": vslice])
        XCTAssertEqual(document.frameRate.framesPerSecond, 30)
        XCTAssertEqual(document.clips.map(\.name), ["idle"])
        XCTAssertEqual(document.clips.map(\.loopCount), [0])
        XCTAssertEqual(document.composition("idle")?.nodes.first?.tracks.content?.keyframes.map(\.value),
                       [.sprite("BF idle dance0002"), .sprite("BF idle dance0000")])
    }

    func testConvertingTwiceGivesIdenticalBytes() throws {
        for layout in SpriteSheetFixture.Layout.allCases {
            XCTAssertEqual(try load(layout).jsonBytes(), try load(layout).jsonBytes(), "\(layout)")
        }
    }

    // MARK: Goldens

    /// The normalized document of each layout equals `Golden/sprite-sheets/<layout>.json` byte for byte
    /// (`RECORD_SNAPSHOTS=1` rewrites them and fails, so recording is never silent).
    func testImportGoldens() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/sprite-sheets")
        let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
        for layout in SpriteSheetFixture.Layout.allCases {
            let bytes = try load(layout).jsonBytes()
            let url = folder.appendingPathComponent("\(layout.rawValue).json")
            if record {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(bytes).write(to: url)
                XCTFail("recorded \(url.path)")
                continue
            }
            let golden = try XCTUnwrap(FileManager.default.contents(atPath: url.path), "no golden \(url.path)")
            if [UInt8](golden) != bytes {
                try Data(bytes).write(to: folder.appendingPathComponent("\(layout.rawValue).actual.json"))
                XCTFail("\(layout): the import differs from its golden (actual written beside it)")
            }
        }
    }

    // MARK: Errors

    private func failure(_ layout: SpriteSheetFixture.Layout, _ edit: (String) -> String) throws -> String {
        let folder = try SpriteSheetFixture.write(layout)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(SpriteSheetFixture.dataFile(layout))
        try Data(edit(SpriteSheetFixture.data(layout)).utf8).write(to: url)
        do {
            let document = try Importer.importDocument(at: url)
            XCTFail("converted: \(document.clips.map(\.name))")
            return ""
        } catch { return "\(error)" }
    }

    func testErrorsAreLocated() throws {
        // XML: line and column of the attribute or element.
        let notNumber = try failure(.sparrow) { $0.replacingOccurrences(of: #"name="static" x="0""#, with: #"name="static" x="zero""#) }
        XCTAssert(notNumber.hasPrefix("BOYFRIEND.xml:9:"), notNumber)
        XCTAssert(notNumber.contains("attribute x: expected a number"), notNumber)
        let missing = try failure(.sparrow) { $0.replacingOccurrences(of: #"name="static" x="0" y="8" width="12""#, with: #"name="static" x="0" y="8""#) }
        XCTAssert(missing.contains("BOYFRIEND.xml:9:3: <SubTexture> has no width attribute"), missing)
        let malformed = try failure(.sparrow) { $0.replacingOccurrences(of: "</TextureAtlas>", with: "") }
        XCTAssert(malformed.contains("invalid XML"), malformed)
        let doctype = try failure(.sparrow) { $0.replacingOccurrences(of: "<TextureAtlas", with: #"<!DOCTYPE x [<!ENTITY a "aaaa">]><TextureAtlas"#) }
        XCTAssert(doctype.contains("document type declarations"), doctype)
        let huge = try failure(.sparrow) { $0.replacingOccurrences(of: #"name="static" x="0" y="8" width="12""#, with: #"name="static" x="0" y="8" width="1e12""#) }
        XCTAssert(huge.contains("larger than 65536 pixels"), huge)
        let outside = try failure(.sparrow) { $0.replacingOccurrences(of: #"name="static" x="0""#, with: #"name="static" x="20""#) }
        XCTAssert(outside.contains("lies outside BOYFRIEND.png (26×20)"), outside)
        // JSON: the path.
        let json = try failure(.hash) { $0.replacingOccurrences(of: #""static": {"frame": {"x":0,"#, with: #""static": {"frame": {"#) }
        XCTAssert(json.contains(#"sheet.json: at frames["static"].frame"#) || json.contains("frames.static.frame"), json)
        XCTAssert(json.contains("missing required key \"x\""), json)
    }

    /// An absurd frame count is a located limit, not a hang: one animation of 100,001 frames.
    func testAbsurdFrameCountIsALimit() throws {
        let folder = try SpriteSheetFixture.write(.sparrow)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        var text = #"<TextureAtlas imagePath="BOYFRIEND.png">"# + "\n"
        for index in 0...100_000 { text += #"<SubTexture name="f\#(index)" x="0" y="0" width="1" height="1"/>"# + "\n" }
        text += "</TextureAtlas>\n"
        try Data(text.utf8).write(to: folder.appendingPathComponent("BOYFRIEND.xml"))
        let start = Date()
        XCTAssertThrowsError(try Importer.importDocument(at: folder)) { error in
            XCTAssert("\(error)".contains("timelines are limited to 100000 frames"), "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 30)
    }

    func testEntitiesInNamesAreRead() throws {
        let folder = try SpriteSheetFixture.write(.sparrow)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("BOYFRIEND.xml")
        try Data(SpriteSheetFixture.data(.sparrow).replacingOccurrences(of: #"name="static""#, with: #"name="s&amp;t&#x41;tic""#).utf8)
            .write(to: url)
        let document = try Importer.importDocument(at: url)
        XCTAssert(document.clips.contains { $0.name == "s&tAtic" }, "\(document.clips.map(\.name))")
    }
}
