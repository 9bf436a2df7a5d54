import Foundation
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Bad DragonBones input gets a clear error naming the file and the JSON path (or line and column), never a crash,
/// a hang or a partial document; features that are not converted become diagnostics that name them.
final class DragonBonesBadInputTests: XCTestCase {
    static let atlas = #"{"imagePath":"t_tex.png","SubTexture":[{"name":"a","x":0,"y":0,"width":1,"height":1}]}"#

    /// A skeleton built from an armature body (bones, slots, skin, animations as JSON members).
    static func skeleton(_ armature: String, version: String = "5.5") -> String {
        #"{"name":"t","version":"\#(version)","frameRate":24,"armature":[{"name":"arm",\#(armature)}]}"#
    }

    static let good = #""bone":[{"name":"root"},{"name":"b","parent":"root","transform":{"x":3}}],"slot":[{"name":"s","parent":"b"}],"skin":[{"slot":[{"name":"s","display":[{"name":"a"}]}]}],"animation":[{"name":"go","duration":2,"bone":[{"name":"b","translateFrame":[{"duration":2,"tweenEasing":0,"x":0},{"duration":0,"x":10}]}]}]"#

    /// Writes `t_ske.json`, the atlas and its image into a new folder.
    func fixture(_ skeleton: String, atlas: String? = atlas, image: Bool = true) throws -> URL {
        let folder = try TestPaths.temporaryFolder("keyframe-db-bad")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        try Data(skeleton.utf8).write(to: folder.appendingPathComponent("t_ske.json"))
        if let atlas { try Data(atlas.utf8).write(to: folder.appendingPathComponent("t_tex.json")) }
        if image { try Data(AnimateFixture.tinyPNG).write(to: folder.appendingPathComponent("t_tex.png")) }
        return folder
    }

