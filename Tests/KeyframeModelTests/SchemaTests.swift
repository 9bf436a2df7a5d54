import Foundation
import KeyframeJSON
import KeyframeModel
import KeyframeTestSupport
import XCTest

// Checks that docs/keyframe.schema.json and the model's JSON form agree, in both directions:
// - a document that uses every model feature, written by `jsonBytes()`, passes Scripts/validate-schema.py;
// - hand-broken documents fail it (so the check can fail);
// - the schema's enums list exactly the Swift enums' cases.
// The script needs python3 with the `jsonschema` package; without them the script-based tests are skipped.

final class SchemaTests: XCTestCase {
    /// A document that uses every feature of the model: all easing kinds, all content kinds, all loop modes and
    /// clocks, every track, masks, all node kinds, diagnostics with and without location, a stage rect, every
    /// optional provenance field, rotated sprites and a non-1 resolution.
    static func everyFeatureDocument() -> Document {
        let images = [
            AtlasImage(id: "atlas", path: "spritemap1.png", pixelSize: Size(width: 256, height: 128)),
            AtlasImage(id: "atlas@2x", path: "images/atlas@2x.png", pixelSize: Size(width: 512, height: 256),
                       resolution: 2),
        ]
        let sprites = [
            Sprite(id: "body", name: "0000", image: "atlas", region: Rect(x: 0, y: 0, width: 40, height: 60),
                   rotated: false, origin: .zero, size: Size(width: 40, height: 60)),
            Sprite(id: "arm", name: "0001", image: "atlas", region: Rect(x: 41, y: 0, width: 30, height: 10),
                   rotated: true, origin: Vector2(x: -5, y: -2.5), size: Size(width: 10, height: 30)),
            Sprite(id: "head", name: "head", image: "atlas@2x", region: Rect(x: 0, y: 0, width: 64, height: 64),
                   rotated: false, origin: Vector2(x: -16, y: -16), size: Size(width: 32, height: 32)),
        ]

        let easings: [Easing] = [
            .hold, .linear, .cubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1.2),
            .bezierPath(points: [.zero, Vector2(x: 0.2, y: 0), Vector2(x: 0.3, y: 0.5), Vector2(x: 0.5, y: 0.5),
                                 Vector2(x: 0.7, y: 0.5), Vector2(x: 0.8, y: 1), .one], sampledSteps: 12),
            .bezierPath(points: [.zero, Vector2(x: 0.25, y: 0.1), Vector2(x: 0.25, y: 1), .one], sampledSteps: nil),
            .flashQuadratic(strength: -0.5), .quadraticInOut(strength: 0.75), .flumpQuadratic(ease: 0.3),
        ]
        var tracks = NodeTracks()
        tracks.position = Track(easings.enumerated().map { index, easing in
            Keyframe(frame: Frames(Double(index * 2)), value: Vector2(x: Double(index) * 10, y: -Double(index)),
                     easing: easing)
        })
        tracks.scale = Track([
            Keyframe(frame: .zero, value: .one, easing: .linear),
            Keyframe(frame: Frames(10), value: Vector2(x: -1, y: 2.5), easing: .linear),
        ])
        tracks.rotation = Track([
            Keyframe(frame: .zero, value: Degrees(0), easing: .flashQuadratic(strength: 1)),
            Keyframe(frame: Frames(7.5), value: Degrees(450), easing: .hold),
        ])
        tracks.skew = Track([Keyframe(frame: .zero, value: Degrees(-12.5), easing: .linear)])
        tracks.pivot = Track([Keyframe(frame: .zero, value: Vector2(x: 20, y: 30)),
                              Keyframe(frame: Frames(4), value: Vector2(x: 0, y: 0))])
        tracks.opacity = Track([Keyframe(frame: .zero, value: 1, easing: .linear),
                                Keyframe(frame: Frames(5), value: 0.25, easing: .hold)])
        tracks.color = Track([
            Keyframe(frame: .zero, value: .identity, easing: .linear),
            Keyframe(frame: Frames(5), value: ColorTransform(
                redMultiplier: 0.5, greenMultiplier: 0.5, blueMultiplier: 0.5, alphaMultiplier: 0.8,
                redOffset: 127.5, greenOffset: -20, blueOffset: 0, alphaOffset: 0), easing: .linear),
        ])
        tracks.visible = Track([Keyframe(frame: .zero, value: true), Keyframe(frame: Frames(3), value: false)])
        tracks.content = Track([
            Keyframe(frame: .zero, value: .sprite("body")),
            Keyframe(frame: Frames(2), value: .none),
            Keyframe(frame: Frames(3), value: .composition(CompositionInstance(
                composition: "arm-cycle", firstFrame: Frames(2), loop: .playOnce, clock: .parent))),
            Keyframe(frame: Frames(6), value: .composition(CompositionInstance(
                composition: "arm-cycle", firstFrame: Frames(2), loop: .playOnce, clock: .parent))),
        ])
        tracks.drawOrder = Track([Keyframe(frame: .zero, value: 3), Keyframe(frame: Frames(8), value: -1)])
        tracks.blendMode = Track([Keyframe(frame: .zero, value: .add), Keyframe(frame: Frames(4), value: .hardlight)])
        tracks.filters = Track([
            Keyframe(frame: .zero, value: [
                Filter(kind: "glow", parameters: ["BLX": 4, "BLY": 4, "C": "#FF0000", "Q": 1]),
                Filter(kind: "dropShadow", parameters: ["DST": 5.5, "AL": 45]),
            ]),
            Keyframe(frame: Frames(5), value: []),
        ])

