import Foundation
import KeyframeImport
import KeyframeJSON
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// One depth and size budget for the model (trust trial, class 2): a DragonBones bone chain deeper than
/// ``ModelLimits/maximumNesting`` is refused with a located error, in time linear in the bones, whatever the order
/// the bones are listed in; a normalized document's node chains and node counts have the same budget. Before: a
/// chain of N bones cost quadratic time and memory (20,000 bones: 47 s and 3.3 GB) and 100,000 never finished.
final class ModelBudgetTests: XCTestCase {
    /// A DragonBones skeleton whose bones form one chain of `count` (listed parent first, or child first).
    func chain(_ count: Int, childFirst: Bool = false) -> [String: [UInt8]] {
        var bones: [String] = []
        bones.reserveCapacity(count)
        for index in 0..<count {
            bones.append(index == 0 ? #"{"name":"b0"}"# : #"{"name":"b\#(index)","parent":"b\#(index - 1)"}"#)
        }
        if childFirst { bones.reverse() }
        let skeleton = #"{"name":"c","version":"5.5","frameRate":24,"armature":[{"name":"c","type":"Armature","bone":["#
            + bones.joined(separator: ",") + #"],"slot":[],"skin":[],"animation":[{"name":"a","duration":1}]}]}"#
        return ["c_ske.json": Array(skeleton.utf8), "c_tex.json": Self.atlas]
    }

    /// The texture atlas beside every skeleton here.
    static let atlas = Array(#"{"name":"c","imagePath":"c_tex.png","width":8,"height":8,"SubTexture":[{"name":"x","x":0,"y":0,"width":1,"height":1}]}"#.utf8)

    func importError(_ files: [String: [UInt8]]) -> String? {
        do {
            _ = try Importer.importDocument(files: files, main: "c_ske.json", options: ImportOptions(allowMissingImages: true))
            return nil
        } catch {
            return "\(error)"
        }
    }

    func testADeepBoneChainIsRefusedWithALocatedErrorInLinearTime() throws {
        let started = Date()
        XCTAssertEqual(importError(chain(100_000)),
                       "c_ske.json: at armature[0].bone[256].parent: bone \"b256\" is nested more than 256 bones deep")
        XCTAssertEqual(importError(chain(100_000, childFirst: true)),
                       "c_ske.json: at armature[0].bone[0].parent: bone \"b99999\" is nested more than 256 bones deep")
        let seconds = Date().timeIntervalSince(started)
        print("ModelBudgetTests: two 100,000-bone chains refused in \(seconds) s")
        // Generous for a debug build on a shared machine; the quadratic walk took minutes.
        XCTAssertLessThan(seconds, 20)
    }

    func testChainsWithinTheBudgetConvertInEitherOrder() throws {
        for childFirst in [false, true] {
            XCTAssertNil(importError(chain(ModelLimits.maximumNesting, childFirst: childFirst)))
            XCTAssertNotNil(importError(chain(ModelLimits.maximumNesting + 1, childFirst: childFirst)))
        }
    }

    func testABoneCycleIsStillReportedWithItsChain() throws {
        let skeleton = #"{"name":"c","version":"5.5","frameRate":24,"armature":[{"name":"c","type":"Armature","bone":["#
            + #"{"name":"a","parent":"c"},{"name":"b","parent":"a"},{"name":"c","parent":"b"}],"slot":[],"skin":[],"#
            + #""animation":[{"name":"a","duration":1}]}]}"#
        let error = try XCTUnwrap(importError(["c_ske.json": Array(skeleton.utf8), "c_tex.json": Self.atlas]))
        XCTAssertTrue(error.contains("bone cycle: a → c → b → a"), error)
    }

    /// A normalized document: the same budget for node chains, with the JSON path of the node that goes too deep.
    func testANormalizedDocumentsNodeChainHasTheSameBudget() throws {
        let walker = TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker")
        let base = try Importer.importDocument(at: walker)
        func document(depth: Int) -> Document {
            var document = base
            let index = document.compositions.firstIndex { $0.id == document.root }!
            for level in 0..<depth {
                document.compositions[index].nodes.append(
                    Node(id: "chain\(level)", name: "chain", kind: .layer, parent: level == 0 ? nil : "chain\(level - 1)"))
            }
            return document
        }
        XCTAssertThrowsError(try document(depth: 300).validate()) { error in
            XCTAssertTrue("\(error)".contains(".parent"), "\(error)")
            XCTAssertTrue("\(error)".contains("is nested more than 256 nodes deep"), "\(error)")
        }
        XCTAssertNoThrow(try document(depth: 200).validate())
        // Read back from its JSON, the same refusal.
        let bytes = document(depth: 300).jsonBytes()
        XCTAssertThrowsError(try Document(jsonBytes: bytes).validate())
    }
}
