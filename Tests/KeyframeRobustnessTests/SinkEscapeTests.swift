import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import KeyframeJSON
import KeyframeTestSupport
import XCTest

/// The escapes of two sinks (trust trial, classes 4 and 8) over seeded random strings: ``XMLEscape`` always gives
/// text an XML parser reads back (characters XML cannot hold as U+FFFD, the rest unchanged), and ``TerminalText``
/// never lets a control character through.
final class SinkEscapeTests: XCTestCase {
    /// Scalars that break sinks, and ordinary ones.
    static let alphabet: [Unicode.Scalar] = [
        "\u{0}", "\u{1}", "\u{7}", "\u{8}", "\t", "\n", "\r", "\u{b}", "\u{1b}", "\u{7f}", "\u{85}", "\u{9b}",
        "\u{202e}", "\u{2066}", "\u{fffe}", "\u{ffff}", "\u{fffd}", "&", "<", ">", "\"", "'", "]", "a", "é", "歩",
        "\u{1F600}", " ", ";",
    ]

    func randomStrings(_ count: Int) -> [String] {
        var generator = SeededGenerator(seed: 4)
        return (0..<count).map { _ in
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...24, using: &generator) {
                scalars.append(Self.alphabet.randomElement(using: &generator)!)
            }
            return String(scalars)
        }
    }

    func testXMLTextAlwaysParsesBackToTheRepresentableText() throws {
        for text in randomStrings(2_000) {
            let escaped = XMLEscape.text(text)
            let document = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><r a=\"\(escaped)\">\(escaped)</r>"
            let reader = AttributeAndText()
            let parser = XMLParser(data: Data(document.utf8))
            parser.delegate = reader
            XCTAssertTrue(parser.parse(), "\(text.debugDescription): \(String(describing: parser.parserError))")
            let expected = XMLEscape.representable(text)
            XCTAssertEqual(reader.attribute, expected, text.debugDescription)
            XCTAssertEqual(reader.text, expected, text.debugDescription)
        }
    }

    func testTerminalTextLetsNoControlCharacterThrough() {
        for text in randomStrings(2_000) {
            let escaped = TerminalText.escape(text)
            for scalar in escaped.unicodeScalars {
                XCTAssertFalse(TerminalText.isUnsafe(scalar), text.debugDescription)
            }
            XCTAssertFalse(TerminalText.line(text).contains("\n"), text.debugDescription)
            if !text.unicodeScalars.contains(where: TerminalText.isUnsafe) { XCTAssertEqual(escaped, text) }
        }
        XCTAssertEqual(TerminalText.escape("a\u{1b}]0;x\u{7}\r\nb"), "a\\u{1b}]0;x\\u{7}\\r\nb")
    }
}

/// Collects the attribute `a` and the text of the root element.
private final class AttributeAndText: NSObject, XMLParserDelegate {
    var attribute: String?
    var text = ""

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        attribute = attributeDict["a"]
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }
}
