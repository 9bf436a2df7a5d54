import Foundation
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Texture atlases next to a DragonBones skeleton: DragonBones `SubTexture` lists (trimmed and scaled) and
/// TexturePacker JSON arrays, checked against positions worked out by hand.
final class DragonBonesAtlasTests: XCTestCase {
    /// A skeleton whose slot shows texture `tex` with the default pivot (the texture's centre).
    static let skeleton = #"{"name":"t","version":"4.0","frameRate":24,"armature":[{"name":"arm","bone":[{"name":"b"}],"slot":[{"name":"s","parent":"b"}],"skin":[{"slot":[{"name":"s","display":[{"name":"parts/tex"}]}]}],"animation":[{"name":"a","duration":1}]}]}"#

    func convert(skeletonName: String = "t_ske.json", atlasName: String, atlas: String) throws -> Document {
        let folder = try TestPaths.temporaryFolder("keyframe-db-atlas")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.skeleton.utf8).write(to: folder.appendingPathComponent(skeletonName))
        try Data(atlas.utf8).write(to: folder.appendingPathComponent(atlasName))
        try Data(AnimateFixture.tinyPNG).write(to: folder.appendingPathComponent("sheet.png"))
        return try Importer.importDocument(at: folder)
    }

    /// The top-left corner of the drawn picture in the slot's space: −pivot + origin.
    func pictureTopLeft(_ document: Document) throws -> Vector2 {
        let slot = try XCTUnwrap(document.compositions[0].nodes.first { $0.kind == .slot })
        let sprite = try XCTUnwrap(document.assets.sprites.first)
        let pivot = slot.tracks.pivot?.keyframes.first?.value ?? .zero
        return Vector2(x: sprite.origin.x - pivot.x, y: sprite.origin.y - pivot.y)
    }

    func testTrimmedSubTextureSitsWhereItWouldInItsFrame() throws {
        // A 40 × 20 frame trimmed to 30 × 12 starting 6 px right and 3 px down: centred on the frame, the frame's
        // top-left is at (−20, −10), so the kept pixels start at (−14, −7).
        let atlas = #"{"imagePath":"sheet.png","SubTexture":[{"name":"parts/tex","x":2,"y":4,"width":30,"height":12,"frameX":-6,"frameY":-3,"frameWidth":40,"frameHeight":20}]}"#
        let document = try convert(atlasName: "t_tex.json", atlas: atlas)
        XCTAssertEqual(document.assets.sprites.first?.region, Rect(x: 2, y: 4, width: 30, height: 12))
        XCTAssertEqual(document.assets.sprites.first?.size, Size(width: 30, height: 12))
        XCTAssertEqual(try pictureTopLeft(document), Vector2(x: -14, y: -7))
    }

    func testAtlasScaleMakesPicturesLarger() throws {
        // `scale` 0.5 becomes resolution 0.5: the 10 × 8 region covers 20 × 16 document pixels, centred (the model's
        // rule; no corpus atlas has a scale other than 1, so the runtime's handling of it is not checked here).
        let atlas = #"{"imagePath":"sheet.png","scale":0.5,"SubTexture":[{"name":"parts/tex","x":0,"y":0,"width":10,"height":8}]}"#
        let document = try convert(atlasName: "t_tex.json", atlas: atlas)
        XCTAssertEqual(document.assets.images.first?.resolution, 0.5)
        XCTAssertEqual(document.assets.sprites.first?.size, Size(width: 20, height: 16))
        XCTAssertEqual(try pictureTopLeft(document), Vector2(x: -10, y: -8))
    }

    func testTexturePackerArrayNextToAFourPointZeroSkeleton() throws {
        // TexturePacker names keep the extension; the sprite is trimmed 4 px from the left of a 24 × 24 source.
        let atlas = #"{"frames":[{"filename":"parts/tex.png","frame":{"x":8,"y":0,"w":16,"h":24},"rotated":false,"trimmed":true,"spriteSourceSize":{"x":4,"y":0,"w":16,"h":24},"sourceSize":{"w":24,"h":24}}],"meta":{"image":"sheet.png","size":{"w":32,"h":32},"scale":"1"}}"#
        let document = try convert(skeletonName: "skeleton.json", atlasName: "atlas.json", atlas: atlas)
        XCTAssertEqual(document.assets.sprites.map(\.id), ["parts/tex"])
        XCTAssertEqual(document.source.files, ["atlas.json", "sheet.png", "skeleton.json"])
        // Centred on the 24 × 24 source: its top-left at (−12, −12); the kept pixels start 4 px further right.
        XCTAssertEqual(try pictureTopLeft(document), Vector2(x: -8, y: -12))
    }
}
