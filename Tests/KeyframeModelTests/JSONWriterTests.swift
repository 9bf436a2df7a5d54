import KeyframeJSON
import KeyframeTestSupport
import XCTest

/// The writer's layout rules, and its bytes against the algorithm it replaced (keys sorted with
/// `utf8.lexicographicallyPrecedes`, each member looked up by key, literals appended through `String.utf8`) on
/// varied trees.
final class JSONWriterTests: XCTestCase {
    private func text(_ value: JSONValue) -> String { String(decoding: JSONWriter.write(value), as: UTF8.self) }

    func testOneLineAtTheLeafLimitAndExpandedBeyondIt() {
        let ten = JSONValue.array((1...10).map { .number(Double($0)) })
        XCTAssertEqual(text(ten), "[ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 ]\n")
        let eleven = JSONValue.array((1...11).map { .number(Double($0)) })
        XCTAssertEqual(text(eleven), "[\n" + (1...11).map { "  \($0)" }.joined(separator: ",\n") + "\n]\n")
        // Ten scalars spread over nested containers still fit; the eleventh anywhere does not.
        let nested: JSONValue = ["a": [1, 2, 3], "b": ["x": 4, "y": [5, 6]], "c": [7, 8, 9]]
        // Nine scalars, but [5, 6] is a third level: the object breaks; each member is measured on its own again.
        XCTAssertEqual(text(nested), "{\n  \"a\" : [ 1, 2, 3 ],\n  \"b\" : { \"x\" : 4, \"y\" : [ 5, 6 ] },\n"
                       + "  \"c\" : [ 7, 8, 9 ]\n}\n")
        let flat: JSONValue = ["a": [1, 2, 3], "b": ["x": 4, "y": 5], "c": [7, 8, 9], "d": 10]
        XCTAssertEqual(text(flat), "{ \"a\" : [ 1, 2, 3 ], \"b\" : { \"x\" : 4, \"y\" : 5 }, \"c\" : [ 7, 8, 9 ], \"d\" : 10 }\n")
        let over: JSONValue = ["a": [1, 2, 3], "b": ["x": 4, "y": 5], "c": [7, 8, 9], "d": 10, "e": nil, "f": true]
        XCTAssertTrue(text(over).hasPrefix("{\n  \"a\" : [ 1, 2, 3 ],\n  \"b\" : { \"x\" : 4, \"y\" : 5 },"))
    }

    func testLongStringsAndDepthBreakLines() {
        let forty = String(repeating: "s", count: 40), fortyOne = String(repeating: "s", count: 41)
        XCTAssertEqual(text(["k": .string(forty), "n": 1]), "{ \"k\" : \"\(forty)\", \"n\" : 1 }\n")
        XCTAssertEqual(text(["k": .string(fortyOne)]), "{ \"k\" : \"\(fortyOne)\" }\n")
        XCTAssertEqual(text(["k": .string(fortyOne), "n": 1]), "{\n  \"k\" : \"\(fortyOne)\",\n  \"n\" : 1\n}\n")
        // A container at a third level never shares a line, even an empty one: its parent breaks and is measured on
        // its own again.
        XCTAssertEqual(text([[[]]]), "[\n  [ [] ]\n]\n")
        XCTAssertEqual(text([[], ["a": [:]]]), "[\n  [],\n  { \"a\" : {} }\n]\n")
        XCTAssertEqual(text([[], [:]]), "[ [], {} ]\n")
    }

    func testKeysSortByTheirUTF8Bytes() {
        // "Z" < "a" < "ab" < "b" < "é" (0xC3) < "😀" (0xF0) by bytes.
        let value: JSONValue = ["b": 1, "é": 2, "ab": 3, "a": 4, "😀": 5, "Z": 6]
        XCTAssertEqual(text(value), "{ \"Z\" : 6, \"a\" : 4, \"ab\" : 3, \"b\" : 1, \"é\" : 2, \"😀\" : 5 }\n")
        XCTAssertEqual(String(decoding: JSONWriter.writeCompact(value), as: UTF8.self),
                       "{\"Z\":6,\"a\":4,\"ab\":3,\"b\":1,\"é\":2,\"😀\":5}")
    }

