import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// The Flump mapping on small hand-written libraries, checked through the pose sampler (what the document means)
/// against values worked out by hand from Flump's rules (Layer.as drawFrame, formats.md §4).
final class FlumpMappingTests: XCTestCase {
    /// Texture "a" is 2×2 with origin (1, 1); "b" is 2×2 with origin (0, 0).
    static let library = FlumpFixture.json(movies: """
        [{"id":"main","layers":[
           {"name":"body","keyframes":[
             {"index":0,"duration":10,"ref":"a","pivot":[1,1],"ease":0.5,"label":"start"},
             {"index":10,"duration":10,"ref":"a","loc":[100,50],"skew":[0.5,0.2],"scale":[2,1],"alpha":0.5,
              "visible":false,"tweened":false},
             {"index":20,"duration":5,"ref":"b","loc":[10,10],"ease":-1}]},
           {"name":"kid","keyframes":[
             {"index":0,"duration":15,"ref":"sub"},
             {"index":15,"duration":5,"ref":"sub","loc":[5,5]},
             {"index":20,"duration":10,"ref":"a","label":"end","tint":[0.5,16711680]}]}]},
         {"id":"sub","layers":[{"name":"spin","keyframes":[{"index":0,"duration":4,"ref":"b"}]}]},
         {"id":"other","layers":[{"name":"x","keyframes":[
             {"index":0,"duration":2,"ref":"sub"},{"index":2,"duration":1},{"index":3,"duration":3,"ref":"sub"}]},
           {"name":"eased","keyframes":[
             {"index":0,"duration":4,"ref":"b","ease":-1},{"index":4,"duration":2,"ref":"b","loc":[40,0]}]}]}]
        """)

    private func document() throws -> Document {
        try Importer.importDocument(at: try FlumpFixture(Self.library).folder)
    }

    func testMoviesClipsAndRoot() throws {
        let fixture = try FlumpFixture(Self.library)
        let document = try Importer.importDocument(at: fixture.folder)
        XCTAssertEqual(document.name, fixture.folder.lastPathComponent, "library.json is named after its folder")
        XCTAssertEqual(document.root, "main", "the first movie no other movie nests")
        XCTAssertEqual(document.compositions.map(\.id), ["main", "sub", "other"])
        XCTAssertEqual(document.compositions.map(\.duration.value), [30, 4, 6])
        XCTAssertEqual(document.clips.map(\.name), ["main", "main:start", "main:end", "sub", "other"])
        XCTAssertEqual(document.clips.map(\.start.value), [0, 0, 20, 0, 0])
        XCTAssertEqual(document.clips.map(\.duration.value), [30, 20, 10, 4, 6])
        XCTAssertEqual(document.source.variant, "json")
    }

    /// Frame 4 of a 10-frame segment with ease 0.5: p = 0.4, eased p − 0.5·p·(1 − p) = 0.28 (a slow start, the
    /// opposite sign of Flash's ease). The texture pixel on the pivot (1, 1) lands on the eased loc.
    func testEaseSignSkewAndPivot() throws {
        let sampler = PoseSampler(document: try document())
        let pose = sampler.sample(composition: "main", frame: Frames(4))
        let body = try XCTUnwrap(pose.items.first { $0.path == "main/0:body" })
        let eased = 0.4 - 0.5 * 0.4 * 0.6
        let p = body.transform.apply(Vector2(x: 1, y: 1))
        XCTAssertEqual(p.x, 100 * eased, accuracy: 1e-9)
        XCTAssertEqual(p.y, 50 * eased, accuracy: 1e-9)
        // Starling's matrix with skewX = 0.5·e, skewY = 0.2·e, scale (1 + e, 1).
        let skewX = 0.5 * eased, skewY = 0.2 * eased, scaleX = 1 + eased
        XCTAssertEqual(body.transform.a, scaleX * cos(skewY), accuracy: 1e-12)
        XCTAssertEqual(body.transform.b, scaleX * sin(skewY), accuracy: 1e-12)
        XCTAssertEqual(body.transform.c, -sin(skewX), accuracy: 1e-12)
        XCTAssertEqual(body.transform.d, cos(skewX), accuracy: 1e-12)
        XCTAssertEqual(body.color.alphaMultiplier, 1 - 0.5 * eased, accuracy: 1e-12)

        // The stored easing keeps Flump's number and sign.
        let track = try XCTUnwrap(try document().composition("main")?.nodes[0].tracks.position)
        XCTAssertEqual(track.keyframes.map(\.easing), [.flumpQuadratic(ease: 0.5), .hold, .hold])
    }

    /// ease −1 is a full ease-out: p = 0.5 → 1 − (1 − p)² = 0.75.
    func testNegativeEaseIsEaseOut() throws {
        let pose = PoseSampler(document: try document()).sample(composition: "other", frame: Frames(2))
        let item = try XCTUnwrap(pose.items.first { $0.path == "other/1:eased" })
        XCTAssertEqual(item.transform.tx, 40 * 0.75, accuracy: 1e-9)
    }

