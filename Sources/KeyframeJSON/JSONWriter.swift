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

    /// An object's members in the order they are written: by the keys' UTF-8 bytes.
    typealias Members = [(key: String, value: JSONValue)]

    mutating func write(_ value: JSONValue, indent: Int) {
        switch value {
        case .array(let elements):
            if elements.isEmpty { bytes.append(contentsOf: "[]".utf8); return }
            // Written on one line while it fits (at most a few scalars, so a failed attempt costs little), else
            // taken back and written one element per line.
            let mark = bytes.count
            var leaves = 0
            if writeOneLine(elements, depth: 0, leaves: &leaves) { return }
            bytes.removeLast(bytes.count - mark)
            bytes.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                write(element, indent: indent + 1)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "]"))
        case .object(let dictionary):
            if dictionary.isEmpty { bytes.append(contentsOf: "{}".utf8); return }
            let members = Output.sorted(dictionary)
            let mark = bytes.count
            var leaves = 0
            if writeOneLine(members, depth: 0, leaves: &leaves) { return }
            bytes.removeLast(bytes.count - mark)
            bytes.append(UInt8(ascii: "{"))
            for position in members.indices {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                writeString(members[position].key)
                bytes.append(contentsOf: " : ".utf8)
                write(members[position].value, indent: indent + 1)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "}"))
        default:
            writeInline(value, spaced: true)
        }
    }

    // MARK: One line

    // A container goes on one line when it is at most two levels deep (containers at depth 0 and 1, scalars down
    // to depth 2) and holds at most `inlineLeafLimit` scalars, a string longer than 40 bytes counting as the whole
    // limit. The writers below write the spaced one-line form while counting, and return `false` as soon as the
    // container cannot fit; the caller then removes what they wrote.

    private mutating func writeOneLine(_ value: JSONValue, depth: Int, leaves: inout Int) -> Bool {
        switch value {
        case .array(let elements):
            return depth < 2 && writeOneLine(elements, depth: depth, leaves: &leaves)
        case .object(let dictionary):
            return depth < 2 && writeOneLine(Output.sorted(dictionary), depth: depth, leaves: &leaves)
        case .string(let string):
            leaves += string.utf8.count > 40 ? JSONWriter.inlineLeafLimit : 1
            guard leaves <= JSONWriter.inlineLeafLimit else { return false }
            writeString(string)
            return true
        default:
            leaves += 1
            guard leaves <= JSONWriter.inlineLeafLimit else { return false }
            writeInline(value, spaced: true)
            return true
        }
    }

    private mutating func writeOneLine(_ elements: [JSONValue], depth: Int, leaves: inout Int) -> Bool {
        bytes.append(UInt8(ascii: "["))
        if elements.isEmpty { bytes.append(UInt8(ascii: "]")); return true }
        bytes.append(0x20)
        for position in elements.indices {
            if position > 0 { bytes.append(UInt8(ascii: ",")); bytes.append(0x20) }
            guard writeOneLine(elements[position], depth: depth + 1, leaves: &leaves) else { return false }
        }
        bytes.append(0x20)
        bytes.append(UInt8(ascii: "]"))
        return true
    }

    private mutating func writeOneLine(_ members: Members, depth: Int, leaves: inout Int) -> Bool {
        bytes.append(UInt8(ascii: "{"))
        if members.isEmpty { bytes.append(UInt8(ascii: "}")); return true }
        bytes.append(0x20)
        for position in members.indices {
            if position > 0 { bytes.append(UInt8(ascii: ",")); bytes.append(0x20) }
            writeString(members[position].key)
            bytes.append(contentsOf: " : ".utf8)
            guard writeOneLine(members[position].value, depth: depth + 1, leaves: &leaves) else { return false }
        }
        bytes.append(0x20)
        bytes.append(UInt8(ascii: "}"))
        return true
    }

    // MARK: Scalars and compact output

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
        case .object(let dictionary):
            bytes.append(UInt8(ascii: "{"))
            if spaced && !dictionary.isEmpty { bytes.append(0x20) }
            for (position, member) in Output.sorted(dictionary).enumerated() {
                if position > 0 { bytes.append(contentsOf: spaced ? ", ".utf8 : ",".utf8) }
                writeString(member.key)
                bytes.append(contentsOf: spaced ? " : ".utf8 : ":".utf8)
                writeInline(member.value, spaced: spaced)
            }
            if spaced && !dictionary.isEmpty { bytes.append(0x20) }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// The members sorted by their keys' UTF-8 bytes (no two keys are equal), each key read once.
    static func sorted(_ dictionary: [String: JSONValue]) -> Members {
        var members: Members = []
        members.reserveCapacity(dictionary.count)
        for member in dictionary { members.append(member) }
        if members.count > 1 { members.sort { precedes($0.key, $1.key) } }
        return members
    }

    /// Whether `a`'s UTF-8 bytes sort before `b`'s (a prefix first).
    static func precedes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let count = min(x.count, y.count)
                var i = 0
                while i < count {
                    if x[i] != y[i] { return x[i] < y[i] }
                    i += 1
                }
                return x.count < y.count
            }
        }
    }

    mutating func newline(_ indent: Int) {
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(0x20, count: 2 * indent))
    }

    mutating func writeNumber(_ number: Double) {
        guard number.isFinite else { bytes.append(contentsOf: "null".utf8); return }
        if number == number.rounded(), abs(number) < 1e15 {
            var integer = Int64(number)
            if integer == 0 { bytes.append(UInt8(ascii: "0")); return }
            if integer < 0 { bytes.append(UInt8(ascii: "-")); integer = -integer }
            // Digits least significant first, then turned around in place.
            let start = bytes.count
            while integer > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(integer % 10))
                integer /= 10
            }
            bytes[start...].reverse()
            return
        }
        // Swift's description is the shortest text that reads back to the same value, and is valid JSON
        // ("0.1", "1e-07", "1.5e+20").
        bytes.append(contentsOf: number.description.utf8)
    }

    mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings (keys, names) need no escape: copied whole.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: string.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
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
