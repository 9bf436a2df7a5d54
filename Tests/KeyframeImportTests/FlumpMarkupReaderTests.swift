@testable import KeyframeImport
import XCTest

/// The strict XML reader behind Flump's XML export: what it accepts, and the line and column of what it refuses.
final class FlumpMarkupReaderTests: XCTestCase {
    private func parse(_ text: String) throws -> MarkupElement { try MarkupReader.parse(Array(text.utf8)) }

    private func failure(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> MarkupSyntaxError? {
        do {
            let root = try MarkupReader.parse(Array(text.utf8))
            XCTFail("parsed as <\(root.name)>", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testElementsAttributesAndPositions() throws {
        let root = try parse("\u{FEFF}<?xml version=\"1.0\"?>\n<!-- hi -->\n<a x=\"1\" y='two'>\n  <b/><c k=\"v\">text</c>\n</a>\n")
        XCTAssertEqual(root.name, "a")
        XCTAssertEqual(root.attributes.map(\.name), ["x", "y"])
        XCTAssertEqual(root.attribute("y")?.value, "two")
        XCTAssertEqual([root.line, root.column], [3, 1])
        XCTAssertEqual(root.attribute("y").map { [$0.line, $0.column] }, [3, 10])
        XCTAssertEqual(root.children.map(\.name), ["b", "c"])
        XCTAssertEqual(root.children.map { [$0.line, $0.column] }, [[4, 3], [4, 7]])
    }

    func testEntitiesCommentsCDATAAndProcessingInstructions() throws {
        let root = try parse("<r a=\"&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#233;\"><!-- <x> --><![CDATA[<y>]]><?pi x?></r>")
        XCTAssertEqual(root.attribute("a")?.value, "<>&\"'ABé")
        XCTAssertEqual(root.children, [])
    }

    func testLineBreaksInAttributesReadAsSpaces() throws {
        XCTAssertEqual(try parse("<r a=\"1,\n2\"/>").attribute("a")?.value, "1, 2")
        XCTAssertEqual(try parse("<r a=\"1,\r\n2\tx\"/>").attribute("a")?.value, "1, 2 x")
        XCTAssertEqual(try parse("<r\r\n a=\"1\"/>").attribute("a").map { [$0.line, $0.column] }, [2, 2])
    }

    func testColumnsCountCharactersNotBytes() throws {
        let error = try XCTUnwrap(failure("<r é=\"1\" é=\"2\"/>"))
        XCTAssertEqual([error.line, error.column], [1, 10])
        XCTAssertEqual(error.message, "duplicate attribute \"é\" in <r>")
    }

    func testRefusals() throws {
        let cases: [(String, Int, Int, String)] = [
            ("", 1, 1, "the document has no root element"),
            ("<a>\n<b>\n</a>", 3, 1, "the end tag </a> does not match <b> opened at line 2, column 1"),
            ("<a>", 1, 4, "unexpected end of input: <a> opened at line 1, column 1 is not closed"),
            ("<a x=1/>", 1, 6, "expected a quoted attribute value"),
            ("<a x=\"<\"/>", 1, 7, "'<' is not allowed in an attribute value (write &lt;)"),
            ("<a x=\"&nope;\"/>", 1, 7, "unknown entity &nope;"),
            ("<a x=\"a & b\"/>", 1, 9, "'&' must start an entity such as &amp; or &#38;"),
            ("<a/><b/>", 1, 5, "unexpected content after the root element </a>"),
            ("<a><!-- open", 1, 4, "the comment opened here is not closed with -->"),
            ("<a x=\"1\"y=\"2\"/>", 1, 9, "expected whitespace, '>' or '/>' in the tag <a>"),
            ("<!DOCTYPE a><a/>", 1, 1, "document type declarations (<!DOCTYPE …>) are not supported"),
            ("text<a/>", 1, 1, "expected '<' to start the root element"),
        ]
        for (text, line, column, message) in cases {
            let error = try XCTUnwrap(failure(text), text)
            XCTAssertEqual(error.message, message, text)
            XCTAssertEqual([error.line, error.column], [line, column], text)
        }
    }

    func testDeepNestingIsRefusedWithoutExhaustingTheStack() throws {
        let depth = MarkupReader.maximumDepth + 10
        let text = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        let error = try XCTUnwrap(failure(text))
        XCTAssertEqual(error.message, "elements nested deeper than \(MarkupReader.maximumDepth) levels")
    }

    func testInvalidUTF8IsRefused() throws {
        do {
            _ = try MarkupReader.parse([0x3C, 0x61, 0x20, 0x78, 0x3D, 0x22, 0xFF, 0x22, 0x2F, 0x3E])
            XCTFail("accepted invalid UTF-8")
        } catch {
            XCTAssertEqual(error.message, "the text is not valid UTF-8")
        }
    }
}
