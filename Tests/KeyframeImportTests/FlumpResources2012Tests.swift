import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Flump's 2012 `resources.json` (its exporters of March–April 2012, before 1.0): movies keyed by `symbol`, top-level
/// `atlases` with textures keyed by `name` and placed at `offset`, keyframes with a single `rotation` in radians and
/// the symbol's transformation point as `pivot`, no `frameRate` when it was 30. The variants the exporter went
/// through in those weeks — `t: [x, y, scaleX, scaleY, rotation]` with `index` (1 March), `"x,y"` text and no
/// `index` (9 March), arrays (13 March on) — read to the same document. `FlumpDrawFrameOracleTests` plays our own
/// `flump-own/resources-2012` library frame by frame.
final class FlumpResources2012Tests: XCTestCase {
    static let atlases = """
        "atlases":[{"file":"atlas0.png","textures":[{"name":"a","rect":[0,0,2,2],"offset":[-1,-1],"md5":"z"}]}]
        """

    func document(_ movies: String, extra: String = "") throws -> Document {
        let library = #"{"md5":"x",\#(extra)"movies":\#(movies),\#(Self.atlases)}"#
        return try Importer.importDocument(at: try FlumpFixture(library, file: "resources.json").folder)
    }

    /// One layer, two keyframes, written in each variant of the time.
    static let arrays = #"[{"symbol":"m","md5":"y","layers":[{"name":"l","keyframes":[{"duration":4,"ref":"a","loc":[10,20],"scale":[2,1],"rotation":0.5,"pivot":[3,4],"ease":-0.5},{"duration":1,"ref":"a","loc":[30,20],"rotation":1.5,"pivot":[3,4]}]}]}]"#
    static let text = #"[{"symbol":"m","md5":"y","layers":[{"name":"l","keyframes":[{"duration":4,"ref":"a","loc":"10,20","scale":"2,1","rotation":0.5,"pivot":"3,4","ease":-0.5},{"duration":1,"ref":"a","loc":"30,20","rotation":1.5,"pivot":"3,4"}]}]}]"#
    static let transformArrays = #"[{"symbol":"m","layers":[{"name":"l","flipbook":false,"keyframes":[{"index":0,"duration":4,"ref":"a","t":[10,20,2,1,0.5],"pivot":[3,4],"ease":-0.5},{"index":4,"duration":1,"ref":"a","t":[30,20,1,1,1.5],"pivot":[3,4]}]}]}]"#

    func testTheVariantsOfTheTimeReadTheSame() throws {
        let reference = try document(Self.arrays)
        XCTAssertEqual(reference.source.variant, "json-2012")
        XCTAssertEqual(try document(Self.text).compositions, reference.compositions)
        XCTAssertEqual(try document(Self.transformArrays).compositions, reference.compositions)
        // Named after the folder, as library.json is: resources.json was the exporter's fixed name.
        XCTAssertNotEqual(reference.name, "resources")
    }

    func testRotationPivotOffsetAndFrameRate() throws {
        let document = try document(Self.arrays)
        XCTAssertEqual(document.frameRate.framesPerSecond, 30)
        let assumed = try XCTUnwrap(document.diagnostics.first { $0.code == "frame-rate-assumed" })
        XCTAssert(assumed.message.contains("30 fps"), assumed.message)
        XCTAssertEqual(document.assets.sprites.first?.origin, Vector2(x: -1, y: -1))
        let layer = try XCTUnwrap(document.composition("m")?.nodes.first)
        XCTAssertEqual(layer.tracks.rotation?.keyframes.map(\.value.value), [0.5 * 180 / .pi, 1.5 * 180 / .pi])
        XCTAssertNil(layer.tracks.skew, "a single rotation has no skew")
        XCTAssertEqual(layer.tracks.pivot?.keyframes.first?.value, Vector2(x: 3, y: 4))
        // Starling drew the layer's display (the texture at `offset` inside it) with the pivot on loc, scaled then
        // rotated: the texture's pixel (px, py) lands at loc + R(θ)·S·((px, py) + offset − pivot).
        let item = try XCTUnwrap(PoseSampler(document: document).sample(composition: "m", frame: .zero).items.first)
        for (px, py) in [(0.0, 0.0), (2.0, 0.0), (1.0, 2.0)] {
            let lx = 2 * (px - 1 - 3), ly = 1 * (py - 1 - 4)
            let expected = Vector2(x: 10 + cos(0.5) * lx - sin(0.5) * ly, y: 20 + sin(0.5) * lx + cos(0.5) * ly)
            let actual = item.transform.apply(Vector2(x: px, y: py))
            XCTAssertEqual(actual.x, expected.x, accuracy: 1e-9)
            XCTAssertEqual(actual.y, expected.y, accuracy: 1e-9)
        }
        // A recorded rate is used, without a diagnostic.
        let rated = try self.document(Self.arrays, extra: #""frameRate":24,"#)
        XCTAssertEqual(rated.frameRate.framesPerSecond, 24)
        XCTAssertFalse(rated.diagnostics.contains { $0.code == "frame-rate-assumed" })
    }

    func testKeyframesWithoutIndexFollowOneAnother() throws {
        let movies = #"[{"symbol":"m","layers":[{"name":"l","keyframes":[{"duration":3,"ref":"a"},{"duration":2},{"duration":4,"ref":"a","loc":[5,5]}]}]}]"#
        let composition = try XCTUnwrap(try document(movies).composition("m"))
        XCTAssertEqual(composition.duration.value, 9)
        XCTAssertEqual(composition.nodes[0].tracks.content?.keyframes.map(\.frame.value), [0, 3, 5])
    }

    func testBrokenValuesNameTheirPath() throws {
        let badText = #"[{"symbol":"m","layers":[{"name":"l","keyframes":[{"duration":1,"ref":"a","loc":"10;20"}]}]}]"#
        XCTAssertThrowsError(try document(badText)) { error in
            XCTAssertEqual("\(error)", #"resources.json: at movies[0].layers[0].keyframes[0].loc: expected "x,y", found "10;20""#)
        }
        let shortT = #"[{"symbol":"m","layers":[{"name":"l","keyframes":[{"index":0,"duration":1,"ref":"a","t":[1,2]}]}]}]"#
        XCTAssertThrowsError(try document(shortT)) { error in
            XCTAssert("\(error)".contains("keyframes[0].t: expected [x, y, scaleX, scaleY, rotation], found 2 values"), "\(error)")
        }
    }
}
