import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeJSON
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// DragonBones names written as JSON numbers (and Booleans): the runtime reads every name with `String(value)`, so
/// they are ordinary names. Expected values come from DragonBonesJS 5.7 run on these very files with
/// `../shared/tools/oracles/db_oracle.js` (names "7", "1", "10", "1.5", "true"; IK on bones "2"/"3").
final class DragonBonesNumericNameTests: XCTestCase {
    /// A 5.5 skeleton whose every name-like field is a number: armature, bones and parents, slots and parents, IK
    /// bone and target, skin, displays and their paths, animation, bone and slot timelines; one slot is `true`.
    static let modern = #"""
    {"name":5,"version":"5.5","frameRate":24,"armature":[{"name":7,"type":"Armature","frameRate":24,
     "bone":[{"name":1},{"name":2,"parent":1,"transform":{"x":10}},{"name":3,"parent":2,"transform":{"x":10}},{"name":4,"parent":1,"transform":{"x":20,"y":5}}],
     "slot":[{"name":8,"parent":2},{"name":true,"parent":3}],
     "ik":[{"name":6,"bone":3,"target":4,"chain":1}],
     "skin":[{"name":0,"slot":[{"name":8,"display":[{"name":10,"path":10},{"name":1.5}]},{"name":true,"display":[{"name":10}]}]}],
     "animation":[{"name":1,"duration":4,"playTimes":0,
       "bone":[{"name":2,"translateFrame":[{"duration":4,"tweenEasing":0,"x":0},{"duration":0,"x":8}]}],
       "slot":[{"name":8,"displayFrame":[{"duration":2,"value":0},{"duration":2,"value":1}]}]}]}]}
    """#
    static let atlas = #"{"name":5,"imagePath":"n_tex.png","width":8,"height":8,"SubTexture":[{"name":10,"x":0,"y":0,"width":4,"height":4},{"name":1.5,"x":4,"y":0,"width":4,"height":4}]}"#

    /// The same figure in 2.3 form (global transforms, displays in the skin, `timeline` per bone).
    static let legacy = #"""
    {"name":5,"version":2.3,"frameRate":24,"armature":[{"name":7,
     "bone":[{"name":1,"transform":{"x":0,"y":0,"skX":0,"skY":0,"scX":1,"scY":1}},{"name":2,"parent":1,"transform":{"x":10,"y":0,"skX":0,"skY":0,"scX":1,"scY":1}}],
     "skin":[{"name":0,"slot":[{"name":8,"parent":2,"z":0,"display":[{"name":10,"type":"image","transform":{"x":0,"y":0,"skX":0,"skY":0,"scX":1,"scY":1,"pX":2,"pY":2}}]}]}],
     "animation":[{"name":1,"duration":4,"loop":0,"timeline":[
       {"name":2,"scale":1,"offset":0,"frame":[{"duration":4,"tweenEasing":0,"transform":{"x":10,"y":0,"skX":0,"skY":0,"scX":1,"scY":1}},{"duration":0,"transform":{"x":18,"y":0,"skX":0,"skY":0,"scX":1,"scY":1}}]},
       {"name":1,"scale":1,"offset":0,"frame":[{"duration":4,"transform":{"x":0,"y":0,"skX":0,"skY":0,"scX":1,"scY":1}}]},
       {"name":8,"scale":1,"offset":0,"frame":[{"duration":4,"displayIndex":0,"transform":{"x":0,"y":0,"skX":0,"skY":0,"scX":1,"scY":1}}]}]}]}]}
    """#

    func convert(_ skeleton: String) throws -> Document {
        let folder = try TestPaths.temporaryFolder("keyframe-db-numeric-names")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        try Data(skeleton.utf8).write(to: folder.appendingPathComponent("n_ske.json"))
        try Data(Self.atlas.utf8).write(to: folder.appendingPathComponent("n_tex.json"))
        try Data(AnimateFixture.tinyPNG).write(to: folder.appendingPathComponent("n_tex.png"))
        return try Importer.importDocument(at: folder.appendingPathComponent("n_ske.json"))
    }

    func testModernNamesThatAreNumbersReadAsTheRuntimeReadsThem() throws {
        let document = try convert(Self.modern)
        XCTAssertEqual(document.clips.map(\.name), ["1"])
        XCTAssertEqual(Set(document.assets.sprites.map(\.id)), ["10", "1.5"])
        let composition = try XCTUnwrap(document.composition("7/1"))
        let sampler = PoseSampler(document: document)
        func states(_ frame: Double) -> [String: Pose.NodeState] {
            var states: [String: Pose.NodeState] = [:]
            for state in sampler.sample(composition: composition.id, frame: Frames(frame), collectNodes: true).nodes {
                states[state.path] = state
            }
            return states
        }
        // DragonBonesJS: bone "3" at frame 0 is at (18.944272, 4.472136) after the IK on "2"; slot "8" shows
        // texture "10" at frame 0 and "1.5" at frame 3, on bone "2" whose matrix is then
        // (0.624695, 0.780869, …, 16, 0).
        let first = states(0), last = states(3)
        let bone3 = try XCTUnwrap(first["7/1/bone:3"]?.transform)
        assertClose(bone3.tx, 18.944272, tolerance: 1e-4)
        assertClose(bone3.ty, 4.472136, tolerance: 1e-4)
        XCTAssertEqual(first["7/1/slot:8"]?.content, .sprite("10"))
        XCTAssertEqual(first["7/1/slot:true"]?.content, .sprite("10"))
        XCTAssertEqual(last["7/1/slot:8"]?.content, .sprite("1.5"))
        let bone2 = try XCTUnwrap(last["7/1/bone:2"]?.transform)
        assertClose(bone2.a, 0.624695, tolerance: 1e-4)
        assertClose(bone2.b, 0.780869, tolerance: 1e-4)
        assertClose(bone2.tx, 16, tolerance: 1e-4)
        XCTAssertFalse(document.diagnostics.contains { $0.code == "missing-texture" }, "\(document.diagnostics)")
    }

    func testLegacyNamesThatAreNumbersReadAsTheToolsReadThem() throws {
        let document = try convert(Self.legacy)
        XCTAssertEqual(document.clips.map(\.name), ["1"])
        let sampler = PoseSampler(document: document)
        let pose = sampler.sample(composition: "7/1", frame: Frames(2), collectNodes: true)
        let bone = try XCTUnwrap(pose.nodes.first { $0.path == "7/1/bone:2" })
        assertClose(bone.transform.tx, 14, tolerance: 1e-4)
        XCTAssertEqual(pose.nodes.first { $0.path == "7/1/slot:8" }?.content, .sprite("10"))
    }

    func testNamesThatAreObjectsAreStillAnErrorWithTheirPath() throws {
        let broken = Self.modern.replacingOccurrences(of: #"{"name":1,"duration":4"#, with: #"{"name":{"a":1},"duration":4"#)
        XCTAssertThrowsError(try convert(broken)) { error in
            XCTAssertTrue("\(error)".contains("armature[0].animation[0].name"), "\(error)")
        }
    }

    func testJavaScriptNumberText() {
        let cases: [(Double, String)] = [
            (1, "1"), (-3, "-3"), (1.5, "1.5"), (0.1, "0.1"), (-0.0, "0"), (100, "100"), (1e21, "1e+21"),
            (123456789012345680000, "123456789012345680000"), (0.000001, "0.000001"), (0.0000001, "1e-7"),
            (1.5e-10, "1.5e-10"), (2.5e+25, "2.5e+25"), (.nan, "NaN"), (-.infinity, "-Infinity"), (1.0 / 3, "0.3333333333333333"),
        ]
        for (number, text) in cases { XCTAssertEqual(JSONCursor.javaScriptText(of: number), text, "\(number)") }
    }
}