    func importError(_ folder: URL, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            _ = try Importer.importDocument(at: folder)
            XCTFail("import should have failed", file: file, line: line)
            return ""
        } catch {
            return "\(error)"
        }
    }

    func testTheGoodFixtureConverts() throws {
        let document = try Importer.importDocument(at: try fixture(Self.skeleton(Self.good)))
        XCTAssertEqual(document.clips.map(\.name), ["go"])
        XCTAssertEqual(document.compositions[0].nodes.map(\.id), ["bone:root", "bone:b", "slot:s"])
        XCTAssertEqual(document.diagnostics, [])
    }

    func testInvalidJSONNamesFileLineAndColumn() throws {
        let error = importError(try fixture("{\"name\":\"t\",\n\"version\":\"5.5\",\n\"armature\" []}"))
        XCTAssert(error.hasPrefix("t_ske.json:3:12: invalid JSON"), error)
    }

    func testInvalidAtlasJSONNamesThatFile() throws {
        let error = importError(try fixture(Self.skeleton(Self.good), atlas: "{\"SubTexture\":[}"))
        XCTAssert(error.hasPrefix("t_tex.json:1:16: invalid JSON"), error)
    }

    func testUnsupportedVersionIsNamed() throws {
        let error = importError(try fixture(Self.skeleton(Self.good, version: "9.1")))
        XCTAssert(error.contains("version \"9.1\" is not supported"), error)
    }

    func testWrongTypeReportsJSONPath() throws {
        let body = Self.good.replacingOccurrences(of: #""transform":{"x":3}"#, with: #""transform":{"x":"three"}"#)
        XCTAssertEqual(importError(try fixture(Self.skeleton(body))),
                       "t_ske.json: at armature[0].bone[1].transform.x: expected a number, found string")
    }

    func testDanglingParentIsReported() throws {
        let body = Self.good.replacingOccurrences(of: #""parent":"root""#, with: #""parent":"hip""#)
        XCTAssertEqual(importError(try fixture(Self.skeleton(body))),
                       "t_ske.json: at armature[0].bone[1].parent: bone \"b\" names an unknown parent \"hip\"")
    }

    func testBoneCycleIsReportedWithItsChain() throws {
        let body = Self.good.replacingOccurrences(of: #"{"name":"root"}"#, with: #"{"name":"root","parent":"b"}"#)
        let error = importError(try fixture(Self.skeleton(body)))
        XCTAssert(error.contains("bone cycle: root → b → root"), error)
    }

    func testSlotOnUnknownBoneIsReported() throws {
        let body = Self.good.replacingOccurrences(of: #""slot":[{"name":"s","parent":"b"}]"#,
                                                  with: #""slot":[{"name":"s","parent":"nope"}]"#)
        XCTAssertEqual(importError(try fixture(Self.skeleton(body))),
                       "t_ske.json: at armature[0].slot[0].parent: slot \"s\" names an unknown bone \"nope\"")
    }

    func testMissingAtlasAndMissingImageAreNamed() throws {
        let noAtlas = importError(try fixture(Self.skeleton(Self.good), atlas: nil))
        XCTAssert(noAtlas.contains("no texture atlas next to it (a JSON file with a SubTexture list, such as t_tex.json)"),
                  noAtlas)
        let noImage = importError(try fixture(Self.skeleton(Self.good), image: false))
        XCTAssert(noImage.contains("t_tex.png") && noImage.contains("not found"), noImage)
    }

    func testMissingTextureIsADiagnosticNamingIt() throws {
        let body = Self.good.replacingOccurrences(of: #"{"name":"a"}"#, with: #"{"name":"ghost"}"#)
        let document = try Importer.importDocument(at: try fixture(Self.skeleton(body)))
        let diagnostic = try XCTUnwrap(document.diagnostics.first { $0.code == "missing-texture" })
        XCTAssert(diagnostic.message.contains("\"ghost\""), diagnostic.message)
        XCTAssertEqual(diagnostic.path, "armature[0].skin[0].slot[0].display[0]")
        XCTAssertEqual(document.compositions[0].nodes[2].tracks.content?.keyframes.first?.value, NodeContent.none)
    }

    /// A slot that animations leave alone has its tracks made once per armature; each animation still reports
    /// what making them reported, so counts are per animation as before.
    func testASlotNoAnimationChangesReportsItsWarningInEveryAnimation() throws {
        let bone = #"{"name":"b","translateFrame":[{"duration":2,"tweenEasing":0,"x":0},{"duration":0,"x":10}]}"#
        let animations = [
            #"{"name":"walk","duration":2,"bone":[\#(bone)]}"#,
            #"{"name":"again","duration":4,"bone":[\#(bone)]}"#,
            #"{"name":"shown","duration":2,"slot":[{"name":"s","displayFrame":[{"duration":1,"value":0},{"duration":1,"value":-1}]}]}"#,
        ]
        let body = Self.good.replacingOccurrences(of: #"{"name":"a"}"#, with: #"{"name":"ghost"},{"name":"a"}"#)
            .replacingOccurrences(of: #""animation":["#, with: #""animation":[\#(animations.joined(separator: ",")),"#)
        let document = try Importer.importDocument(at: try fixture(Self.skeleton(body)))
        XCTAssertEqual(document.clips.map(\.name), ["walk", "again", "shown", "go"])
        let missing = try XCTUnwrap(document.diagnostics.first { $0.code == "missing-texture" })
        // Once in each of the three animations that leave the slot alone, once at the first key of the one that does.
        XCTAssertEqual(missing.count, 4)
        XCTAssertEqual(missing.path, "armature[0].skin[0].slot[0].display[0]")
        func slot(_ clip: String) throws -> Node {
            let id = try XCTUnwrap(document.clips.first { $0.name == clip }).composition
            return try XCTUnwrap(document.compositions.first { $0.id == id }?.nodes.first { $0.id == "slot:s" })
        }
        XCTAssertEqual(try slot("walk"), try slot("again"))
        XCTAssertEqual(try slot("walk"), try slot("go"))
        XCTAssertEqual(try slot("walk").tracks.content?.keyframes.map(\.value), [NodeContent.none])
        XCTAssertEqual(try slot("shown").tracks.content?.keyframes.map(\.value), [NodeContent.none])
    }

    /// DragonBonesJS keeps the first of two animations (or armatures) with one name and warns about the other;
    /// so does the import, instead of failing on two compositions with one id.
    func testARepeatedAnimationOrArmatureNameKeepsTheFirstWithAWarning() throws {
        let longer = #"{"name":"go","duration":9,"bone":[{"name":"b","translateFrame":[{"duration":9,"x":5}]}]}"#
        let body = Self.good.replacingOccurrences(of: #""x":10}]}]}]"#, with: #""x":10}]}]},\#(longer)]"#)
        let document = try Importer.importDocument(at: try fixture(Self.skeleton(body)))
        XCTAssertEqual(document.clips.map(\.name), ["go"])
        XCTAssertEqual(document.clips[0].duration, Frames(3), "the first animation, 2 frames played once")
        let animation = try XCTUnwrap(document.diagnostics.first { $0.code == "duplicate-animation" })
        XCTAssertEqual(animation.path, "armature[0].animation[1]")
        XCTAssert(animation.message.contains("\"go\""), animation.message)

        let twice = #"{"name":"t","version":"5.5","frameRate":24,"armature":[{"name":"arm",\#(Self.good)},{"name":"arm","bone":[{"name":"other"}]}]}"#
        let both = try Importer.importDocument(at: try fixture(twice))
        XCTAssertEqual(both.compositions.map(\.id), ["arm/go"])
        XCTAssertEqual(both.diagnostics.first { $0.code == "duplicate-armature" }?.path, "armature[1]")
    }

    func testBadMeshTrianglesAndWeightsReportTheirPath() throws {
        let mesh = #"{"name":"a","type":"mesh","vertices":[0,0,1,0,0,1],"uvs":[0,0,1,0,0,1],"triangles":[0,1,7]}"#
        let body = Self.good.replacingOccurrences(of: #"{"name":"a"}"#, with: mesh)
        XCTAssertEqual(importError(try fixture(Self.skeleton(body))),
                       "t_ske.json: at armature[0].skin[0].slot[0].display[0].triangles: triangle indices must name vertices 0..<3")
        let weighted = #"{"name":"a","type":"mesh","vertices":[0,0,1,0,0,1],"uvs":[0,0,1,0,0,1],"triangles":[0,1,2],"weights":[1,0,1,1,0],"bonePose":[0,1,0,0,1,0,0]}"#
        let body2 = Self.good.replacingOccurrences(of: #"{"name":"a"}"#, with: weighted)
        let error = importError(try fixture(Self.skeleton(body2)))
        XCTAssert(error.hasPrefix("t_ske.json: at armature[0].skin[0].slot[0].display[0].weights:"), error)
    }

    func testHugeDurationIsALimitNotAHang() throws {
        let body = Self.good.replacingOccurrences(of: #""duration":2,"tweenEasing":0"#, with: #""duration":1e9,"tweenEasing":0"#)
        let error = importError(try fixture(Self.skeleton(body)))
        XCTAssert(error.contains("translateFrame[0].duration") && error.contains("outside"), error)
    }

    func testWildNumbersAreErrorsNotTraps() throws {
        for (from, to, path) in [
            (#""slot":[{"name":"s","parent":"b"}]"#, #""slot":[{"name":"s","parent":"b","displayIndex":1e300}]"#,
             "armature[0].slot[0].displayIndex"),
            (#""name":"go","duration":2"#, #""name":"go","duration":1e12"#, "armature[0].animation[0].duration"),
            (#""name":"go","duration":2"#, #""name":"go","duration":2,"playTimes":-1e200"#, "armature[0].animation[0].playTimes"),
        ] {
            let error = importError(try fixture(Self.skeleton(Self.good.replacingOccurrences(of: from, with: to))))
            XCTAssert(error.hasPrefix("t_ske.json: at \(path):"), error)
        }
        let weights = #"{"name":"a","type":"mesh","vertices":[0,0,1,0,0,1],"uvs":[0,0,1,0,0,1],"triangles":[0,1,2],"weights":[1e300,0,1,1,0,1,1,0,1],"bonePose":[0,1,0,0,1,0,0]}"#
        let error = importError(try fixture(Self.skeleton(Self.good.replacingOccurrences(of: #"{"name":"a"}"#, with: weights))))
        XCTAssert(error.contains("weights") && error.contains("bones"), error)
        // A zero animation scale is read as 1 (the runtime would divide by it).
        let zero = Self.good.replacingOccurrences(of: #""name":"go","duration":2"#, with: #""name":"go","duration":2,"scale":0"#)
        XCTAssertEqual(try Importer.importDocument(at: try fixture(Self.skeleton(zero))).clips.first?.duration.value, 3)
    }

    func testArmatureDisplayCycleIsReported() throws {
        let body = Self.good.replacingOccurrences(of: #"{"name":"a"}"#, with: #"{"name":"arm","type":"armature"}"#)
        XCTAssert(importError(try fixture(Self.skeleton(body))).contains("cycle: arm → arm"))
    }

    func testBrokenBinaryDataIsRefusedByName() throws {
        let folder = try fixture(Self.skeleton(Self.good))
        let binary = folder.appendingPathComponent("t_ske.dbbin")
        for bytes: [UInt8] in [[0x44, 0x42, 0x44, 0x54], Array("DBDT\0\0\0\u{1}".utf8) + [200, 0, 0, 0] + Array("{}".utf8),
                               Array("XXXX\0\0\0\u{1}".utf8) + [2, 0, 0, 0] + Array("{}".utf8)] {
            try Data(bytes).write(to: binary)
            do {
                _ = try Importer.importDocument(at: binary)
                XCTFail("a broken .dbbin file should be refused")
            } catch {
                XCTAssert("\(error)".hasPrefix("t_ske.dbbin"), "\(error)")
            }
        }
        // Next to the JSON, the binary twin is noted but the JSON is converted.
        let document = try Importer.importDocument(at: folder)
        XCTAssertEqual(document.diagnostics.map(\.code), ["dbbin-not-read"])
    }

    func testConstraintListsReadIKAndReportPathConstraints() throws {
        let body = Self.good.replacingOccurrences(
            of: #""slot":[{"name":"s","parent":"b"}]"#,
            with: #""constraint":[{"type":"ik","name":"k","bone":"b","target":"root"},{"type":"path","name":"p"}],"slot":[{"name":"s","parent":"b"}]"#)
        let document = try Importer.importDocument(at: try fixture(Self.skeleton(body, version: "5.6")))
        XCTAssertEqual(document.compositions[0].ik.map(\.bone), ["bone:b"])
        let diagnostic = try XCTUnwrap(document.diagnostics.first { $0.code == "path-not-supported" })
        XCTAssertEqual(diagnostic.path, "armature[0].constraint")
    }

    func testUnconvertedFeaturesBecomeDiagnostics() throws {
        let body = Self.good
            .replacingOccurrences(of: #"{"name":"a"}"#, with: #"{"name":"a"},{"name":"hit","type":"boundingBox"}"#)
            .replacingOccurrences(of: #""duration":0,"x":10}"#, with: #""duration":0,"x":10,"event":"step"}"#)
        let document = try Importer.importDocument(at: try fixture(Self.skeleton(body)))
        XCTAssertEqual(Set(document.diagnostics.map(\.code)), ["events-not-converted"])
        let withBox = body.replacingOccurrences(of: #""slot":[{"name":"s","parent":"b"}]"#,
                                                with: #""slot":[{"name":"s","parent":"b","displayIndex":1}]"#)
        let boxed = try Importer.importDocument(at: try fixture(Self.skeleton(withBox)))
        XCTAssert(boxed.diagnostics.contains { $0.code == "bounding-box-not-drawn" }, "\(boxed.diagnostics)")
    }
}
