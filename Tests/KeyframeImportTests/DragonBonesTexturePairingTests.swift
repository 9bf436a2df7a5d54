import Foundation
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// A DragonBones skeleton beside a TexturePacker JSON-array atlas whose frame names are file paths: the extension is
/// dropped as TexturePacker loaders drop it (StageXL's `getFilenameWithoutExtension`), exact names win, and a name
/// that matches only inside a folder is paired when it is the only such texture — with a warning naming each
/// pairing — and never when it is ambiguous.
final class DragonBonesTexturePairingTests: XCTestCase {
    /// A 5.5 skeleton with one slot per display name in `names`, each showing that texture.
    static func skeleton(_ names: [String]) -> String {
        let slots = names.enumerated().map { #"{"name":"s\#($0.offset)","parent":"root"}"# }.joined(separator: ",")
        let skin = names.enumerated().map { #"{"name":"s\#($0.offset)","display":[{"name":"\#($0.element)"}]}"# }
            .joined(separator: ",")
        return #"{"name":"t","version":"5.5","frameRate":24,"armature":[{"name":"arm","bone":[{"name":"root"}],"slot":[\#(slots)],"skin":[{"slot":[\#(skin)]}],"animation":[{"name":"idle","duration":2}]}]}"#
    }

    /// A TexturePacker array atlas of 2 × 2 frames named `filenames`, over the 4 × 4 test image.
    static func atlas(_ filenames: [String]) -> String {
        let frames = filenames.enumerated().map { index, name in
            #"{"filename":"\#(name)","frame":{"x":\#(index % 2 * 2),"y":\#(index / 2 % 2 * 2),"w":2,"h":2},"rotated":false,"trimmed":false,"spriteSourceSize":{"x":0,"y":0,"w":2,"h":2},"sourceSize":{"w":2,"h":2}}"#
        }.joined(separator: ",")
        return #"{"frames":[\#(frames)],"meta":{"image":"sheet.png","size":{"w":4,"h":4},"scale":"1"}}"#
    }

    func convert(displays: [String], filenames: [String]) throws -> Document {
        let folder = try TestPaths.temporaryFolder("keyframe-db-pairing")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.skeleton(displays).utf8).write(to: folder.appendingPathComponent("skeleton.json"))
        try Data(Self.atlas(filenames).utf8).write(to: folder.appendingPathComponent("atlas.json"))
        try Data(AnimateFixture.tinyPNG).write(to: folder.appendingPathComponent("sheet.png"))
        return try Importer.importDocument(at: folder)
    }

    func shownSprites(_ document: Document) -> [String] {
        document.compositions[0].nodes.filter { $0.kind == .slot }.map { node in
            if case .sprite(let id)? = node.tracks.content?.keyframes.first?.value { return id }
            return "-"
        }
    }

    func testImageExtensionIsDroppedAsTexturePackerLoadersDo() throws {
        let document = try convert(displays: ["parts/armL", "head", "v1.2/leg"],
                                   filenames: ["parts/armL.png", "head.webp", "v1.2/leg.jpeg"])
        XCTAssertEqual(document.assets.sprites.map(\.id), ["parts/armL", "head", "v1.2/leg"])
        XCTAssertEqual(shownSprites(document), ["parts/armL", "head", "v1.2/leg"])
        XCTAssertFalse(document.diagnostics.contains { $0.severity == .warning }, "\(document.diagnostics)")
    }

    func testAFolderPrefixIsBridgedOnlyWhenUnambiguousAndEveryPairingIsNamed() throws {
        let document = try convert(displays: ["armL", "armR", "hand", "head"],
                                   filenames: ["parts/armL.png", "parts/deep/armR.png", "a/hand.png", "b/hand.png"])
        XCTAssertEqual(shownSprites(document), ["parts/armL", "parts/deep/armR", "-", "-"])
        let paired = try XCTUnwrap(document.diagnostics.first { $0.code == "texture-paired-by-folder" })
        XCTAssertEqual(paired.severity, .warning)
        XCTAssertTrue(paired.message.contains(#""armL" → "parts/armL""#), paired.message)
        XCTAssertTrue(paired.message.contains(#""armR" → "parts/deep/armR""#), paired.message)
        let ambiguous = try XCTUnwrap(document.diagnostics.first { $0.code == "texture-pairing-ambiguous" })
        XCTAssertTrue(ambiguous.message.contains(#""hand" ("a/hand", "b/hand")"#), ambiguous.message)
        let missing = try XCTUnwrap(document.diagnostics.first { $0.code == "textures-missing" })
        XCTAssertTrue(missing.message.hasPrefix("2 of 4 image/mesh display(s) have no texture"), missing.message)
        XCTAssertTrue(missing.message.contains(#""hand", "head""#), missing.message)
    }

    func testAnExactNameWinsOverAFolderMatch() throws {
        let document = try convert(displays: ["armL"], filenames: ["parts/armL.png", "armL.png"])
        XCTAssertEqual(shownSprites(document), ["armL"])
        XCTAssertFalse(document.diagnostics.contains { $0.code == "texture-paired-by-folder" })
    }
}
