/// Writes ``JSONValue`` as deterministic, human-readable JSON: sorted keys, two-space indentation, and small
/// leaf containers kept on one line.
///
/// The same value always produces the same bytes: keys are sorted by their UTF-8 bytes, numbers use the shortest
/// representation that reads back to the same `Double` (integers without a fraction), and nothing depends on
/// dictionary iteration order. A container is written on one line when it is at most two levels deep and holds at
/// most ``inlineLeafLimit`` scalars, so keyframes such as `{ "frame" : 3, "value" : { "x" : 1, "y" : 2 } }` stay
/// readable without inflating the file.
public struct JSONWriter {
    /// The largest number of scalars a container may hold and still be written on one line.
    public static let inlineLeafLimit = 10

    /// Serializes `value`, followed by a newline.
    public static func write(_ value: JSONValue) -> [UInt8] {
        var writer = Output()
        writer.bytes.reserveCapacity(1 << 16)
        writer.write(value, indent: 0)
        writer.bytes.append(0x0A)
        return writer.bytes
    }

    /// Serializes `value` without any whitespace.
    public static func writeCompact(_ value: JSONValue) -> [UInt8] {
        var writer = Output()
        writer.writeInline(value, spaced: false)
        return writer.bytes
    }

    /// The text of a number as ``JSONWriter`` writes it (`3`, `-0.5`, `1e-07`); non-finite values become `null`.
    public static func format(_ number: Double) -> String {
        var writer = Output()
        writer.writeNumber(number)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

private struct Output {
    var bytes: [UInt8] = []

    mutating func write(_ value: JSONValue, indent: Int) {
        switch value {
        case .array(let elements):
            if elements.isEmpty { bytes.append(contentsOf: "[]".utf8); return }
            if Output.fitsInline(value) { writeInline(value, spaced: true); return }
            bytes.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                write(element, indent: indent + 1)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty { bytes.append(contentsOf: "{}".utf8); return }
            if Output.fitsInline(value) { writeInline(value, spaced: true); return }
            bytes.append(UInt8(ascii: "{"))
            for (position, key) in Output.sortedKeys(members).enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                writeString(key)
                bytes.append(contentsOf: " : ".utf8)
                write(members[key]!, indent: indent + 1)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "}"))
        default:
            writeInline(value, spaced: true)
        }
    }

    mutating func writeInline(_ value: JSONValue, spaced: Bool) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let bool): bytes.append(contentsOf: (bool ? "true" : "false").utf8)
        case .number(let number): writeNumber(number)
        case .string(let string): writeString(string)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            if spaced && !elements.isEmpty { bytes.append(0x20) }
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(contentsOf: spaced ? ", ".utf8 : ",".utf8) }
                writeInline(element, spaced: spaced)
            }
            if spaced && !elements.isEmpty { bytes.append(0x20) }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            if spaced && !members.isEmpty { bytes.append(0x20) }
            for (position, key) in Output.sortedKeys(members).enumerated() {
                if position > 0 { bytes.append(contentsOf: spaced ? ", ".utf8 : ",".utf8) }
                writeString(key)
                bytes.append(contentsOf: spaced ? " : ".utf8 : ":".utf8)
                writeInline(members[key]!, spaced: spaced)
            }
            if spaced && !members.isEmpty { bytes.append(0x20) }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    static func sortedKeys(_ members: [String: JSONValue]) -> [String] {
        members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Whether a container is small and shallow enough for one line.
    static func fitsInline(_ value: JSONValue) -> Bool {
        var leaves = 0
        return countLeaves(value, depth: 0, leaves: &leaves)
    }

    private static func countLeaves(_ value: JSONValue, depth: Int, leaves: inout Int) -> Bool {
        switch value {
        case .array(let elements):
            if depth >= 2 { return false }
            for element in elements where !countLeaves(element, depth: depth + 1, leaves: &leaves) { return false }
            return true
        case .object(let members):
            if depth >= 2 { return false }
            for element in members.values where !countLeaves(element, depth: depth + 1, leaves: &leaves) {
                return false
            }
            return true
        case .string(let string):
            leaves += string.utf8.count > 40 ? JSONWriter.inlineLeafLimit : 1
            return leaves <= JSONWriter.inlineLeafLimit
        default:
            leaves += 1
            return leaves <= JSONWriter.inlineLeafLimit
        }
    }

    mutating func newline(_ indent: Int) {
        bytes.append(0x0A)
        for _ in 0..<indent { bytes.append(0x20); bytes.append(0x20) }
    }

    mutating func writeNumber(_ number: Double) {
        guard number.isFinite else { bytes.append(contentsOf: "null".utf8); return }
        if number == number.rounded(), abs(number) < 1e15 {
            var integer = Int64(number)
            if integer == 0 { bytes.append(UInt8(ascii: "0")); return }
            if integer < 0 { bytes.append(UInt8(ascii: "-")); integer = -integer }
            var digits: [UInt8] = []
            while integer > 0 {
                digits.append(UInt8(ascii: "0") + UInt8(integer % 10))
                integer /= 10
            }
            bytes.append(contentsOf: digits.reversed())
            return
        }
        // Swift's description is the shortest text that reads back to the same value, and is valid JSON
        // ("0.1", "1e-07", "1.5e+20").
        bytes.append(contentsOf: number.description.utf8)
    }

    mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
            case 0x0A: bytes.append(contentsOf: "\\n".utf8)
            case 0x0D: bytes.append(contentsOf: "\\r".utf8)
            case 0x09: bytes.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