        var loopNodes: [Node] = []
        for (index, mode) in LoopMode.allCases.enumerated() {
            for clock in CompositionClock.allCases {
                var instanceTracks = NodeTracks()
                instanceTracks.content = Track(constant: .composition(CompositionInstance(
                    composition: "arm-cycle", firstFrame: Frames(Double(index)), loop: mode, clock: clock)))
                loopNodes.append(Node(id: "\(mode.rawValue)-\(clock.rawValue)", name: mode.rawValue, kind: .instance,
                                      parent: "group", tracks: instanceTracks))
            }
        }

        var maskTracks = NodeTracks()
        maskTracks.content = Track(constant: .sprite("head"))
        var boneTracks = NodeTracks()
        boneTracks.rotation = Track([Keyframe(frame: .zero, value: Degrees(-30), easing: .quadraticInOut(strength: 1)),
                                     Keyframe(frame: Frames(12), value: Degrees(30), easing: .linear)])
        var armTracks = NodeTracks()
        armTracks.content = Track([Keyframe(frame: .zero, value: .sprite("arm"))])
        armTracks.position = Track([Keyframe(frame: .zero, value: Vector2(x: 1, y: 2), easing: .flumpQuadratic(ease: -1))])

        let main = Composition(id: "main", name: "Main Timeline", duration: Frames(24), nodes: [
            Node(id: "mask-layer", name: "Mask", kind: .layer, isMask: true),
            Node(id: "mask-art", name: "Mask art", kind: .instance, parent: "mask-layer", tracks: maskTracks),
            Node(id: "layer", name: "Body", kind: .layer, maskedBy: "mask-layer"),
            Node(id: "everything", name: "Everything", kind: .instance, parent: "layer", tracks: tracks),
            Node(id: "group", name: "Loops", kind: .group),
        ] + loopNodes)
        let armCycle = Composition(id: "arm-cycle", name: "arm cycle", duration: Frames(12.5), nodes: [
            Node(id: "bone", name: "upperArm", kind: .bone, tracks: boneTracks),
            Node(id: "slot", name: "arm", kind: .slot, parent: "bone", tracks: armTracks),
        ])
        let empty = Composition(id: "empty", name: "empty", duration: .zero)

