import Foundation
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Bad input gets a clear error naming the file and the place, never a crash, a hang or a partial document.
final class AnimateBadInputTests: XCTestCase {
    private func importError(_ fixture: AnimateFixture, file: StaticString = #filePath, line: UInt = #line) -> ImportError? {
        importFailure(at: fixture.folder, file: file, line: line)
    }

    private let sprite = #"{"ASI":{"N":"0000","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,5,6,0,1]}}"#

    func testInvalidJSONNamesFileLineAndColumn() throws {
        let fixture = try AnimateFixture(animation: "{\"AN\": {\n  \"N\": \"x\",\n  \"SN\" \"root\"\n}}")
        let error = try XCTUnwrap(importError(fixture))
        XCTAssertEqual("\(error)", "Animation.json:3:8: invalid JSON: expected ':' after the member name \"SN\"")
    }

    func testInvalidSpritemapJSONNamesThatFile() throws {
        let fixture = try AnimateFixture(
            animation: AnimateFixture.animation(frames: "[{\"I\":0,\"DU\":1,\"E\":[\(sprite)]}]"),
            spritemap: "{\"ATLAS\": {\"SPRITES\": [}")
        let error = try XCTUnwrap(importError(fixture))
        XCTAssert("\(error)".hasPrefix("spritemap1.json:1:24: invalid JSON"), "\(error)")
    }

    func testWrongTypeReportsJSONPath() throws {
        let frames = "[{\"I\":0,\"DU\":1,\"E\":[]},{\"I\":1,\"DU\":\"two\",\"E\":[]}]"
        let fixture = try AnimateFixture(animation: AnimateFixture.animation(frames: frames))
        let error = try XCTUnwrap(importError(fixture))
        XCTAssertEqual("\(error)", "Animation.json: at AN.TL.L[0].FR[1].DU: expected a number, found string")
    }