    /// `tweened: false` holds; `visible: false` hides; the last keyframe holds; after the layer ends nothing shows.
    func testHoldVisibilityLastKeyframeAndLayerEnd() throws {
        let sampler = PoseSampler(document: try document())
        XCTAssertNil(sampler.sample(composition: "main", frame: Frames(12)).items.first { $0.path == "main/0:body" },
                     "visible: false hides the layer")
        let last = try XCTUnwrap(sampler.sample(composition: "main", frame: Frames(24)).items.first { $0.path == "main/0:body" })
        XCTAssertEqual(last.sprite, "b")
        XCTAssertEqual(last.transform.apply(.zero), Vector2(x: 10, y: 10), "the last keyframe holds, ease or not")
        XCTAssertNil(sampler.sample(composition: "main", frame: Frames(25)).items.first { $0.path == "main/0:body" },
                     "the layer ended at frame 25")
        // The held keyframe at 10 shows its own values all through (tweened: false).
        let document = try document()
        let rotation = try XCTUnwrap(document.composition("main")?.nodes[0].tracks.rotation)
        XCTAssertEqual(rotation.keyframes.map(\.value.value), [0, 0.2 * 180 / .pi, 0])
        let skew = try XCTUnwrap(document.composition("main")?.nodes[0].tracks.skew)
        XCTAssertEqual(skew.keyframes[1].value.value, (0.5 - 0.2) * 180 / .pi, accuracy: 1e-12)
    }

    /// A nested movie continues across consecutive keyframes that name it, and restarts after a gap.
    func testNestedMoviesKeepTheirOwnClock() throws {
        let document = try document()
        let sampler = PoseSampler(document: document)
        let kid = try XCTUnwrap(document.composition("main")?.nodes[1].tracks.content)
        XCTAssertEqual(kid.keyframes.map(\.frame.value), [0, 20])
        guard case .composition(let instance) = kid.keyframes[0].value else { return XCTFail("\(kid)") }
        XCTAssertEqual(instance, CompositionInstance(composition: "sub", firstFrame: .zero, loop: .loop, clock: .independent,
                                                     keepsTime: true))
        let state = sampler.sample(composition: "main", frame: Frames(17), collectNodes: true).nodes
            .first { $0.path == "main/1:kid" }
        XCTAssertEqual(state?.childFrame, 1, "17 frames into a 4-frame movie")

        let x = try XCTUnwrap(document.composition("other")?.nodes[0].tracks.content)
        XCTAssertEqual(x.keyframes.map(\.frame.value), [0, 2, 3])
        let restarted = sampler.sample(composition: "other", frame: Frames(4), collectNodes: true).nodes
            .first { $0.path == "other/0:x" }
        XCTAssertEqual(restarted?.childFrame, 1, "restarted at frame 3")
    }

    func testTintBecomesAHeldColour() throws {
        let document = try document()
        let color = try XCTUnwrap(document.composition("main")?.nodes[1].tracks.color)
        XCTAssertEqual(color.keyframes.last?.value, ColorTransform(
            redMultiplier: 0.5, greenMultiplier: 0.5, blueMultiplier: 0.5, redOffset: 127.5))
        XCTAssertTrue(document.diagnostics.contains { $0.code == "tint-applied" && $0.severity == .info })
    }

