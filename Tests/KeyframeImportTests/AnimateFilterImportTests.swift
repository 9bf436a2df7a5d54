import Foundation
import KeyframeImport
import KeyframeJSON
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Animate filters in every spelling the exporters write become Flash's parameters (format.md §3.7); the kinds
/// nothing draws stay as they were, with a warning.
final class AnimateFilterImportTests: XCTestCase {
    /// A root whose only element is a symbol instance carrying `filters` (JSON text of the `F` value).
    func document(filters: String, extraFiles: [String: String] = [:]) throws -> Document {
        let symbols = #"{"SN":"art","TL":{"L":[{"LN":"a","FR":[{"I":0,"DU":1,"E":[{"ASI":{"N":"0000","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}}]}]}]}}"#
        let frames = #"[{"I":0,"DU":1,"E":[{"SI":{"SN":"art","ST":"G","FF":0,"LP":"LP","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,5,6,0,1],"F":"#
            + filters + "}}]}]"
        let fixture = try AnimateFixture(animation: AnimateFixture.animation(frames: frames, symbols: symbols),
                                         extraFiles: extraFiles)
        return try Importer.importDocument(at: fixture.folder)
    }

    func filters(of document: Document) throws -> [Filter] {
        let root = try XCTUnwrap(document.compositions.first { $0.id == document.root })
        let node = try XCTUnwrap(root.nodes.first { $0.tracks.filters != nil })
        return try XCTUnwrap(node.tracks.filters?.keyframes.first?.value)
    }

    func testOfficialShortKeysBecomeFlashParameters() throws {
        let document = try self.document(filters: """
            {"GF":{"BLX":7,"BLY":9,"C":"#66CCFF","A":0.5,"Q":3,"STR":3,"KK":false,"IN":true},
             "DSF":{"DST":6,"AL":135,"C":"#102030","A":0.8,"BLX":4,"BLY":5,"STR":1.5,"Q":2,"IN":false,"KK":true,"HO":false},
             "BLF":{"BLX":12,"BLY":1,"Q":1},
             "ACF":{"BRT":-27,"CT":18,"SAT":9,"H":-8}}
            """)
        XCTAssertFalse(document.diagnostics.contains { $0.code == "filter-not-rendered" }, "\(document.diagnostics)")
        let list = try filters(of: document)
        // Object keys in order: ACF, BLF, DSF, GF.
        XCTAssertEqual(list.map(\.kind), ["adjustColor", "blur", "dropShadow", "glow"])
        XCTAssertEqual(list[0].effect, .adjustColor(.init(brightness: -27, contrast: 18, saturation: 9, hue: -8)))
        XCTAssertEqual(list[1].effect, .blur(.init(blurX: 12, blurY: 1, quality: 1)))
        XCTAssertEqual(list[2].effect, .dropShadow(.init(
            blur: .init(blurX: 4, blurY: 5, quality: 2), red: 0x10, green: 0x20, blue: 0x30, alpha: 0.8, strength: 1.5,
            inner: false, knockout: true, distance: 6, angle: 135, hideObject: false)))
        XCTAssertEqual(list[3].effect, .glow(.init(
            blur: .init(blurX: 7, blurY: 9, quality: 3), red: 0x66, green: 0xCC, blue: 0xFF, alpha: 0.5, strength: 3,
            inner: true, knockout: false)))
        // The parameters are written under Flash's names, every one of them.
        XCTAssertEqual(list[3].parameters, [
            "blurX": 7, "blurY": 9, "quality": 3, "color": "#66CCFF", "alpha": 0.5, "strength": 3, "inner": true,
            "knockout": false,
        ])
    }

    /// The 2018 long spelling (openfl-fx-boule's shape) reads the same.
    func testLongNamesReadTheSame() throws {
        let document = try self.document(filters: """
            {"GlowFilter":{"blurX":20,"blurY":20,"color":"#6633FF","alpha":1,"quality":3,"strength":2,"knockout":false,"inner":false}}
            """)
        XCTAssertEqual(try filters(of: document).first?.effect, .glow(.init(
            blur: .init(blurX: 20, blurY: 20, quality: 3), red: 0x66, green: 0x33, blue: 0xFF, alpha: 1, strength: 2,
            inner: false, knockout: false)))
    }

