import KeyframeJSON
import XCTest

/// `JSONLocator` against the parser's own position counting: for every value of a document, breaking the byte the
/// locator points at must make `JSONParser` fail at exactly that line and column.
final class JSONLocatorTests: XCTestCase {
    /// Documents with what makes positions hard: a byte-order mark, CRLF line ends, tabs, multi-byte characters before
    /// values, escaped member names, a repeated member (the last one counts), deep nesting, empty containers.
    private let documents = [
        "{\"a\": [1, 2, {\"b\": \"x\"}], \"c\": {\"d\": null}}",
        "\u{FEFF}{\r\n\t\"caf\\u00e9\": {\"ünï\": [true, false, [[], {}]]},\r\n\t\"n\": -1.5e3\r\n}",
        "{\"dup\": 1,\n \"dup\": {\"k\": \"€€€\", \"m\": [\"🙂\", 3]}}",
        "[[[[{\"deep\": [0, {\"x\\\"y\": \"q\\\\\"}]}]]]]",
    ]

    /// Every path of `value`, root included.
    private func paths(_ value: JSONValue, _ path: JSONPath = .root) -> [JSONPath] {
        var found = [path]
        switch value {
        case .object(let members):
            for (key, child) in members { found += paths(child, path.appending(key)) }
        case .array(let elements):
            for (index, child) in elements.enumerated() { found += paths(child, path.appending(index)) }
        default: break
        }
        return found
    }

    /// The byte offset of a 1-based line and column (columns in Unicode scalars), after a byte-order mark.
    private func offset(line: Int, column: Int, in bytes: [UInt8]) -> Int {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var currentLine = 1
        var currentColumn = 1
        while index < bytes.count && (currentLine, currentColumn) != (line, column) {
            if bytes[index] == 0x0A {
                currentLine += 1
                currentColumn = 1
            } else if bytes[index] & 0xC0 != 0x80 {
                currentColumn += 1
            }
            index += 1
            // Stop on the first byte of a character, not inside one.
            while index < bytes.count && bytes[index] & 0xC0 == 0x80 { index += 1 }
        }
        return index
    }

    func testEveryValueIsFoundWhereTheParserCountsIt() throws {
        var checked = 0
        for text in documents {
            let bytes = Array(text.utf8)
            let value = try JSONParser.parse(bytes)
            for path in paths(value) {
                let place = try XCTUnwrap(JSONLocator.position(of: path, in: bytes), "\(path) in \(text)")
                var broken = bytes
                broken[offset(line: place.line, column: place.column, in: bytes)] = UInt8(ascii: "#")
                XCTAssertThrowsError(try JSONParser.parse(broken), "\(path)") { error in
                    let syntax = error as? JSONSyntaxError
                    XCTAssertEqual(syntax.map { "\($0.line):\($0.column)" }, "\(place.line):\(place.column)",
                                   "\(path) in \(text): \(error)")
                }
                checked += 1
            }
        }
        XCTAssertEqual(checked, 8 + 9 + 6 + 9, "every value of the four documents")
    }

    func testTheLastOfARepeatedMemberIsTheOneFound() throws {
        let bytes = Array("{\"dup\": 1,\n \"dup\": 2}".utf8)
        XCTAssertEqual(JSONLocator.position(of: JSONPath.root.appending("dup"), in: bytes).map { "\($0.line):\($0.column)" },
                       "2:9")
    }

    func testMissingPathsAndBrokenTextFindNothing() {
        let bytes = Array("{\"a\": [1, 2]}".utf8)
        XCTAssertNil(JSONLocator.position(of: JSONPath.root.appending("b"), in: bytes))
        XCTAssertNil(JSONLocator.position(of: JSONPath.root.appending("a").appending(2), in: bytes))
        XCTAssertNil(JSONLocator.position(of: JSONPath.root.appending(0), in: bytes), "an index into an object")
        XCTAssertNil(JSONLocator.position(of: JSONPath.root.appending("a"), in: Array("{\"a\"".utf8)))
        XCTAssertNil(JSONLocator.position(of: JSONPath.root.appending("a"), in: []))
    }

    func testPathsReadBackFromTheirDescription() throws {
        for text in documents {
            for path in paths(try JSONParser.parse(text)) where !path.description.contains("\"") {
                XCTAssertEqual(JSONPath(parsing: path.description)?.components, path.components, path.description)
            }
        }
        XCTAssertEqual(JSONPath(parsing: "$")?.components, [])
        XCTAssertEqual(JSONPath(parsing: "AN.TL.L[2].FR[0]")?.components,
                       [.key("AN"), .key("TL"), .key("L"), .index(2), .key("FR"), .index(0)])
        XCTAssertNil(JSONPath(parsing: "a[x]"))
        XCTAssertNil(JSONPath(parsing: "a[1"))
        XCTAssertNil(JSONPath(parsing: "a[1]b"))
    }
}
