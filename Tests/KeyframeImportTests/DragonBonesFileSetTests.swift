import Foundation
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// DragonBones exports under the names they travel with — a Godot plugin's `*.dbjson`, older editors' `Name.json`
/// with `NameTexture.json`, several characters in one folder — are recognised by content: the skeleton by its
/// armature list, atlases by their `SubTexture` list, paired by name or by the data `name` they share, and an info
/// diagnostic says which files were read and why. Built from our own `Samples/dragonbones-waver`.
final class DragonBonesFileSetTests: XCTestCase {
    static let sample = TestPaths.packageRoot.appendingPathComponent("Samples/dragonbones-waver")

    /// A folder holding the waver sample under the given names: the skeleton at `skeleton`, the atlas at `atlas`
    /// (its `imagePath` and `name` rewritten when given) and the image at `image`.
    func folder(skeleton: String, atlas: String, image: String, atlasName: String? = nil,
                extra: [String: Data] = [:]) throws -> URL {
        let folder = try TestPaths.temporaryFolder("keyframe-db-files")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        try Data(contentsOf: Self.sample.appendingPathComponent("waver_ske.json"))
            .write(to: folder.appendingPathComponent(skeleton))
        var texture = try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.sample.appendingPathComponent("waver_tex.json"))) as! [String: Any]
        texture["imagePath"] = image
        if let atlasName { texture["name"] = atlasName }
        try JSONSerialization.data(withJSONObject: texture).write(to: folder.appendingPathComponent(atlas))
        try Data(contentsOf: Self.sample.appendingPathComponent("waver_tex.png")).write(to: folder.appendingPathComponent(image))
        for (name, data) in extra { try data.write(to: folder.appendingPathComponent(name)) }
        return folder
    }

    func filesChosen(_ document: Document) -> String? {
        document.diagnostics.first { $0.code == "files-chosen" }?.message
    }

    /// The document of the sample under its own names, for comparison.
    func reference() throws -> Document { try Importer.importDocument(at: Self.sample) }

    func testGodotDBJSONSkeletonIsFoundByContent() throws {
        let folder = try folder(skeleton: "Waver.dbjson", atlas: "Waver_tex.json", image: "Waver_tex.png")
        XCTAssertEqual(try Importer.detect(folder).format, .dragonBones)
        XCTAssertEqual(try Importer.detect(folder).file, "Waver.dbjson")
        let document = try Importer.importDocument(at: folder)
        XCTAssertEqual(document.compositions, try reference().compositions)
        XCTAssertEqual(document.assets.sprites.map(\.region), try reference().assets.sprites.map(\.region))
        let message = try XCTUnwrap(filesChosen(document))
        XCTAssert(message.contains("skeleton Waver.dbjson, recognised by its content"), message)
        XCTAssert(message.contains("texture atlas Waver_tex.json, named after the skeleton"), message)
        XCTAssertEqual(document.source.files, ["Waver.dbjson", "Waver_tex.json", "Waver_tex.png"])
        // Pointed at the file itself, too.
        XCTAssertEqual(try Importer.importDocument(at: folder.appendingPathComponent("Waver.dbjson")).compositions,
                       document.compositions)
    }

    func testNameJSONWithNameTextureIsPaired() throws {
        // A stray JSON that is neither (a settings file) and an atlas of another export are left alone.
        let other = try JSONSerialization.data(withJSONObject: [
            "name": "other", "imagePath": "other.png", "SubTexture": [["name": "x", "x": 0, "y": 0, "width": 1, "height": 1]],
        ])
        let folder = try folder(skeleton: "Hero.json", atlas: "HeroTexture.json", image: "HeroTexture.png",
                                extra: ["settings.json": Data(#"{"volume": 3}"#.utf8), "Zebra.json": other])
        let document = try Importer.importDocument(at: folder)
        XCTAssertEqual(document.compositions, try reference().compositions)
        let message = try XCTUnwrap(filesChosen(document))
        XCTAssert(message.contains("texture atlas HeroTexture.json, named after the skeleton (HeroTexture)"), message)
        XCTAssertFalse(message.contains("Zebra"), message)
        XCTAssertEqual(document.source.files, ["Hero.json", "HeroTexture.json", "HeroTexture.png"])
        XCTAssertFalse(document.diagnostics.contains { $0.code == "duplicate-sprite" })
    }

    func testAtlasesArePairedByTheDataNameWhenNamesSayNothing() throws {
        // Two characters in one folder: each atlas carries its skeleton data's name, as the runtime pairs them.
        var second = try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.sample.appendingPathComponent("waver_ske.json"))) as! [String: Any]
        second["name"] = "twin"
        var twinAtlas = try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.sample.appendingPathComponent("waver_tex.json"))) as! [String: Any]
        twinAtlas["name"] = "twin"
        twinAtlas["imagePath"] = "b.png"
        let folder = try folder(skeleton: "alpha.json", atlas: "sheet-1.json", image: "a.png", atlasName: "waver",
                                extra: ["beta.json": try JSONSerialization.data(withJSONObject: second),
                                        "sheet-2.json": try JSONSerialization.data(withJSONObject: twinAtlas),
                                        "b.png": try Data(contentsOf: Self.sample.appendingPathComponent("waver_tex.png"))])
        let first = try Importer.importDocument(at: folder)
        XCTAssertEqual(first.name, "waver")
        let message = try XCTUnwrap(filesChosen(first))
        XCTAssert(message.contains("texture atlas sheet-1.json, whose name \"waver\" is the skeleton data's"), message)
        XCTAssert(message.contains("other skeleton(s) not read (give a file's path to read it): beta.json"), message)
        XCTAssertEqual(first.assets.images.map(\.path), ["a.png"])

        let other = try Importer.importDocument(at: folder.appendingPathComponent("beta.json"))
        XCTAssertEqual(other.name, "twin")
        XCTAssertEqual(other.assets.images.map(\.path), ["b.png"])
        XCTAssert(try XCTUnwrap(filesChosen(other)).contains("other skeleton(s) not read (give a file's path to read it): alpha.json"))
    }

    func testConventionalNamesNeedNoExplanation() throws {
        let document = try reference()
        XCTAssertNil(filesChosen(document))
        XCTAssertEqual(document.source.files, ["waver_ske.json", "waver_tex.json", "waver_tex.png"])
    }

    func testAFolderWithoutSkeletonSaysWhatWasLookedFor() throws {
        let folder = try TestPaths.temporaryFolder("keyframe-db-files")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        // Armature data without a version is not DragonBones data; an atlas alone is not an export.
        try Data(#"{"armature": []}"#.utf8).write(to: folder.appendingPathComponent("a.json"))
        try Data(contentsOf: Self.sample.appendingPathComponent("waver_tex.json")).write(to: folder.appendingPathComponent("b.json"))
        do {
            _ = try Importer.importDocument(at: folder)
            XCTFail("a folder without a skeleton converted")
        } catch {
            XCTAssert("\(error)".contains(".dbjson file with an armature list"), "\(error)")
        }
    }

    func testASkeletonWithoutAtlasNamesWhatWasLookedFor() throws {
        let folder = try TestPaths.temporaryFolder("keyframe-db-files")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        try Data(contentsOf: Self.sample.appendingPathComponent("waver_ske.json"))
            .write(to: folder.appendingPathComponent("Hero.dbjson"))
        do {
            _ = try Importer.importDocument(at: folder)
            XCTFail("a skeleton without atlas converted")
        } catch {
            XCTAssert("\(error)".contains("no texture atlas next to it (a JSON file with a SubTexture list, such as Hero_tex.json)"),
                      "\(error)")
        }
    }
}
