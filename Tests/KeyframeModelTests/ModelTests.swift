import Foundation
import KeyframeJSON
import KeyframeModel
import KeyframeTestSupport
import XCTest

final class ModelTests: XCTestCase {
    /// A document that uses every kind of value the model has.
    static func sampleDocument() -> Document {
        var layerTracks = NodeTracks()
        layerTracks.opacity = Track([Keyframe(frame: Frames(0), value: 1, easing: .linear),
                                     Keyframe(frame: Frames(10), value: 0.25)])
        var tracks = NodeTracks()
        tracks.position = Track([
            Keyframe(frame: Frames(0), value: Vector2(x: 1.5, y: -2), easing: .cubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)),
            Keyframe(frame: Frames(4), value: Vector2(x: 10, y: 0),
                     easing: .bezierPath(points: [Vector2(x: 0, y: 0), Vector2(x: 0.2, y: 0), Vector2(x: 0.3, y: 0.5),
                                                  Vector2(x: 0.5, y: 0.5), Vector2(x: 0.7, y: 0.5), Vector2(x: 0.8, y: 1),
                                                  Vector2(x: 1, y: 1)], sampledSteps: 12)),
            Keyframe(frame: Frames(8.5), value: Vector2(x: 3, y: 3), easing: .flumpQuadratic(ease: -0.5)),
            Keyframe(frame: Frames(9), value: Vector2(x: 4, y: 3), easing: .quadraticInOut(strength: 0.5)),
            Keyframe(frame: Frames(10), value: Vector2(x: 4, y: 4)),
        ])
        tracks.rotation = Track([Keyframe(frame: Frames(0), value: Degrees(-30), easing: .flashQuadratic(strength: 0.5)),
                                 Keyframe(frame: Frames(10), value: Degrees(390))])
        tracks.skew = Track(constant: Degrees(5))
        tracks.scale = Track(constant: Vector2(x: -1, y: 2))
        tracks.pivot = Track(constant: Vector2(x: 3, y: 4))
        tracks.color = Track(constant: ColorTransform(redMultiplier: 0.5, alphaOffset: -20))
        tracks.visible = Track([Keyframe(frame: Frames(0), value: true), Keyframe(frame: Frames(5), value: false)])
        tracks.content = Track([
            Keyframe(frame: Frames(0), value: .sprite("s1")),
            Keyframe(frame: Frames(3), value: .composition(CompositionInstance(
                composition: "child", firstFrame: Frames(2), loop: .playOnceReverse, clock: .independent))),
            Keyframe(frame: Frames(7), value: NodeContent.none),
        ])
        tracks.drawOrder = Track(constant: 3)
        tracks.blendMode = Track(constant: .screen)
        tracks.filters = Track(constant: [Filter(kind: "glow", parameters: ["BLX": 4, "C": "#FF0000"])])
        return Document(
            name: "sample \"quoted\"", frameRate: FrameRate(24), stage: Rect(x: -10, y: 0, width: 320, height: 240),
            source: Provenance(format: .animateAtlas, formatVersion: "1", tool: "Adobe Animate", toolVersion: "21.0",
                               variant: "optimized", files: ["Animation.json"]),
            assets: Assets(
                images: [AtlasImage(id: "img", path: "spritemap1.png", pixelSize: Size(width: 64, height: 32), resolution: 0.5)],
                sprites: [Sprite(id: "s1", name: "0000", image: "img", region: Rect(x: 1, y: 2, width: 10, height: 20),
                                 rotated: true, origin: .zero, size: Size(width: 40, height: 20))]),
            compositions: [
                Composition(id: "root", name: "Root", duration: Frames(10), nodes: [
                    Node(id: "mask", name: "Mask", kind: .layer, isMask: true),
                    Node(id: "layer", name: "Layer", kind: .layer, maskedBy: "mask", tracks: layerTracks),
                    Node(id: "el", name: "Element", kind: .instance, parent: "layer", tracks: tracks),
                ]),
                Composition(id: "child", name: "Child", duration: Frames(5)),
            ],
            root: "root",
            clips: [Clip(name: "all", composition: "root", start: .zero, duration: Frames(10), loopCount: 0),
                    Clip(name: "once", composition: "child", start: Frames(1), duration: Frames(4), loopCount: 2)],
            diagnostics: [Diagnostic(severity: .warning, code: "filter-not-rendered", message: "m", file: "A.json",
                                     path: "AN.TL", count: 3)])
    }

    func testJSONRoundTripPreservesEverything() throws {
        let document = Self.sampleDocument()
        try document.validate()
        let bytes = document.jsonBytes()
        let decoded = try Document(jsonBytes: bytes)
        XCTAssertEqual(decoded, document)
        XCTAssertEqual(decoded.jsonBytes(), bytes, "writing the decoded document gives the same bytes")
    }

    func testCodableBridgeAgreesWithNativeForm() throws {
        let document = Self.sampleDocument()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let viaCodable = try JSONDecoder().decode(Document.self, from: encoder.encode(document))
        XCTAssertEqual(viaCodable, document)
    }

    func testOutputIsDeterministic() {
        // Dictionaries hash with a per-process seed; build the same document many times and compare bytes.
        let first = Self.sampleDocument().jsonBytes()
        for _ in 0..<20 { XCTAssertEqual(Self.sampleDocument().jsonBytes(), first) }
    }

    func testSchemaVersionIsChecked() throws {
        var object = try XCTUnwrap(Self.sampleDocument().json.objectValue)
        object["schemaVersion"] = 2
        XCTAssertThrowsError(try Document(jsonBytes: JSONWriter.write(.object(object)))) { error in
            XCTAssertEqual((error as? ModelError)?.kind, .unsupportedSchemaVersion(found: 2, supported: 1))
        }
        object["format"] = "lottie"
        XCTAssertThrowsError(try Document(jsonBytes: JSONWriter.write(.object(object)))) { error in
            XCTAssertEqual((error as? ModelError)?.kind, .notAKeyframeDocument(found: "lottie"))
        }
    }

    func testSchemaErrorsNameTheJSONPath() throws {
        var text = String(decoding: Self.sampleDocument().jsonBytes(), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"frame\" : 8.5", with: "\"frame\" : \"late\"")
        XCTAssertThrowsError(try Document(jsonBytes: Array(text.utf8))) { error in
            XCTAssertEqual("\(error)", "compositions[0].nodes[2].tracks.position[2].frame: expected a number, found string")
        }
    }

    func testValidationCatchesDanglingReferences() {
        var document = Self.sampleDocument()
        document.compositions[0].nodes[2].parent = "ghost"
        XCTAssertThrowsError(try document.validate()) { XCTAssert("\($0)".contains("ghost"), "\($0)") }
        document = Self.sampleDocument()
        document.compositions[0].nodes[2].tracks.content?.keyframes[0].value = .sprite("missing")
        XCTAssertThrowsError(try document.validate()) {
            XCTAssertEqual("\($0)", #"compositions[0].nodes[2].tracks.content[0].value.sprite: unknown sprite "missing""#)
        }
        document = Self.sampleDocument()
        document.clips[0].composition = "nope"
        XCTAssertThrowsError(try document.validate())
    }

    func testKeyframesMustIncrease() throws {
        var text = String(decoding: Self.sampleDocument().jsonBytes(), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"frame\" : 8.5", with: "\"frame\" : 2")
        XCTAssertThrowsError(try Document(jsonBytes: Array(text.utf8))) {
            XCTAssert("\($0)".contains("strictly increasing"), "\($0)")
        }
    }

    func testMatrixDecompositionReproducesAnyMatrix() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let m = Matrix2D(a: .random(in: -3...3, using: &generator), b: .random(in: -3...3, using: &generator),
                             c: .random(in: -3...3, using: &generator), d: .random(in: -3...3, using: &generator),
                             tx: .random(in: -500...500, using: &generator), ty: .random(in: -500...500, using: &generator))
            let pivot = Vector2(x: .random(in: -50...50, using: &generator), y: .random(in: -50...50, using: &generator))
            let components = TransformComponents(matrix: m, pivot: pivot)
            let back = components.matrix
            for (x, y) in [(back.a, m.a), (back.b, m.b), (back.c, m.c), (back.d, m.d), (back.tx, m.tx), (back.ty, m.ty)] {
                assertClose(x, y, tolerance: 1e-9)
            }
            // The pivot lands on `position`.
            let image = m.apply(pivot)
            assertClose(components.position.x, image.x, tolerance: 1e-9)
            assertClose(components.position.y, image.y, tolerance: 1e-9)
        }
    }

    func testFlashMatrixConventionForKnownRotation() {
        // Flash: m00=cos, m01=sin is a clockwise rotation on a y-down screen.
        let c = TransformComponents(matrix: Matrix2D(a: 0.7071067811865476, b: 0.7071067811865476,
                                                     c: -0.7071067811865476, d: 0.7071067811865476, tx: 0, ty: 0))
        assertClose(c.rotation.value, 45, tolerance: 1e-9)
        assertClose(c.skew.value, 0, tolerance: 1e-9)
        assertClose(c.scale.x, 1, tolerance: 1e-12)
    }

    func testTrackAppendDropsRedundantHolds() {
        var track = Track<Double>()
        track.append(Keyframe(frame: Frames(0), value: 1))
        track.append(Keyframe(frame: Frames(1), value: 1))
        track.append(Keyframe(frame: Frames(2), value: 2, easing: .linear))
        track.append(Keyframe(frame: Frames(3), value: 2))
        XCTAssertEqual(track.keyframes.map(\.frame.value), [0, 2, 3], "a value equal to an interpolating keyframe's is kept")
        XCTAssertEqual(track.keyframeIndex(at: Frames(2.5)), 1)
        XCTAssertNil(track.keyframeIndex(at: Frames(-1)))
        var content = Track<NodeContent>()
        content.append(Keyframe(frame: Frames(0), value: .sprite("a")))
        content.appendRestarting(Keyframe(frame: Frames(5), value: .sprite("a")))
        XCTAssertEqual(content.keyframes.count, 2)
    }

    func testColorConcatenationMatchesApplyingTwice() {
        let parent = ColorTransform(redMultiplier: 0.5, greenMultiplier: 2, redOffset: 10, greenOffset: -20)
        let child = ColorTransform(redMultiplier: 0.8, redOffset: 30, blueOffset: 7)
        let both = parent.concatenating(child)
        let red = 100.0
        assertClose(both.redMultiplier * red + both.redOffset, (red * 0.8 + 30) * 0.5 + 10)
        assertClose(both.blueOffset, 7)
    }
}
