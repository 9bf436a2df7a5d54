import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// `AN.STI` is applied as FlxAnimate applies it: the symbol is drawn through the stage instance — its matrix, colour
/// effect and filters — as the root element (format.md §6.1).
final class AnimateStageInstanceTests: XCTestCase {
    static let symbols = #"{"SN":"dot","TL":{"L":[{"LN":"a","FR":[{"I":0,"DU":1,"E":[{"ASI":{"N":"0000","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,-1,-2,0,1]}}]}]}]}}"#
    /// Two labelled frames with the `dot` symbol moving and turning.
    static let frames = """
        [{"I":0,"DU":2,"N":"one","E":[{"SI":{"SN":"dot","ST":"G","FF":0,"LP":"LP","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,10,20,0,1]}}]},
         {"I":2,"DU":2,"N":"two","E":[{"SI":{"SN":"dot","ST":"G","FF":0,"LP":"LP","M3D":[0,1,0,0,-1,0,0,0,0,0,1,0,30,5,0,1]}}]}]
        """

    /// An export whose `AN` carries `stageInstance` (JSON text of the `STI` value), or none.
    func document(stageInstance: String?) throws -> Document {
        var animation = AnimateFixture.animation(frames: Self.frames, symbols: Self.symbols)
        if let stageInstance {
            animation = animation.replacingOccurrences(of: #"{"AN":{"N":"fixture","#,
                                                       with: #"{"AN":{"N":"fixture","STI":\#(stageInstance),"#)
        }
        let fixture = try AnimateFixture(animation: animation)
        return try Importer.importDocument(at: fixture.folder)
    }

    /// The sprites drawn at `frame` of the clip named `clip`.
    func items(_ document: Document, clip: String, frame: Double) throws -> [Pose.Item] {
        let chosen = try XCTUnwrap(document.clip(named: clip))
        return PoseSampler(document: document).sample(clip: chosen, time: Frames(frame)).items
    }

    func testTheStageInstancesMatrixColourAndFiltersWrapTheSymbol() throws {
        // A turned, scaled, moved placement about its transformation point, a tint and a glow.
        let matrix = Matrix2D(a: 0.8, b: 0.6, c: -1.2, d: 1.6, tx: 300, ty: -40)
        let sti = """
            {"SI":{"SN":"root","IN":"hero","ST":"G","FF":3,"LP":"PO","TRP":{"x":12.5,"y":-7},
             "M3D":[0.8,0.6,0,0,-1.2,1.6,0,0,0,0,1,0,300,-40,0,1],
             "C":{"M":"T","TC":"#FF0000","TM":0.5},
             "F":{"GF":{"BLX":4,"BLY":4,"C":"#FFFFFF","A":1,"Q":1,"STR":2,"KK":false,"IN":false}}}}
            """
        let placed = try document(stageInstance: sti)
        let plain = try document(stageInstance: nil)
        XCTAssertFalse(placed.diagnostics.contains { $0.code.hasPrefix("stage-instance") }, "\(placed.diagnostics)")

        // The root is a composition showing the symbol through one node.
        XCTAssertEqual(placed.root, "root (stage)")
        let wrapper = try XCTUnwrap(placed.compositions.first)
        XCTAssertEqual(wrapper.id, placed.root, "the root comes first")
        XCTAssertEqual(wrapper.duration, Frames(4))
        XCTAssertEqual(wrapper.nodes.map(\.id), ["stage"])
        XCTAssertEqual(wrapper.nodes[0].name, "hero")
        XCTAssertEqual(wrapper.nodes[0].tracks.content?.keyframes.map(\.value), [.composition(CompositionInstance(
            composition: "root", firstFrame: .zero, loop: .loop, clock: .parent))])
        XCTAssertEqual(wrapper.nodes[0].tracks.filters?.keyframes.first?.value.map(\.kind), ["glow"])
        XCTAssertEqual(placed.clips.map(\.name), plain.clips.map(\.name))
        XCTAssertTrue(placed.clips.allSatisfy { $0.composition == placed.root })
        XCTAssertEqual(placed.clips.map(\.start), plain.clips.map(\.start))
        XCTAssertEqual(placed.clips.map(\.duration), plain.clips.map(\.duration))

        // Every sprite is where FlxAnimate draws it: the stage instance's matrix after the symbol's own placement,
        // tinted by its colour effect; frame for frame (the instance's FF and LP do not shift the clips).
        for (clip, frame) in [("one", 0.0), ("one", 1), ("two", 0), ("two", 1), ("fixture", 3)] {
            let inside = try items(plain, clip: clip, frame: frame)
            let outside = try items(placed, clip: clip, frame: frame)
            XCTAssertEqual(outside.count, inside.count)
            for (a, b) in zip(outside, inside) {
                XCTAssertEqual(a.sprite, b.sprite)
                let expected = matrix.concatenating(b.transform)
                for (x, y) in [(a.transform.a, expected.a), (a.transform.b, expected.b), (a.transform.c, expected.c),
                               (a.transform.d, expected.d), (a.transform.tx, expected.tx), (a.transform.ty, expected.ty)] {
                    XCTAssertEqual(x, y, accuracy: 1e-9, "\(clip) frame \(frame)")
                }
                XCTAssertEqual(a.color.redOffset, 127.5, accuracy: 1e-9)
                XCTAssertEqual(a.color.greenMultiplier, 0.5, accuracy: 1e-9)
                XCTAssertNotNil(a.inGroup, "drawn through the stage instance's glow")
            }
        }
    }

    /// A stage instance that changes nothing (identity matrix, no effects) leaves the symbol as the root.
    func testAnIdentityStageInstanceChangesNothing() throws {
        let identity = #"{"SI":{"SN":"root","IN":"","ST":"G","FF":0,"LP":"LP","TRP":{"x":4,"y":5},"M3D":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}}"#
        let placed = try document(stageInstance: identity)
        let plain = try document(stageInstance: nil)
        XCTAssertEqual(placed.root, "root")
        XCTAssertEqual(placed.compositions, plain.compositions)
        XCTAssertEqual(placed.clips, plain.clips)
    }

    /// A stage instance that cannot be read does not stop the conversion: it is left out with a warning.
    func testAnUnreadableStageInstanceIsLeftOutWithAWarning() throws {
        let placed = try document(stageInstance: #"{"SI":{"ST":"G","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,9,9,0,1]}}"#)
        XCTAssertEqual(placed.root, "root")
        let warning = try XCTUnwrap(placed.diagnostics.first { $0.code == "stage-instance-unreadable" })
        XCTAssertTrue(warning.message.contains("SN"), warning.message)
        XCTAssertEqual(placed.compositions, try document(stageInstance: nil).compositions)
    }

    /// A symbol named like the stage composition does not collide with it.
    func testTheStageCompositionsNameNeverCollides() throws {
        let symbols = Self.symbols + #",{"SN":"root (stage)","TL":{"L":[]}}"#
        let frames = Self.frames.replacingOccurrences(of: "]}}]}]", with: "]}},{\"SI\":{\"SN\":\"root (stage)\",\"ST\":\"G\"}}]}]")
        var animation = AnimateFixture.animation(frames: frames, symbols: symbols)
        animation = animation.replacingOccurrences(of: #"{"AN":{"N":"fixture","#, with:
            #"{"AN":{"N":"fixture","STI":{"SI":{"SN":"root","ST":"G","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,5,5,0,1]}},"#)
        let document = try Importer.importDocument(at: try AnimateFixture(animation: animation).folder)
        XCTAssertEqual(document.root, "root (stage 2)")
        XCTAssertEqual(Set(document.compositions.map(\.id)).count, document.compositions.count)
    }
}
