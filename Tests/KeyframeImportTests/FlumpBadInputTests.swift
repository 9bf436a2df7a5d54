import Foundation
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Bad Flump input gets a clear error naming the file and the place (line and column, or JSON path), never a crash
/// or a partial document.
final class FlumpBadInputTests: XCTestCase {
    private func importError(_ fixture: FlumpFixture, file: StaticString = #filePath, line: UInt = #line) -> ImportError? {
        importFailure(at: fixture.folder, file: file, line: line)
    }

    private let oneMovie = #"[{"id":"m","layers":[{"name":"l","keyframes":[{"index":0,"duration":2,"ref":"a"}]}]}]"#

    func testInvalidJSONNamesFileLineAndColumn() throws {
        let fixture = try FlumpFixture("{\"frameRate\": 24,\n  \"movies\": [}")
        let error = try XCTUnwrap(importError(fixture))
        XCTAssert("\(error)".hasPrefix("library.json:2:14: invalid JSON"), "\(error)")
    }

    func testInvalidXMLNamesFileLineAndColumn() throws {
        let xml = """
            <resources md5="x">
              <movie name="m" frameRate="24">
                <layer name="l">
              </movie>
            </resources>
            """
        let fixture = try FlumpFixture(xml, file: "library.xml")
        let error = try XCTUnwrap(importError(fixture))
        XCTAssertEqual(error.kind, .markup(
            file: "library.xml", line: 4, column: 3,
            message: "invalid XML: the end tag </movie> does not match <layer> opened at line 3, column 5"))
        XCTAssertEqual("\(error)",
                       "library.xml:4:3: invalid XML: the end tag </movie> does not match <layer> opened at line 3, column 5")
    }

    func testBadXMLAttributeValueNamesItsLineAndColumn() throws {
        let xml = """
            <resources md5="x">
              <movie name="m" frameRate="24">
                <layer name="l">
                  <kf duration="2" ref="a" loc="1;2"/>
                </layer>
              </movie>
              <textureGroups><textureGroup scaleFactor="1"><atlas file="atlas0.png">
                <texture name="a" rect="0,0,2,2" origin="1,1"/>
              </atlas></textureGroup></textureGroups>
            </resources>
            """
        let fixture = try FlumpFixture(xml, file: "anim.xml")
        let error = try XCTUnwrap(importError(fixture))
        XCTAssertEqual("\(error)", "anim.xml:4:32: <kf> attribute loc: expected numbers, found \"1;2\"")
    }

    func testWrongTypeReportsJSONPath() throws {
        let movies = #"[{"id":"m","layers":[{"name":"l","keyframes":[{"index":0,"duration":"two","ref":"a"}]}]}]"#
        let fixture = try FlumpFixture(FlumpFixture.json(movies: movies))
        let error = try XCTUnwrap(importError(fixture))
        XCTAssertEqual("\(error)", "library.json: at movies[0].layers[0].keyframes[0].duration: expected a number, found string")
    }