    func testEscapesAndNumbers() {
        // Whole numbers below 10¹⁵ as integers; others as Swift's shortest round-trip text.
        let value: JSONValue = ["q\"\\\n\t\r\u{1}": "x\u{1f}y", "n": [-1234567, 0, 1e15, 0.5, -0.25, 1e-7, .number(.nan)]]
        XCTAssertEqual(text(value), #"{ "n" : [ -1234567, 0, 1000000000000000.0, 0.5, -0.25, 1e-07, null ], "#
                       + #""q\"\\\n\t\r\u0001" : "x\u001fy" }"# + "\n")
    }

    func testSameBytesAsThePreviousWriterOnVariedTrees() {
        var random = SeededGenerator(seed: 14)
        for round in 0..<3000 {
            let value = Self.tree(&random, depth: 0)
            XCTAssertEqual(text(value), String(decoding: ReferenceWriter.write(value), as: UTF8.self), "tree \(round)")
            XCTAssertEqual(JSONWriter.writeCompact(value), ReferenceWriter.writeCompact(value), "tree \(round)")
        }
    }

    func testNumbersAreSwiftsShortestRoundTripText() {
        // Random bit patterns (every exponent, subnormals, negative zero) and frame-like fractions: the writer's
        // text is the standard library's description and parses back to the same number.
        var random = SeededGenerator(seed: 2611)
        var numbers: [Double] = [-0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e15, 1e-7, 1 / 3]
        for _ in 0..<40_000 { numbers.append(Double(bitPattern: random.next())) }
        for _ in 0..<20_000 { numbers.append(Double(Int.random(in: -100_000...100_000, using: &random)) / 30) }
        for number in numbers where number.isFinite && !(number == number.rounded() && abs(number) < 1e15) {
            let written = String(decoding: JSONWriter.writeCompact(.number(number)), as: UTF8.self)
            XCTAssertEqual(written, number.description)
            XCTAssertEqual(Double(written).map(\.bitPattern), number.bitPattern, written)
        }
    }

    func testLargeObjectsSortLikeSmallOnes() {
        // Objects beyond 24 members take the standard library's sort instead of the insertion sort.
        var random = SeededGenerator(seed: 1414)
        for count in [23, 24, 25, 26, 300] {
            var members: JSONObject = [:]
            while members.count < count {
                let key = (0..<Int.random(in: 0...4, using: &random)).map { _ in ["a", "b", "é", "Z", "😀", "0"].randomElement(using: &random)! }.joined()
                members[key] = .number(Double(members.count))
            }
            let value: JSONValue = ["outer": .object(members), "inline": .object(JSONObject(members.prefix(5)))]
            XCTAssertEqual(JSONWriter.write(value), ReferenceWriter.write(value), "\(count) members")
            XCTAssertEqual(JSONWriter.writeCompact(value), ReferenceWriter.writeCompact(value), "\(count) members")
        }
    }

    func testDeepIndentation() {
        // 140 levels: indentation beyond the 256 spaces the writer copies at once.
        var value: JSONValue = ["leaf": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]]
        for level in 0..<140 { value = level % 2 == 0 ? .array([value, .string("x")]) : ["k": value, "n": .number(Double(level))] }
        XCTAssertEqual(JSONWriter.write(value), ReferenceWriter.write(value))
        XCTAssertTrue(text(value).contains("\n" + String(repeating: " ", count: 2 * 142) + "1,\n"))
    }

    private static let keys = ["a", "ab", "b", "B", "keyPath", "values", "é", "ü", "😀", "", "a\"b", "x\ny", "k10", "k9"]

    /// A random tree: containers of 0–14 members (so both sides of the leaf limit), strings up to 45 bytes.
    private static func tree(_ random: inout SeededGenerator, depth: Int) -> JSONValue {
        let roll = Int.random(in: 0..<10, using: &random)
        if depth < 5 && roll < (depth == 0 ? 10 : 4) {
            let count = Int.random(in: 0..<(roll == 0 ? 15 : 6), using: &random)
            if Bool.random(using: &random) {
                return .array((0..<count).map { _ in tree(&random, depth: depth + 1) })
            }
            var members: JSONObject = [:]
            for _ in 0..<count { members[keys.randomElement(using: &random)!] = tree(&random, depth: depth + 1) }
            return .object(members)
        }
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .number(Double(Int.random(in: -100_000...100_000, using: &random)))
        case 3: return .number(Double.random(in: -1e6...1e6, using: &random) / 7)
        case 4:
            let length = [0, 1, 39, 40, 41, 45].randomElement(using: &random)!
            return .string(String(repeating: "é", count: length / 2) + String(repeating: "s", count: length % 2))
        default:
            return .string(keys.randomElement(using: &random)! + String(repeating: "z", count: Int.random(in: 0...41, using: &random)))
        }
    }
}

