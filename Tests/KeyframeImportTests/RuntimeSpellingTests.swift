import Foundation
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Spellings the runtimes accepted: a `_tex.dbjson` atlas, a 2012 Flump texture with neither origin nor offset;
/// and a `.dbbin` beside a JSON skeleton that is not its twin.
final class RuntimeSpellingTests: XCTestCase {
    static let waver = TestPaths.packageRoot.appendingPathComponent("Samples/dragonbones-waver")

    func testDBJSONAtlasIsPairedLikeAJSONOne() throws {
        let folder = try TestPaths.temporaryFolder("keyframe-dbjson")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let copies = ["waver_ske.json": "Hero_ske.dbjson", "waver_tex.json": "Hero_tex.dbjson", "waver_tex.png": "Hero_tex.png"]
        for (from, to) in copies {
            try FileManager.default.copyItem(at: Self.waver.appendingPathComponent(from), to: folder.appendingPathComponent(to))
        }
        // The atlas names its image `waver_tex.png`; rename it so the atlas's own name is used.
        var atlas = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("Hero_tex.dbjson"))) as! [String: Any]
        atlas["imagePath"] = nil
        try JSONSerialization.data(withJSONObject: atlas).write(to: folder.appendingPathComponent("Hero_tex.dbjson"))
        let document = try Importer.importDocument(at: folder)
        XCTAssertEqual(document.source.files, ["Hero_ske.dbjson", "Hero_tex.dbjson", "Hero_tex.png"])
        let reference = try Importer.importDocument(at: Self.waver)
        XCTAssertEqual(document.compositions, reference.compositions)
    }

    func testFlump2012TextureWithoutOriginSitsAtItsCorner() throws {
        let library = #"{"md5":"x","movies":[{"symbol":"m","layers":[{"name":"l","keyframes":[{"duration":2,"ref":"a","loc":[5,6]}]}]}],"atlases":[{"file":"atlas0.png","textures":[{"name":"a","rect":[0,0,2,2],"md5":"z"}]}]}"#
        let document = try Importer.importDocument(at: try FlumpFixture(library, file: "resources.json").folder)
        XCTAssertEqual(document.assets.sprites.first?.origin, .zero)
        let note = try XCTUnwrap(document.diagnostics.first { $0.code == "texture-origin-missing" })
        XCTAssertEqual(note.severity, .info)
        XCTAssertEqual(note.path, "atlases[0].textures[0]")
    }

    private func mecha() throws -> URL {
        guard let source = try TestPaths.corpus("dragonbones").first(where: { $0.lastPathComponent == "db5.5-mecha1406-with-dbbin" })
        else { throw XCTSkip("db5.5-mecha1406-with-dbbin missing from ../shared/corpus") }
        let folder = try TestPaths.temporaryFolder("keyframe-twin")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where name != "SOURCE.txt" {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        return folder
    }

    func testARealTwinIsNotedAsTheSame() throws {
        let document = try Importer.importDocument(at: try mecha())
        XCTAssertEqual(document.diagnostics.filter { $0.code.hasPrefix("dbbin") }.map(\.code), ["dbbin-not-read"])
        XCTAssertFalse(document.diagnostics.contains { $0.code == "dbbin-twin-differs" })
    }

    func testATwinThatDiffersIsSaidAndPreferChooses() throws {
        let folder = try mecha()
        let json = folder.appendingPathComponent("mecha_1406_ske.json")
        let text = try String(contentsOf: json, encoding: .utf8)
        try text.replacingOccurrences(of: #""name":"idle""#, with: #""name":"rest""#).write(to: json, atomically: true, encoding: .utf8)
        XCTAssertNotEqual(try String(contentsOf: json, encoding: .utf8), text, "the fixture edit did not apply")
        let document = try Importer.importDocument(at: folder)
        let warning = try XCTUnwrap(document.diagnostics.first { $0.code == "dbbin-twin-differs" }, "\(document.diagnostics)")
        XCTAssertEqual(warning.severity, .warning)
        XCTAssert(warning.message.contains("mecha_1406_ske.json and mecha_1406_ske.dbbin are not the same skeleton"), warning.message)
        XCTAssert(warning.message.contains(#""rest""#) && warning.message.contains(#""idle""#), warning.message)
        XCTAssert(warning.message.contains("--prefer binary"), warning.message)
        XCTAssert(document.source.files.contains("mecha_1406_ske.json"))
        XCTAssert(document.clips.contains { $0.name == "rest" })
        let binary = try Importer.importDocument(at: folder, options: ImportOptions(prefer: .binary))
        XCTAssertEqual(binary.source.files.first, "mecha_1406_ske.dbbin")
        XCTAssert(binary.clips.contains { $0.name == "idle" })
        XCTAssert(binary.diagnostics.contains { $0.code == "dbbin-twin-differs" && $0.message.contains("--prefer json") })
    }
}
