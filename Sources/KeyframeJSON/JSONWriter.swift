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

/// The writer's byte buffer and layout rules, shared by ``JSONWriter`` and ``JSONStream``.
struct Output {
    var bytes: [UInt8] = []

    mutating func write(_ value: JSONValue, indent: Int) {
        switch value {
        case .array(let elements):
            if elements.isEmpty { raw("[]"); return }
            if Output.fitsInline(value) { writeInline(value, spaced: true); return }
            bytes.append(UInt8(ascii: "["))
            for position in elements.indices {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                write(elements[position], indent: indent + 1)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            if members.isEmpty { raw("{}"); return }
            if Output.fitsInline(value) { writeInline(value, spaced: true); return }
            bytes.append(UInt8(ascii: "{"))
            var first = true
            Output.forEachSorted(members) { key, member in
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                newline(indent + 1)
                writeString(key)
                raw(" : ")
                write(member, indent: indent + 1)
            }
            newline(indent)
            bytes.append(UInt8(ascii: "}"))
        default:
            writeInline(value, spaced: true)
        }
    }

    mutating func writeInline(_ value: JSONValue, spaced: Bool) {
        switch value {
        case .null: raw("null")
        case .bool(let bool): if bool { raw("true") } else { raw("false") }
        case .number(let number): writeNumber(number)
        case .string(let string): writeString(string)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            if spaced && !elements.isEmpty { bytes.append(0x20) }
            for position in elements.indices {
                if position > 0 { bytes.append(UInt8(ascii: ",")); if spaced { bytes.append(0x20) } }
                writeInline(elements[position], spaced: spaced)
            }
            if spaced && !elements.isEmpty { bytes.append(0x20) }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            if spaced && !members.isEmpty { bytes.append(0x20) }
            var first = true
            Output.forEachSorted(members) { key, member in
                if !first { bytes.append(UInt8(ascii: ",")); if spaced { bytes.append(0x20) } }
                first = false
                writeString(key)
                if spaced { raw(" : ") } else { bytes.append(UInt8(ascii: ":")) }
                writeInline(member, spaced: spaced)
            }
            if spaced && !members.isEmpty { bytes.append(0x20) }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends a literal's bytes.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Calls `body` with the members in the order of their keys' UTF-8 bytes.
    static func forEachSorted(_ members: JSONObject, _ body: (String, JSONValue) -> Void) {
        guard members.count > 1 else {
            if let only = members.first { body(only.key, only.value) }
            return
        }
        // A permutation of the members' positions, sorted by key: insertion sort for the small objects most files
        // are made of, the standard library's sort for large ones. Comparing keys never copies a value.
        var order = Array(members.indices)
        if order.count > 24 {
            order.sort { JSONObject.precedes(members[$0].key, members[$1].key) }
        } else {
            for i in 1..<order.count {
                let index = order[i]
                let key = members[index].key
                var j = i
                while j > 0 && JSONObject.precedes(key, members[order[j - 1]].key) {
                    order[j] = order[j - 1]
                    j -= 1
                }
                order[j] = index
            }
        }
        for index in order {
            let member = members[index]
            body(member.key, member.value)
        }
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
            for member in members where !countLeaves(member.value, depth: depth + 1, leaves: &leaves) {
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

    /// Spaces to copy indentation from (a `repeatElement` append goes element by element).
    private static let spaces = [UInt8](repeating: 0x20, count: 256)

    mutating func newline(_ indent: Int) {
        bytes.append(0x0A)
        var count = 2 * indent
        while count > 0 {
            let chunk = min(count, Output.spaces.count)
            bytes.append(contentsOf: Output.spaces[0..<chunk])
            count -= chunk
        }
    }

    mutating func writeNumber(_ number: Double) {
        guard number.isFinite else { raw("null"); return }
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
        // ("0.1", "1e-07", "1.5e+20"). `write(to:)` hands over those same bytes (for a finite number) from a
        // buffer on the stack, without making a String of them.
        number.write(to: &self)
    }

    mutating func writeString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings (keys, names) need no escape: copied whole.
        let plain = string.utf8.withContiguousStorageIfAvailable { buffer -> Bool in
            for byte in buffer where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            bytes.append(contentsOf: buffer)
            return true
        }
        if plain == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            case 0..<0x20:
                let hex: StaticString = "0123456789abcdef"
                raw("\\u00")
                hex.withUTF8Buffer { digits in
                    bytes.append(digits[Int(byte >> 4)])
                    bytes.append(digits[Int(byte & 0xF)])
                }
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// Text output straight into the byte buffer: what `Double.write(to:)` writes a number through.
extension Output: TextOutputStream {
    mutating func write(_ string: String) { bytes.append(contentsOf: string.utf8) }

    /// The standard library hands formatted numbers over as ASCII bytes here.
    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }
}