/// The writer as it was before it was made faster: every container measured on its own before it is written, keys
/// sorted by `utf8.lexicographicallyPrecedes` and each member looked up by key.
private enum ReferenceWriter {
    static func write(_ value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        write(value, indent: 0, into: &bytes)
        bytes.append(0x0A)
        return bytes
    }

    static func writeCompact(_ value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        inline(value, spaced: false, into: &bytes)
        return bytes
    }

    private static func write(_ value: JSONValue, indent: Int, into bytes: inout [UInt8]) {
        switch value {
        case .array(let elements):
            if elements.isEmpty { bytes += Array("[]".utf8); return }
            if fits(value) { inline(value, spaced: true, into: &bytes); return }
            bytes.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes += [0x0A] + Array(repeating: 0x20, count: 2 * (indent + 1))
                write(element, indent: indent + 1, into: &bytes)
            }
            bytes += [0x0A] + Array(repeating: 0x20, count: 2 * indent)
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty { bytes += Array("{}".utf8); return }
            if fits(value) { inline(value, spaced: true, into: &bytes); return }
            bytes.append(UInt8(ascii: "{"))
            for (position, key) in sortedKeys(members).enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes += [0x0A] + Array(repeating: 0x20, count: 2 * (indent + 1))
                string(key, into: &bytes)
                bytes += Array(" : ".utf8)
                write(members[key]!, indent: indent + 1, into: &bytes)
            }
            bytes += [0x0A] + Array(repeating: 0x20, count: 2 * indent)
            bytes.append(UInt8(ascii: "}"))
        default:
            inline(value, spaced: true, into: &bytes)
        }
    }

    private static func inline(_ value: JSONValue, spaced: Bool, into bytes: inout [UInt8]) {
        switch value {
        case .null: bytes += Array("null".utf8)
        case .bool(let bool): bytes += Array((bool ? "true" : "false").utf8)
        case .number(let number): bytes += Array(format(number).utf8)
        case .string(let text): string(text, into: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            if spaced && !elements.isEmpty { bytes.append(0x20) }
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes += Array((spaced ? ", " : ",").utf8) }
                inline(element, spaced: spaced, into: &bytes)
            }
            if spaced && !elements.isEmpty { bytes.append(0x20) }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            if spaced && !members.isEmpty { bytes.append(0x20) }
            for (position, key) in sortedKeys(members).enumerated() {
                if position > 0 { bytes += Array((spaced ? ", " : ",").utf8) }
                string(key, into: &bytes)
                bytes += Array((spaced ? " : " : ":").utf8)
                inline(members[key]!, spaced: spaced, into: &bytes)
            }
            if spaced && !members.isEmpty { bytes.append(0x20) }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static func format(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return number.description
    }

    private static func sortedKeys(_ members: JSONObject) -> [String] {
        members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private static func fits(_ value: JSONValue) -> Bool {
        var leaves = 0
        return count(value, depth: 0, leaves: &leaves)
    }

    private static func count(_ value: JSONValue, depth: Int, leaves: inout Int) -> Bool {
        switch value {
        case .array(let elements):
            if depth >= 2 { return false }
            for element in elements where !count(element, depth: depth + 1, leaves: &leaves) { return false }
            return true
        case .object(let members):
            if depth >= 2 { return false }
            for member in members where !count(member.value, depth: depth + 1, leaves: &leaves) { return false }
            return true
        case .string(let text):
            leaves += text.utf8.count > 40 ? JSONWriter.inlineLeafLimit : 1
            return leaves <= JSONWriter.inlineLeafLimit
        default:
            leaves += 1
            return leaves <= JSONWriter.inlineLeafLimit
        }
    }

    private static func string(_ text: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): bytes += Array("\\\\".utf8)
            case 0x0A: bytes += Array("\\n".utf8)
            case 0x0D: bytes += Array("\\r".utf8)
            case 0x09: bytes += Array("\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