    func testMissingRequiredKeyReportsJSONPath() throws {
        let movies = #"[{"id":"m","layers":[{"name":"l","keyframes":[{"duration":2,"ref":"a"}]}]}]"#
        let fixture = try FlumpFixture(FlumpFixture.json(movies: movies))
        let error = try XCTUnwrap(importError(fixture))
        XCTAssertEqual("\(error)", #"library.json: at movies[0].layers[0].keyframes[0]: missing required key "index""#)
    }

    func testMissingAtlasImageIsNamed() throws {
        let fixture = try FlumpFixture(FlumpFixture.json(movies: oneMovie), atlases: [:])
        let error = try XCTUnwrap(importError(fixture))
        guard case .missingFile(let path, let reason) = error.kind else { return XCTFail("\(error)") }
        XCTAssertEqual(path, "atlas0.png")
        XCTAssertEqual(reason, "atlas image not found (named by library.json at textureGroups[0].atlases[0])")
    }

    func testUnknownRefIsNamedWithItsPath() throws {
        let movies = #"[{"id":"m","layers":[{"name":"l","keyframes":[{"index":0,"duration":2,"ref":"ghost"}]}]}]"#
        let fixture = try FlumpFixture(FlumpFixture.json(movies: movies))
        let error = try XCTUnwrap(importError(fixture))
        XCTAssertEqual(
            "\(error)",
            #"library.json: at movies[0].layers[0].keyframes[0].ref: ref "ghost" names neither a texture of the texture group at scale factor 1 nor a movie"#)
    }

    func testUnknownRefInXMLNamesLineAndColumn() throws {
        let xml = """
            <resources md5="x">
              <movie name="m" frameRate="24"><layer name="l"><kf duration="2" ref="ghost"/></layer></movie>
              <textureGroups><textureGroup scaleFactor="1"><atlas file="atlas0.png">
                <texture name="a" rect="0,0,2,2" origin="1,1"/>
              </atlas></textureGroup></textureGroups>
            </resources>
            """
        let fixture = try FlumpFixture(xml, file: "library.xml")
        let error = try XCTUnwrap(importError(fixture))
        XCTAssertEqual(
            "\(error)",
            #"library.xml:2:67: ref "ghost" names neither a texture of the texture group at scale factor 1 nor a movie"#)
    }

    func testRefCycleIsReportedWithItsChain() throws {
        let movies = """
            [{"id":"outer","layers":[{"name":"l","keyframes":[{"index":0,"duration":1,"ref":"inner"}]}]},
             {"id":"inner","layers":[{"name":"l","keyframes":[{"index":0,"duration":1,"ref":"deep"}]}]},
             {"id":"deep","layers":[{"name":"l","keyframes":[{"index":0,"duration":1,"ref":"inner"}]}]}]
            """
        let fixture = try FlumpFixture(FlumpFixture.json(movies: movies))
        let error = try XCTUnwrap(importError(fixture))
        XCTAssertEqual(error.kind, .symbolCycle(["inner", "deep", "inner"]))
    }

    func testMovieContainingItselfIsACycle() throws {
        let movies = #"[{"id":"m","layers":[{"name":"l","keyframes":[{"index":0,"duration":1,"ref":"m"}]}]}]"#
        let fixture = try FlumpFixture(FlumpFixture.json(movies: movies))
        XCTAssertEqual(try XCTUnwrap(importError(fixture)).kind, .symbolCycle(["m", "m"]))
    }

    func testOverlappingKeyframesAreAnError() throws {
        let movies = """
            [{"id":"m","layers":[{"name":"l","keyframes":[{"index":0,"duration":3,"ref":"a"},{"index":2,"duration":1,"ref":"a"}]}]}]
            """
        let fixture = try FlumpFixture(FlumpFixture.json(movies: movies))
        let error = try XCTUnwrap(importError(fixture))
        XCTAssertEqual("\(error)",
                       "library.json: at movies[0].layers[0].keyframes[1]: keyframe starts at frame 2, inside the previous keyframe (which ends at 3)")
    }

    func testHugeDurationIsRefused() throws {
        let movies = #"[{"id":"m","layers":[{"name":"l","keyframes":[{"index":0,"duration":1000000000,"ref":"a"}]}]}]"#
        let fixture = try FlumpFixture(FlumpFixture.json(movies: movies))
        let error = try XCTUnwrap(importError(fixture))
        XCTAssert("\(error)".contains("timelines are limited to 100000 frames"), "\(error)")
    }

    func testTextureOutsideItsAtlasIsAnError() throws {
        let library = """
            {"frameRate":24,"movies":[],"textureGroups":[{"scaleFactor":1,"atlases":[{"file":"atlas0.png","textures":[
              {"symbol":"a","rect":[2,2,4,4],"origin":[0,0]}]}]}]}
            """
        let fixture = try FlumpFixture(library)
        let error = try XCTUnwrap(importError(fixture))
        XCTAssertEqual("\(error)",
                       #"library.json: at textureGroups[0].atlases[0].textures[0]: texture "a" (2,2 4×4) lies outside atlas0.png (4×4)"#)
    }

    func testPreReleaseFormatIsNamed() throws {
        let library = #"{"version":1,"checksum":"x","movies":[{"symbol":"m","layers":[]}],"atlases":[]}"#
        let fixture = try FlumpFixture(library)
        let error = try XCTUnwrap(importError(fixture))
        XCTAssertEqual("\(error)", #"library.json: at $: this is flambe's pre-release format of Flump data ("version", "checksum", no "frameRate"); Flump's own schemas (the 2012 resources.json and later) are read"#)
    }

    func testOutOfRangeNumbersAreErrorsNotTraps() throws {
        let tint = #"[{"id":"m","layers":[{"name":"l","keyframes":[{"index":0,"duration":1,"ref":"a","tint":[0.5,1e300]}]}]}]"#
        let error = try XCTUnwrap(importError(try FlumpFixture(FlumpFixture.json(movies: tint))))
        XCTAssertEqual("\(error)", "library.json: at movies[0].layers[0].keyframes[0].tint[1]: a tint colour is an integer 0…0xFFFFFF, found 1e+300")
        let xml = """
            <resources md5="x"><movie name="m" frameRate="24"><layer name="l">
            <kf index="9223372036854775807" duration="9" ref="a"/><kf duration="1" ref="a"/></layer></movie>
            <textureGroups><textureGroup scaleFactor="1"><atlas file="atlas0.png">
            <texture name="a" rect="0,0,2,2" origin="1,1"/></atlas></textureGroup></textureGroups></resources>
            """
        let xmlError = try XCTUnwrap(importError(try FlumpFixture(xml, file: "library.xml")))
        XCTAssertEqual("\(xmlError)", "library.xml:2:5: <kf> attribute index: 9223372036854775807 is out of range")
    }

    /// Folder detection: an XML library under another name is found by its `<resources>` root; another XML (a
    /// Starling atlas) is not taken for Flump: it is a sprite sheet.
    func testFolderDetectionLooksAtTheXMLRoot() throws {
        let flump = try FlumpFixture("<resources md5=\"x\"/>", file: "anim.xml")
        XCTAssertEqual(try Importer.detect(flump.folder).file, "anim.xml")
        let starling = try FlumpFixture("<TextureAtlas imagePath=\"atlas0.png\"/>", file: "atlas.xml")
        XCTAssertEqual(try Importer.detect(starling.folder).format, .spriteSheet)
    }

    func testDoctypeIsRefused() throws {
        let fixture = try FlumpFixture("<!DOCTYPE r [<!ENTITY x \"y\">]>\n<resources/>", file: "library.xml")
        let error = try XCTUnwrap(importError(fixture))
        XCTAssertEqual("\(error)", "library.xml:1:1: invalid XML: document type declarations (<!DOCTYPE …>) are not supported")
    }

    /// Every prefix of a valid JSON and a valid XML library is either a clean error or (for the complete text) a
    /// document: nothing crashes, nothing half-converted comes out.
    func testTruncatedLibrariesNeverCrash() throws {
        let json = FlumpFixture.json(movies: oneMovie)
        let xml = """
            <?xml version="1.0"?>
            <resources md5="x"><!-- c --><movie name="m" frameRate="24"><layer name="l">
            <kf duration="2" ref="a" loc="1,2" label="x &amp; y"/></layer></movie>
            <textureGroups><textureGroup scaleFactor="1"><atlas file="atlas0.png">
            <texture name="a" rect="0,0,2,2" origin="1,1"/></atlas></textureGroup></textureGroups></resources>
            """
        for (text, file) in [(json, "library.json"), (xml, "library.xml")] {
            let bytes = Array(text.utf8)
            let fixture = try FlumpFixture("", file: file)
            let url = fixture.folder.appendingPathComponent(file)
            var documents = 0
            for length in stride(from: 0, through: bytes.count, by: 1) {
                try Data(bytes[0..<length]).write(to: url)
                do {
                    let document = try Importer.importDocument(at: fixture.folder)
                    XCTAssertEqual(document.compositions.map(\.id), ["m"], "\(file) cut at \(length)")
                    documents += 1
                } catch {
                    XCTAssertFalse("\(error)".isEmpty, "every error names its problem")
                }
            }
            XCTAssertGreaterThanOrEqual(documents, 1, file)
        }
    }
}