    /// BetterTextureAtlas writes JSFL's values: strength in percent, `D`/`A` for distance and angle, colours with an
    /// alpha byte, quality as a word in some versions; its arrays keep their order.
    func testBetterTextureAtlasSpellings() throws {
        let document = try self.document(filters: """
            [{"N":"dropShadowFilter","BLX":4,"BLY":4,"D":5,"KK":false,"IN":false,"HO":true,"STR":150,"A":45,"C":"#00000080","Q":2},
             {"name":"glowFilter","blurX":5.2,"blurY":5.2,"inner":false,"knockout":false,"strength":25500,"color":"#FFFFFF","quality":"high"},
             {"N":"BLF","BLX":9,"BLY":9,"Q":3}]
            """)
        let list = try filters(of: document)
        XCTAssertEqual(list.map(\.kind), ["dropShadow", "glow", "blur"])
        XCTAssertEqual(list[0].effect, .dropShadow(.init(
            blur: .init(blurX: 4, blurY: 4, quality: 2), red: 0, green: 0, blue: 0, alpha: Double(0x80) / 255,
            strength: 1.5, inner: false, knockout: false, distance: 5, angle: 45, hideObject: true)))
        XCTAssertEqual(list[1].effect, .glow(.init(
            blur: .init(blurX: 5.2, blurY: 5.2, quality: 3), red: 255, green: 255, blue: 255, alpha: 1, strength: 255,
            inner: false, knockout: false)))
        XCTAssertEqual(list[2].effect, .blur(.init(blurX: 9, blurY: 9, quality: 3)))
    }