    func testMissingKeyReportsJSONPathOfElement() throws {
        let frames = "[{\"I\":0,\"DU\":1,\"E\":[{\"SI\":{\"ST\":\"G\"}}]}]"
        let fixture = try AnimateFixture(animation: AnimateFixture.animation(frames: frames))
        let error = try XCTUnwrap(importError(fixture))
        XCTAssertEqual("\(error)", #"Animation.json: at AN.TL.L[0].FR[0].E[0].SI: missing required key "SYMBOL_name" or "SN""#)
    }

    func testMissingSpriteIsNamed() throws {
        let frames = "[{\"I\":0,\"DU\":1,\"E\":[{\"ASI\":{\"N\":\"0042\",\"M3D\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}}]}]"
        let fixture = try AnimateFixture(animation: AnimateFixture.animation(frames: frames))
        let error = try XCTUnwrap(importError(fixture))
        XCTAssertEqual(error.kind, .missingSprite(name: "0042", file: "Animation.json", path: "AN.TL.L[0].FR[0].E[0].ASI"))
        XCTAssert("\(error)".contains("sprite \"0042\" is not in any spritemap"))
    }

    func testMissingAtlasImageIsNamed() throws {
        let fixture = try AnimateFixture(
            animation: AnimateFixture.animation(frames: "[{\"I\":0,\"DU\":1,\"E\":[\(sprite)]}]"), png: false)
        let error = try XCTUnwrap(importError(fixture))
        XCTAssert("\(error)".contains("spritemap1.png: atlas image not found"), "\(error)")
    }

    func testMissingSpritemapIsReported() throws {
        let fixture = try AnimateFixture(
            animation: AnimateFixture.animation(frames: "[{\"I\":0,\"DU\":1,\"E\":[]}]"), spritemap: nil)
        let error = try XCTUnwrap(importError(fixture))
        XCTAssert("\(error)".contains("no spritemap*.json"), "\(error)")
    }

    func testDirectSymbolCycleIsAnError() throws {
        let symbols = #"{"SN":"loop","TL":{"L":[{"LN":"a","FR":[{"I":0,"DU":1,"E":[{"SI":{"SN":"loop","ST":"G","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}}]}]}]}}"#
        let frames = #"[{"I":0,"DU":1,"E":[{"SI":{"SN":"loop","ST":"G","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}}]}]"#
        let fixture = try AnimateFixture(animation: AnimateFixture.animation(frames: frames, symbols: symbols))
        let error = try XCTUnwrap(importError(fixture))
        XCTAssertEqual(error.kind, .symbolCycle(["loop", "loop"]))
    }

    func testIndirectSymbolCycleThroughRootIsAnError() throws {
        func symbol(_ name: String, contains child: String) -> String {
            #"{"SN":"\#(name)","TL":{"L":[{"LN":"a","FR":[{"I":0,"DU":1,"E":[{"SI":{"SN":"\#(child)","ST":"MC","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}}]}]}]}}"#
        }
        let frames = #"[{"I":0,"DU":1,"E":[{"SI":{"SN":"a","ST":"G","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}}]}]"#
        let symbols = [symbol("a", contains: "b"), symbol("b", contains: "c"), symbol("c", contains: "root")].joined(separator: ",")
        let fixture = try AnimateFixture(animation: AnimateFixture.animation(frames: frames, symbols: symbols))
        let error = try XCTUnwrap(importError(fixture))
        XCTAssertEqual(error.kind, .symbolCycle(["root", "a", "b", "c", "root"]))
    }

    func testAbsurdDurationIsRejectedQuickly() throws {
        let frames = "[{\"I\":0,\"DU\":1000000000,\"E\":[\(sprite)]}]"
        let fixture = try AnimateFixture(animation: AnimateFixture.animation(frames: frames))
        let start = ContinuousClock.now
        let error = try XCTUnwrap(importError(fixture))
        XCTAssert("\(error)".hasPrefix("Animation.json: at AN.TL.L[0].FR[0].DU: frame duration 1000000000 is out of range"), "\(error)")
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5), "rejected without expanding the frames")
    }

    func testOverlappingKeyframesAreRejected() throws {
        let frames = "[{\"I\":0,\"DU\":5,\"E\":[]},{\"I\":3,\"DU\":1,\"E\":[]}]"
        let fixture = try AnimateFixture(animation: AnimateFixture.animation(frames: frames))
        let error = try XCTUnwrap(importError(fixture))
        XCTAssert("\(error)".contains("AN.TL.L[0].FR[1].I: keyframe starts at frame 3"), "\(error)")
    }

    func testUndefinedSymbolIsNamed() throws {
        let frames = #"[{"I":0,"DU":1,"E":[{"SI":{"SN":"ghost","ST":"G","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}}]}]"#
        let fixture = try AnimateFixture(animation: AnimateFixture.animation(frames: frames))
        let error = try XCTUnwrap(importError(fixture))
        XCTAssertEqual("\(error)", #"Animation.json: at AN.TL.L[0].FR[0].E[0].SI.SN: symbol "ghost" is not defined (not in the symbol dictionary)"#)
    }

    func testNotAnExportIsRecognisedAsSuch() throws {
        let folder = try TestPaths.temporaryFolder()
        XCTAssertThrowsError(try Importer.importDocument(at: folder)) { error in
            XCTAssert("\(error)".contains("no Animation.json"), "\(error)")
        }
        XCTAssertThrowsError(try Importer.importDocument(at: folder.appendingPathComponent("nope"))) { error in
            XCTAssert("\(error)".contains("no such file or folder"), "\(error)")
        }
    }

    func testStrictTurnsWarningsIntoErrors() throws {
        // A bevel: kept as data, not drawn, so a warning.
        let frames = #"[{"I":0,"DU":1,"E":[{"SI":{"SN":"s","ST":"G","F":{"BF":{"BLX":4}},"M3D":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}}]}]"#
        let symbols = #"{"SN":"s","TL":{"L":[{"LN":"a","FR":[{"I":0,"DU":1,"E":[{"ASI":{"N":"0000","M3D":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}}]}]}]}}"#
        let fixture = try AnimateFixture(animation: AnimateFixture.animation(frames: frames, symbols: symbols))
        let lenient = try Importer.importDocument(at: fixture.folder)
        XCTAssertEqual(lenient.diagnostics.map(\.code), ["filter-not-rendered"])
        XCTAssertEqual(lenient.diagnostics.first?.path, "AN.TL.L[0].FR[0]")
        XCTAssertThrowsError(try Importer.importDocument(at: fixture.folder, options: ImportOptions(strict: true))) { error in
            XCTAssert("\(error)".contains("filter-not-rendered"), "\(error)")
        }
    }

    func testUnknownClipIsAnErrorListingClips() throws {
        let frames = "[{\"I\":0,\"DU\":2,\"N\":\"idle\",\"E\":[\(sprite)]},{\"I\":2,\"DU\":3,\"N\":\"run\",\"E\":[\(sprite)]}]"
        let fixture = try AnimateFixture(animation: AnimateFixture.animation(frames: frames))
        XCTAssertThrowsError(try Importer.importDocument(at: fixture.folder, options: ImportOptions(clip: "jump"))) { error in
            XCTAssert("\(error)".contains(#"no clip named "jump" (clips: "idle", "run", "fixture")"#), "\(error)")
        }
        let only = try Importer.importDocument(at: fixture.folder, options: ImportOptions(clip: "run"))
        XCTAssertEqual(only.clips.map(\.name), ["run"])
        assertClose(only.clips[0].duration.value, 3)
    }

    func testGuideLayersAreNotDrawn() throws {
        let animation = """
            {"AN":{"N":"g","SN":"root","TL":{"L":[
              {"LN":"path","LT":"Gd","FR":[{"I":0,"DU":2,"E":[\(sprite)]}]},
              {"LN":"art","FR":[{"I":0,"DU":2,"E":[\(sprite)]}]}]}},"MD":{"FRT":24}}
            """
        let document = try Importer.importDocument(at: try AnimateFixture(animation: animation).folder)
        XCTAssertEqual(document.compositions[0].nodes.map(\.name), ["art", "art #0"])
        XCTAssertEqual(document.diagnostics.map(\.code), ["guide-layer-skipped"])
    }
}
