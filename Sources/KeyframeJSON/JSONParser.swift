#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads JSON text (RFC 8259) into ``JSONValue``, reporting malformed input with its line and column.
///
/// A leading UTF-8 byte-order mark is skipped (most Animate spritemaps start with one). Nesting deeper than
/// ``maximumDepth`` is rejected instead of exhausting the stack, so hostile input cannot crash the process.
///
/// ```swift
/// let value = try JSONParser.parse(Array(#"{"a": [1, 2]}"#.utf8))
/// ```
public struct JSONParser {
    /// Containers nested deeper than this are rejected.
    public static let maximumDepth = 512

    /// Parses a complete JSON text.
    ///
    /// - Parameter bytes: UTF-8 encoded JSON, optionally starting with a byte-order mark.
    /// - Throws: ``JSONSyntaxError`` naming line and column.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> JSONValue in
            var reader = Reader(buffer)
            return try reader.parseDocument()
        }
    }

    /// Parses a complete JSON text given as a string.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int
    let start: Int
    /// The members of the objects being parsed, innermost last: each object's members are collected here and its
    /// storage is made once at its full size.
    var pending: [JSONObject.Element] = []
    /// The elements of the arrays being parsed, innermost last: each array is made once at its full size (growing
    /// it element by element reallocates it at every doubling).
    var pendingElements: [JSONValue] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        let hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        self.start = hasBOM ? 3 : 0
        self.index = start
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw error("the document is empty") }
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if index < bytes.count { throw error("unexpected text after the end of the JSON value") }
        return value
    }

    // MARK: Values

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character \(describe(bytes[index])), expected a value")
        }
    }

    mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
        index += 1  // {
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object([:])
        }
        let first = pending.count
        func members() -> JSONValue {
            let object = JSONObject(uniquing: Array(pending[first...]))
            pending.removeSubrange(first...)
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an object") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a member name in double quotes, found \(describe(bytes[index]))")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after the member name \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            pending.append((key, value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an object") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return members()
            default: throw error("expected ',' or '}' after an object member, found \(describe(bytes[index]))")
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
        index += 1  // [
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array([])
        }
        let first = pendingElements.count
        func elements() -> JSONValue {
            let elements = Array(pendingElements[first...])
            pendingElements.removeSubrange(first...)
            return .array(elements)
        }
        while true {
            skipWhitespace()
            pendingElements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside an array") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return elements()
            default: throw error("expected ',' or ']' after an array element, found \(describe(bytes[index]))")
            }
        }
    }

    // MARK: Strings

    mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        let contentStart = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<index])
                index += 1
                return String(decoding: slice, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character \(describe(byte)) inside a string") }
            index += 1
        }
        guard index < bytes.count else {
            index = contentStart - 1
            throw error("unterminated string")
        }
        var scratch: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated escape sequence") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scratch.append(0x22)
                case UInt8(ascii: "\\"): scratch.append(0x5C)
                case UInt8(ascii: "/"): scratch.append(0x2F)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800...0xDBFF).contains(scalar), index + 1 < bytes.count,
                        bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    {
                        index += 2
                        let low = try parseHex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            appendScalar(0xFFFD, to: &scratch)
                            scalar = low
                        }
                    }
                    appendScalar(scalar, to: &scratch)
                default:
                    index -= 1
                    throw error("invalid escape sequence \\\(describe(escape))")
                }
            default:
                if byte < 0x20 { throw error("control character \(describe(byte)) inside a string") }
                scratch.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit \(describe(byte)) in a \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    func appendScalar(_ value: UInt32, to scratch: inout [UInt8]) {
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        scratch.append(contentsOf: UTF8.encode(scalar)!)
    }

    // MARK: Numbers

    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let numberStart = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in a number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("numbers must not have leading zeros") }
        } else {
            while index < bytes.count, isDigit(bytes[index]) {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[index] - UInt8(ascii: "0"))
                    digits += mantissa == 0 ? 0 : 1
                } else {
                    exponent += 1
                }
                index += 1
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[index] - UInt8(ascii: "0"))
                    digits += mantissa == 0 ? 0 : 1
                    exponent -= 1
                }
                index += 1
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in an exponent") }
            var value = 0
            while index < bytes.count, isDigit(bytes[index]) {
                if value < 100_000 { value = value * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                index += 1
            }
            exponent += exponentNegative ? -value : value
        }
        // Exact fast path: an integer mantissa below 2^53 scaled by an exactly representable power of ten is
        // correctly rounded by one IEEE multiplication or division.
        if mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
            var value = Double(mantissa)
            if exponent < 0 { value /= Reader.exactPowersOfTen[-exponent] } else if exponent > 0 {
                value *= Reader.exactPowersOfTen[exponent]
            }
            return negative ? -value : value
        }
        return slowNumber(from: numberStart, to: index)
    }

    func slowNumber(from start: Int, to end: Int) -> Double {
        var text = [CChar](repeating: 0, count: end - start + 1)
        for offset in 0..<(end - start) { text[offset] = CChar(bitPattern: bytes[start + offset]) }
        return text.withUnsafeBufferPointer { strtod($0.baseAddress!, nil) }
    }

    // MARK: Helpers

    @inline(__always) func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    @inline(__always) mutating func skipWhitespace() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 } else { return }
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for offset in 0..<count {
            guard index + offset < bytes.count, bytes[index + offset] == expected[offset] else {
                index += offset
                throw error("invalid literal, expected \(literal)")
            }
        }
        index += count
    }

    func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    func error(_ message: String) -> JSONSyntaxError {
        let end = min(index, bytes.count)
        let (line, column) = JSONSyntaxError.lineAndColumn(in: bytes, from: start, to: end)
        return JSONSyntaxError(message: message, line: line, column: column, offset: end - start)
    }
}
