import Foundation
import KeyframeJSON
import XCTest

final class JSONParserTests: XCTestCase {
    func testParsesEveryValueKind() throws {
        let value = try JSONParser.parse(#"{"a": [1, -2.5, 3e2, true, false, null, "x\n\u00e9\ud83d\ude00"], "b": {}}"#)
        XCTAssertEqual(value["a"], .array([1, -2.5, 300, true, false, nil, .string("x\né😀")]))
        XCTAssertEqual(value["b"], .object([:]))
    }

    func testNumbersReadBackExactlyAsFoundation() throws {
        // Compare with Foundation's own reading of the same text, including values that need the slow path.
        let texts = ["0.1", "123456.789", "-0.000001234", "1e-7", "9007199254740993", "1.7976931348623157e308",
                     "0.30000000000000004", "12345678901234567890.5", "5e-324", "0.7071067811865476"]
        for text in texts {
            let parsed = try JSONParser.parse(text).doubleValue
            XCTAssertEqual(parsed, Double(text), "reading \(text)")
        }
    }

    func testSkipsByteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"k": 1}"#.utf8)
        XCTAssertEqual(try JSONParser.parse(bytes)["k"], 1)
    }

    func testSyntaxErrorsNameLineAndColumn() {
        let cases: [(String, Int, Int)] = [
            ("{\n  \"a\": 1,\n  \"b\" 2\n}", 3, 7),    // missing colon
            ("[1, 2,, 3]", 1, 7),                     // extra comma
            ("{\"a\": tru}", 1, 10),                  // bad literal: reported where it stops matching
            ("{\"a\": \"é\" x}", 1, 11),              // columns count characters, not bytes
            ("[1, 2", 1, 6),                          // truncated
        ]
        for (text, line, column) in cases {
            XCTAssertThrowsError(try JSONParser.parse(text), text) { error in
                guard let error = error as? JSONSyntaxError else { return XCTFail("wrong error type \(error)") }
                XCTAssertEqual(error.line, line, "line for \(text.debugDescription): \(error)")
                XCTAssertEqual(error.column, column, "column for \(text.debugDescription): \(error)")
            }
        }
    }

    func testRejectsDeepNestingWithoutCrashing() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try JSONParser.parse(text)) { error in
            XCTAssert("\(error)".contains("nesting"), "\(error)")
        }
    }

    func testRejectsTrailingGarbageAndEmptyInput() {
        XCTAssertThrowsError(try JSONParser.parse("{} {}"))
        XCTAssertThrowsError(try JSONParser.parse("   "))
        XCTAssertThrowsError(try JSONParser.parse("01"))
    }

    func testWriterSortsKeysAndRoundTrips() throws {
        let value: JSONValue = ["zeta": 1, "alpha": ["b": 2.5, "a": [1, 2, 3]], "mid": "tab\there \"q\""]
        let text = String(decoding: JSONWriter.write(value), as: UTF8.self)
        let alpha = try XCTUnwrap(text.range(of: "\"alpha\""))
        let mid = try XCTUnwrap(text.range(of: "\"mid\""))
        let zeta = try XCTUnwrap(text.range(of: "\"zeta\""))
        XCTAssert(alpha.lowerBound < mid.lowerBound && mid.lowerBound < zeta.lowerBound, text)
        XCTAssertEqual(try JSONParser.parse(text), value)
        XCTAssertEqual(try JSONParser.parse(JSONWriter.writeCompact(value)), value)
    }

    func testNumberFormattingIsShortestAndValid() throws {
        XCTAssertEqual(JSONWriter.format(3), "3")
        XCTAssertEqual(JSONWriter.format(-0.5), "-0.5")
        XCTAssertEqual(JSONWriter.format(0.1), "0.1")
        XCTAssertEqual(JSONWriter.format(.infinity), "null")
        for number in [1e-7, 1.5e20, 123456789.125, -2.2250738585072014e-308] {
            XCTAssertEqual(try JSONParser.parse(JSONWriter.format(number)).doubleValue, number)
        }
    }

    func testCursorErrorsCarryPaths() throws {
        let cursor = JSONCursor(try JSONParser.parse(#"{"L": [{"FR": [{"I": "x"}]}]}"#))
        XCTAssertThrowsError(try cursor.member("L").array()[0].member("FR").array()[0].member("I").integer()) { error in
            XCTAssertEqual("\(error)", "L[0].FR[0].I: expected a number, found string")
        }
        XCTAssertThrowsError(try cursor.member("L").array()[0].member(anyOf: ["DU", "duration"])) { error in
            XCTAssertEqual("\(error)", #"L[0]: missing required key "DU" or "duration""#)
        }
    }

    /// `numbers()` reads an array of numbers as the element cursors would, and names the element that is not one.
    func testNumberArraysReadLikeTheirElementsAndNameTheFirstBadOne() throws {
        let cursor = JSONCursor(try JSONParser.parse(#"{"v": [1, -2.5, 1e3], "w": [0, "1"], "x": 3, "y": [0, 1e400]}"#))
        XCTAssertEqual(try cursor.member("v").numbers(),
                       try cursor.member("v").array().map { (c) throws(JSONSchemaError) in try c.number() })
        XCTAssertEqual(try cursor.member("v").numbers(), [1, -2.5, 1000])
        XCTAssertThrowsError(try cursor.member("w").numbers()) { error in
            XCTAssertEqual("\(error)", "w[1]: expected a number, found string")
        }
        XCTAssertThrowsError(try cursor.member("x").numbers()) { error in
            XCTAssertEqual("\(error)", "x: expected an array, found number")
        }
        XCTAssertThrowsError(try cursor.member("y").numbers()) { error in
            XCTAssertTrue("\(error)".hasPrefix("y[1]: "), "\(error)")
        }
    }
}