        return Document(
            name: "every \"feature\" — ünïcode", frameRate: FrameRate(29.97),
            stage: Rect(x: 0, y: 0, width: 550, height: 400),
            source: Provenance(format: .betterTextureAtlas, formatVersion: "BTA 1.2.0",
                               tool: "Adobe Animate (Better TA Extension)", toolVersion: "24.0.7.61",
                               variant: "optimized", files: ["Animation.json", "LIBRARY/arm.json", "metadata.json"]),
            assets: Assets(images: images, sprites: sprites),
            compositions: [main, armCycle, empty], root: "main",
            clips: [
                Clip(name: "idle", composition: "main", start: .zero, duration: Frames(12), loopCount: 0),
                Clip(name: "wave", composition: "arm-cycle", start: Frames(2.5), duration: Frames(10), loopCount: 3),
            ],
            diagnostics: [
                Diagnostic(severity: .warning, code: "filter-not-rendered", message: "glow filter is kept as data",
                           file: "Animation.json", path: "$.AN.TL.L[0].FR[0]", count: 80),
                Diagnostic(severity: .info, code: "default-frame-rate", message: "no frame rate; 24 fps assumed"),
            ])
    }

    private var everyFeatureBytes: [UInt8] { Self.everyFeatureDocument().jsonBytes() }

    // MARK: Positive

    func testEveryFeatureDocumentIsValid() throws {
        let document = Self.everyFeatureDocument()
        XCTAssertNoThrow(try document.validate(), "the test document itself must be a valid model")
        let result = try SchemaValidator.validate(document.jsonBytes())
        XCTAssertEqual(result.status, 0, "schema rejects a document the model writes:\n\(result.output)")
    }

    func testEveryFeatureDocumentUsesEveryFeature() throws {
        // Guards the test document: if the model grows a case, this fails until the document uses it.
        let text = String(decoding: everyFeatureBytes, as: UTF8.self)
        for easing in ["hold", "linear", "cubicBezier", "bezierPath", "flashQuadratic", "quadraticInOut",
                       "flumpQuadratic"] {
            XCTAssertTrue(text.contains("\"type\" : \"\(easing)\""), "easing \(easing) missing")
        }
        for content in ["none", "sprite", "composition"] {
            XCTAssertTrue(text.contains("\"type\" : \"\(content)\""), "content \(content) missing")
        }
        for kind in NodeKind.allCases { XCTAssertTrue(text.contains("\"kind\" : \"\(kind.rawValue)\""), "\(kind)") }
        for severity in Diagnostic.Severity.allCases {
            XCTAssertTrue(text.contains("\"severity\" : \"\(severity.rawValue)\""), "\(severity)")
        }
        for track in ["position", "scale", "rotation", "skew", "pivot", "opacity", "color", "visible", "content",
                      "drawOrder", "blendMode", "filters"] {
            XCTAssertTrue(text.contains("\"\(track)\" : ["), "track \(track) missing")
        }
        for key in ["\"sampledSteps\"", "\"isMask\"", "\"maskedBy\"", "\"stage\"", "\"formatVersion\"",
                    "\"toolVersion\"", "\"variant\"", "\"rotated\" : true"] {
            XCTAssertTrue(text.contains(key), "\(key) missing")
        }
    }

    func testEveryFeatureDocumentRoundTrips() throws {
        let document = Self.everyFeatureDocument()
        let read = try Document(jsonBytes: document.jsonBytes())
        XCTAssertEqual(read, document)
        XCTAssertEqual(read.jsonBytes(), document.jsonBytes())
    }

    func testMinimalDocumentIsValid() throws {
        let document = Document(
            name: "", frameRate: FrameRate(24), source: Provenance(format: .keyframe), assets: Assets(),
            compositions: [Composition(id: "root", name: "root", duration: .zero)], root: "root", clips: [])
        let result = try SchemaValidator.validate(document.jsonBytes())
        XCTAssertEqual(result.status, 0, result.output)
    }

    func testFormatExampleIsValidAndReadable() throws {
        // The complete example in docs/format.md, between the "example-document" markers.
        let url = SchemaValidator.packageRoot.appendingPathComponent("docs/format.md")
        let markdown = try String(contentsOf: url, encoding: .utf8)
        guard let start = markdown.range(of: "<!-- example-document -->"),
            let end = markdown.range(of: "<!-- /example-document -->", range: start.upperBound..<markdown.endIndex)
        else { return XCTFail("docs/format.md has no <!-- example-document --> block") }
        var block = String(markdown[start.upperBound..<end.lowerBound])
        block = block.replacingOccurrences(of: "```json", with: "").replacingOccurrences(of: "```", with: "")
        let bytes = Array(block.utf8)
        let document = try Document(jsonBytes: bytes)
        XCTAssertEqual(String(decoding: document.jsonBytes(), as: UTF8.self),
                       block.trimmingCharacters(in: .whitespacesAndNewlines) + "\n",
                       "the example should be written exactly as Keyframe writes it")
        let result = try SchemaValidator.validate(bytes)
        XCTAssertEqual(result.status, 0, result.output)
    }

    // MARK: Negative

    /// The every-feature document with `original` replaced by `replacement` (which must occur).
    private func broken(_ original: String, _ replacement: String, file: StaticString = #filePath,
                        line: UInt = #line) -> [UInt8] {
        let text = String(decoding: everyFeatureBytes, as: UTF8.self)
        XCTAssertTrue(text.contains(original), "test setup: \(original) not in the document", file: file, line: line)
        guard let range = text.range(of: original) else { return [] }
        return Array(text.replacingCharacters(in: range, with: replacement).utf8)
    }

    func testBrokenDocumentsFail() throws {
        let cases: [String: [UInt8]] = [
            "unknown-easing": broken("\"type\" : \"flumpQuadratic\"", "\"type\" : \"bounce\""),
            "missing-frame": broken("\"frame\" : 0, ", ""),
            "easing-on-held-track": broken("\"pivot\" : [\n", "\"pivot\" : [\n{ \"easing\" : { \"type\" : \"linear\" }, \"frame\" : -1, \"value\" : { \"x\" : 0, \"y\" : 0 } },\n"),
            "unknown-loop-mode": broken("\"loop\" : \"playOnce\"", "\"loop\" : \"pingPong\""),
            "unknown-key": broken("\"frameRate\" : 29.97", "\"frameRate\" : 29.97, \"fps\" : 30"),
            "wrong-schema-version": broken("\"schemaVersion\" : 1", "\"schemaVersion\" : 2"),
            "unknown-sprite": broken("\"sprite\" : \"body\"", "\"sprite\" : \"nobody\""),
            "cubic-without-y2": broken(", \"y2\" : 1.2", ""),
            "negative-count": broken("\"count\" : 80", "\"count\" : 0"),
        ]
        // One run of the script for all cases, plus the valid document as a control: the script must report each
        // broken file with a located message, the control as valid, and exit 1 overall.
        var documents = cases
        documents["control"] = everyFeatureBytes
        let result = try SchemaValidator.validate(documents)
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.output.contains("control.json: valid"), result.output)
        for name in cases.keys.sorted() {
            XCTAssertTrue(result.output.contains("\(name).json: $"), "\(name) should fail validation:\n\(result.output)")
            XCTAssertFalse(result.output.contains("\(name).json: valid"), "\(name) passed validation")
        }
        XCTAssertTrue(result.output.contains("\(cases.count) of \(cases.count + 1) file(s) invalid"), result.output)
    }

    func testUnknownEasingIsNamedInTheMessage() throws {
        let result = try SchemaValidator.validate(broken("\"type\" : \"flumpQuadratic\"", "\"type\" : \"bounce\""))
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.output.contains("'bounce' is not one of"), result.output)
        XCTAssertTrue(result.output.contains(".easing.type"), result.output)
    }

    // MARK: Schema vs Swift enums (no Python needed)

    private func schema() throws -> JSONValue {
        let url = SchemaValidator.packageRoot.appendingPathComponent("docs/keyframe.schema.json")
        return try JSONParser.parse(Array(try Data(contentsOf: url)))
    }

    private func enumValues(_ schema: JSONValue, _ path: [String]) -> Set<String> {
        var value: JSONValue? = schema
        for key in path { value = value?[key] }
        return Set(value?["enum"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }

    func testSchemaEnumsMatchTheModel() throws {
        let schema = try schema()
        XCTAssertEqual(enumValues(schema, ["$defs", "node", "properties", "kind"]),
                       Set(NodeKind.allCases.map(\.rawValue)))
        XCTAssertEqual(enumValues(schema, ["$defs", "loopMode"]), Set(LoopMode.allCases.map(\.rawValue)))
        XCTAssertEqual(enumValues(schema, ["$defs", "clock"]), Set(CompositionClock.allCases.map(\.rawValue)))
        XCTAssertEqual(enumValues(schema, ["$defs", "blendMode"]), Set(BlendMode.allCases.map(\.rawValue)))
        XCTAssertEqual(enumValues(schema, ["$defs", "diagnostic", "properties", "severity"]),
                       Set(Diagnostic.Severity.allCases.map(\.rawValue)))
        XCTAssertEqual(enumValues(schema, ["$defs", "provenance", "properties", "format"]),
                       Set(SourceFormat.allCases.map(\.rawValue)))
        XCTAssertEqual(schema["properties"]?["schemaVersion"]?["const"], .number(Double(Document.schemaVersion)))
        XCTAssertEqual(schema["properties"]?["format"]?["const"], .string(Document.formatName))
    }

    func testSchemaUnitsMatchTheWriter() throws {
        let schema = try schema()
        let written = Self.everyFeatureDocument().json["units"]?.objectValue ?? [:]
        let properties = schema["properties"]?["units"]?["properties"]?.objectValue ?? [:]
        XCTAssertEqual(Set(written.keys), Set(properties.keys))
        for (key, value) in written { XCTAssertEqual(properties[key]?["const"], value, key) }
    }

    func testEveryObjectInTheSchemaIsClosedAndDescribed() throws {
        // Every object schema sets additionalProperties: false (except the oneOf dispatchers, whose branches do),
        // and every property has a description.
        func visit(_ value: JSONValue, _ path: String) {
            guard let object = value.objectValue else {
                for (index, element) in (value.arrayValue ?? []).enumerated() { visit(element, "\(path)[\(index)]") }
                return
            }
            if object["type"] == "object", object["oneOf"] == nil {
                XCTAssertEqual(object["additionalProperties"], .bool(false), "\(path) is open")
            }
            // Track items refine the keyframe's `value` ({"$ref": …, "properties": {"value": …}}); the keyframe
            // definitions describe `value`, so the refinement needs no description of its own.
            if !path.hasSuffix(".items") {
                for (name, property) in object["properties"]?.objectValue ?? [:] {
                    XCTAssertNotNil(property["description"], "\(path).properties.\(name) has no description")
                }
            }
            for (key, child) in object { visit(child, "\(path).\(key)") }
        }
        visit(try schema(), "$")
    }
}