    /// Parameters a source leaves out take Flash's defaults (ActionScript's constructors).
    func testMissingParametersTakeFlashsDefaults() throws {
        let list = try filters(of: try document(filters: ##"{"GF":{},"DSF":{"C":"#FF0000"},"BLF":{"Q":2}}"##))
        XCTAssertEqual(list[0].effect, .blur(.init(blurX: 4, blurY: 4, quality: 2)))
        XCTAssertEqual(list[1].effect, .dropShadow(.init(
            blur: .init(blurX: 4, blurY: 4, quality: 1), red: 255, green: 0, blue: 0, alpha: 1, strength: 1,
            inner: false, knockout: false, distance: 4, angle: 45, hideObject: false)))
        XCTAssertEqual(list[2].effect, FilterEffect.glow(FilterEffect.defaultGlow))
    }

    /// What is not drawn stays as it was and is reported; what is drawn is not.
    func testUndrawnFiltersKeepTheirFieldsAndAreReported() throws {
        let document = try self.document(filters: """
            {"BF":{"DST":3,"AL":45,"HC":"#FFFFFF","HA":1,"SC":"#000000","SA":1,"BLX":4,"BLY":4,"STR":1,"Q":1,"TP":"inner","KK":false},
             "GF":{"BLX":"wide","BLY":4},
             "BLF":{"BLX":3,"BLY":3,"Q":1}}
            """)
        let list = try filters(of: document)
        XCTAssertEqual(list.map(\.kind), ["bevel", "blur", "glow"])
        XCTAssertEqual(list[0].parameters["TP"], "inner", "a bevel keeps the source's fields")
        XCTAssertNil(list[0].effect)
        XCTAssertNotNil(list[1].effect)
        XCTAssertEqual(list[2].parameters["BLX"], "wide", "an unreadable glow keeps the source's fields")
        XCTAssertNil(list[2].effect)
        let warnings = document.diagnostics.filter { $0.code == "filter-not-rendered" }
        XCTAssertEqual(warnings.map(\.message).sorted(), [
            "bevel filter is kept as data but not rendered",
            "glow filter has parameters that cannot be read; kept as data but not rendered",
        ])
    }

    /// A filter written by ``Filter/init(_:)`` reads back as the same effect, and a normalized document keeps it.
    func testEffectsRoundTripThroughTheDocument() throws {
        let effects: [FilterEffect] = [
            .blur(.init(blurX: 6.5, blurY: 14.25, quality: 2)),
            .glow(.init(blur: .init(blurX: 3, blurY: 4, quality: 1), red: 1, green: 2, blue: 3, alpha: 0.25,
                        strength: 4.5, inner: true, knockout: true)),
            .dropShadow(.init(blur: .init(blurX: 1, blurY: 2, quality: 3), red: 250, green: 128, blue: 7, alpha: 1,
                              strength: 0.5, inner: false, knockout: false, distance: -3, angle: 200.5,
                              hideObject: true)),
            .adjustColor(.init(brightness: 1, contrast: -2, saturation: 3, hue: -4)),
        ]
        for effect in effects {
            let filter = Filter(effect)
            XCTAssertEqual(filter.effect, effect)
            let reread = try Filter(json: JSONCursor(try JSONParser.parse(JSONWriter.write(filter.json))))
            XCTAssertEqual(reread.effect, effect)
        }
        // A parameter missing or of the wrong type: not drawn.
        var broken = Filter(effects[1])
        if case .object(var members) = broken.parameters {
            members["strength"] = nil
            broken.parameters = .object(members)
        }
        XCTAssertNil(broken.effect)
        XCTAssertNil(Filter(kind: "blur", parameters: ["blurX": 1, "blurY": 1, "quality": 1.5]).effect)
        XCTAssertNil(Filter(kind: "glow", parameters: Filter(effects[1]).parameters.replacing("color", "red")).effect)
    }

    /// The colour matrix of Flash's AdjustColor at points worked out by hand from its definition.
    func testAdjustColorMatrixAtKnownPoints() {
        func matrix(_ b: Double, _ c: Double, _ s: Double, _ h: Double) -> [Double] {
            FilterEffect.AdjustColor(brightness: b, contrast: c, saturation: s, hue: h).matrix
        }
        let identity: [Double] = [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0]
        XCTAssertEqual(matrix(0, 0, 0, 0), identity)
        // Brightness 30 adds 30 to red, green and blue.
        XCTAssertEqual(matrix(30, 0, 0, 0), [1, 0, 0, 0, 30, 0, 1, 0, 0, 30, 0, 0, 1, 0, 30, 0, 0, 0, 1, 0])
        // Contrast 50: table step 1.0, v = 254, scale 2 about 63.5 (offset −63.5).
        XCTAssertEqual(matrix(0, 50, 0, 0), [2, 0, 0, 0, -63.5, 0, 2, 0, 0, -63.5, 0, 0, 2, 0, -63.5, 0, 0, 0, 1, 0])
        // Contrast 50.9 uses the step at 50 (Flash indexes the table with int(contrast)).
        XCTAssertEqual(matrix(0, 50.9, 0, 0), matrix(0, 50, 0, 0))
        // Saturation −100: every row is the luminance.
        let grey = matrix(0, 0, -100, 0)
        for row in 0..<3 {
            XCTAssertEqual(Array(grey[row * 5..<row * 5 + 3]), [0.3086, 0.6094, 0.0820])
        }
        // Brightness is applied before contrast: B then C gives offset 2·30 − 63.5.
        XCTAssertEqual(matrix(30, 50, 0, 0)[4], 2 * 30 - 63.5, accuracy: 1e-12)
        // Hue 180: cos −1, sin 0 → base − cos part; red row = (2·0.213 − 1, 2·0.715, 2·0.072).
        let hue = matrix(0, 0, 0, 180)
        XCTAssertEqual(hue[0], 2 * 0.213 - 1, accuracy: 1e-12)
        XCTAssertEqual(hue[1], 2 * 0.715, accuracy: 1e-12)
        XCTAssertEqual(hue[2], 2 * 0.072, accuracy: 1e-12)
        // Out-of-range inputs are clamped.
        XCTAssertEqual(matrix(500, 0, 0, 0), matrix(100, 0, 0, 0))
    }
}

private extension JSONValue {
    func replacing(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members[key] = value
        return .object(members)
    }
}