    /// The same library as XML gives the same compositions, clips and assets.
    func testXMLAndJSONGiveTheSameDocument() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <resources md5="x">
              <!-- the movie -->
              <movie name="m" frameRate="30">
                <layer name="l &amp; r">
                  <kf duration="3" ref="a" loc="1.5,-2" scale="2,1" skew="0.1,0.2" pivot="1,1" alpha="0.5" ease="-0.25" label="go"/>
                  <kf duration="2" ref="b" tweened="false" visible="false"/>
                  <kf duration="1"/>
                </layer>
              </movie>
              <textureGroups>
                <textureGroup scaleFactor="1">
                  <atlas file='atlas0.png'>
                    <texture name="a" rect="0,0,2,2" origin="1,1"/>
                    <texture name="b" rect="2,2,2,2" origin="0,0"/>
                  </atlas>
                </textureGroup>
              </textureGroups>
            </resources>
            """
        let json = FlumpFixture.json(movies: """
            [{"id":"m","layers":[{"name":"l & r","keyframes":[
              {"index":0,"duration":3,"ref":"a","loc":[1.5,-2],"scale":[2,1],"skew":[0.1,0.2],"pivot":[1,1],"alpha":0.5,
               "ease":-0.25,"label":"go"},
              {"index":3,"duration":2,"ref":"b","tweened":false,"visible":false},
              {"index":5,"duration":1}]}]}]
            """, frameRate: 30)
        let fromXML = try Importer.importDocument(at: try FlumpFixture(xml, file: "library.xml").folder)
        let fromJSON = try Importer.importDocument(at: try FlumpFixture(json).folder)
        XCTAssertEqual(fromXML.compositions, fromJSON.compositions)
        XCTAssertEqual(fromXML.clips, fromJSON.clips)
        XCTAssertEqual(fromXML.assets, fromJSON.assets)
        XCTAssertEqual(fromXML.frameRate, fromJSON.frameRate)
        XCTAssertEqual(fromXML.source.variant, "xml")
        XCTAssertEqual(fromXML.clips.map(\.name), ["m", "m:go"])
    }

    /// The 2013 schema: top-level atlases, texture `offset` (= −origin), no pivots; the texture's origin pixel sits
    /// on loc, as the current schema's `pivot = origin` does.
    func testOldSchemaPlacesTheOriginOnLoc() throws {
        let library = """
            {"md5":"x","frameRate":30,"movies":[{"id":"m","md5":"y","layers":[{"name":"l","keyframes":[
              {"index":0,"duration":1,"ref":"a","loc":[10,20]}]}]}],
             "atlases":[{"file":"atlas0.png","textures":[{"symbol":"a","rect":[0,0,2,2],"offset":[-1,-1],"md5":"z"}]}]}
            """
        let document = try Importer.importDocument(at: try FlumpFixture(library).folder)
        XCTAssertEqual(document.source.variant, "json-2013")
        XCTAssertEqual(document.assets.sprites.first?.origin, Vector2(x: -1, y: -1))
        let item = try XCTUnwrap(PoseSampler(document: document).sample(composition: "m", frame: .zero).items.first)
        XCTAssertEqual(item.transform.apply(Vector2(x: 1, y: 1)), Vector2(x: 10, y: 20))
    }

    // MARK: Scale factors

    /// Groups at 1× (4 px atlas) and 2× (8 px atlas): Flump's rule picks the largest factor not above the request,
    /// else the smallest; sizes and origins are divided by the factor.
    func testScaleFactorChoice() throws {
        let library = """
            {"md5":"x","frameRate":24,"movies":[{"id":"m","layers":[{"name":"l","keyframes":[{"index":0,"duration":1,"ref":"a"}]}]}],
             "textureGroups":[
               {"scaleFactor":2,"atlases":[{"file":"atlas0@2x.png","textures":[{"symbol":"a","rect":[0,0,4,4],"origin":[2,2]}]}]},
               {"scaleFactor":1,"atlases":[{"file":"atlas0.png","textures":[{"symbol":"a","rect":[0,0,2,2],"origin":[1,1]}]}]}]}
            """
        let fixture = try FlumpFixture(library, atlases: ["atlas0.png": 4, "atlas0@2x.png": 8])
        func load(_ factor: Double?) throws -> Document {
            try Importer.importDocument(at: fixture.folder, options: ImportOptions(scaleFactor: factor))
        }
        for (request, expected) in [(nil, 1.0), (1, 1), (2, 2), (3, 2), (1.5, 1), (0.5, 1)] as [(Double?, Double)] {
            let document = try load(request)
            let image = try XCTUnwrap(document.assets.images.first)
            XCTAssertEqual(image.resolution, expected, "request \(String(describing: request))")
            XCTAssertEqual(image.path, expected == 2 ? "atlas0@2x.png" : "atlas0.png")
            XCTAssertEqual(image.pixelSize.width, expected == 2 ? 8 : 4)
            let sprite = try XCTUnwrap(document.assets.sprites.first)
            XCTAssertEqual(sprite.size, Size(width: 2, height: 2), "the same size in document pixels")
            XCTAssertEqual(sprite.origin, Vector2(x: -1, y: -1))
            XCTAssertEqual(sprite.region.width, 2 * expected)
            XCTAssertTrue(document.diagnostics.contains { $0.code == "texture-group-chosen" })
        }
    }

    /// The dog sample's 2× group: every texture has the same size and origin in document pixels as at 1×.
    func testCorpusDoubleResolutionGroup() throws {
        let folder = try TestPaths.corpus("flump").first { $0.lastPathComponent == "pixiflump-dog-multiscale" }
        let dog = try XCTUnwrap(folder)
        let one = try Importer.importDocument(at: dog)
        let two = try Importer.importDocument(at: dog, options: ImportOptions(scaleFactor: 2))
        XCTAssertEqual(one.assets.images.map(\.path), ["atlas0.png"])
        XCTAssertEqual(two.assets.images.map(\.path), ["atlas0@2x.png"])
        XCTAssertEqual(two.assets.images.first?.resolution, 2)
        XCTAssertEqual(Set(one.assets.sprites.map(\.id)), Set(two.assets.sprites.map(\.id)))
        for a in one.assets.sprites {
            let b = try XCTUnwrap(two.assets.sprites.first { $0.id == a.id }, a.id)
            XCTAssertEqual(a.size.width, b.size.width, accuracy: 0.5, a.id)
            XCTAssertEqual(a.size.height, b.size.height, accuracy: 0.5, a.id)
            XCTAssertEqual(a.origin.x, b.origin.x, accuracy: 0.5, a.id)
            XCTAssertEqual(a.origin.y, b.origin.y, accuracy: 0.5, a.id)
        }
        XCTAssertEqual(two.assets.sprites.first { $0.id == "Van" }?.origin, Vector2(x: -159, y: -100))
        XCTAssertEqual(one.compositions, two.compositions, "only the assets change")
    }
}
