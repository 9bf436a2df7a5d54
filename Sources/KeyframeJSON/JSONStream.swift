/// Writes JSON piece by piece with exactly ``JSONWriter``'s layout, for callers that know the shape of what they
/// write and would otherwise build a ``JSONValue`` tree only to serialize it.
///
/// The caller is responsible for the layout decisions ``JSONWriter`` would make: members in the order of their
/// keys' UTF-8 bytes, and an object or array written expanded (one member per line) only where ``JSONWriter``
/// would not put it on one line. ``value(_:indent:)``, ``numbers(_:indent:)`` and ``numberArrays(_:indent:)`` make
/// those decisions themselves, as ``JSONWriter`` does for a value at that place.
///
/// A compact stream writes ``JSONWriter/writeCompact(_:)``'s bytes instead: no whitespace at all, every `indent`
/// ignored (the key order is the caller's to keep the same).
public struct JSONStream {
    var output = Output()
    /// Whether the stream writes without whitespace.
    public let compact: Bool

    public init(capacity: Int = 1 << 16, compact: Bool = false) {
        output.bytes.reserveCapacity(capacity)
        self.compact = compact
    }

    /// The bytes written so far.
    public var bytes: [UInt8] { output.bytes }

    /// The bytes with a final newline (the one ``JSONWriter/write(_:)`` ends with; a compact stream's one line ends
    /// with it too).
    public consuming func finish() -> [UInt8] {
        output.bytes.append(0x0A)
        return output.bytes
    }

    /// `{` or `[` opening an expanded container.
    public mutating func open(_ bracket: UInt8) { output.bytes.append(bracket) }

    /// A line break and the indentation of level `indent`, then `}` or `]`.
    public mutating func close(_ bracket: UInt8, indent: Int) {
        if !compact { output.newline(indent) }
        output.bytes.append(bracket)
    }

    /// The start of a member of an expanded object at level `indent` (`,` unless it is the first, a line break,
    /// the key and ` : `).
    public mutating func member(_ key: String, indent: Int, first: Bool = false) {
        if !first { output.bytes.append(UInt8(ascii: ",")) }
        if compact {
            output.writeString(key)
            output.bytes.append(UInt8(ascii: ":"))
            return
        }
        output.newline(indent)
        output.writeString(key)
        output.raw(" : ")
    }

    /// The start of an element of an expanded array at level `indent`.
    public mutating func element(indent: Int, first: Bool) {
        if !first { output.bytes.append(UInt8(ascii: ",")) }
        if !compact { output.newline(indent) }
    }

    public mutating func number(_ number: Double) { output.writeNumber(number) }
    public mutating func bool(_ bool: Bool) { if bool { output.raw("true") } else { output.raw("false") } }
    public mutating func string(_ string: String) { output.writeString(string) }

    /// `value` as ``JSONWriter`` writes it at level `indent`.
    public mutating func value(_ value: JSONValue, indent: Int) {
        if compact { output.writeInline(value, spaced: false) } else { output.write(value, indent: indent) }
    }

    /// An array of numbers as ``JSONWriter`` writes it at level `indent`: on one line up to
    /// ``JSONWriter/inlineLeafLimit`` numbers, else one per line.
    public mutating func numbers(_ numbers: [Double], indent: Int) {
        if numbers.isEmpty { output.raw("[]"); return }
        if compact || numbers.count <= JSONWriter.inlineLeafLimit {
            inline(numbers)
            return
        }
        output.bytes.append(UInt8(ascii: "["))
        for position in numbers.indices {
            if position > 0 { output.bytes.append(UInt8(ascii: ",")) }
            output.newline(indent + 1)
            output.writeNumber(numbers[position])
        }
        output.newline(indent)
        output.bytes.append(UInt8(ascii: "]"))
    }

    /// An array of arrays of numbers as ``JSONWriter`` writes it at level `indent`: on one line when all of them
    /// hold at most ``JSONWriter/inlineLeafLimit`` numbers together, else one inner array per line (each on one
    /// line or expanded by the same rule).
    public mutating func numberArrays(_ arrays: [[Double]], indent: Int) {
        if arrays.isEmpty { output.raw("[]"); return }
        if compact {
            output.bytes.append(UInt8(ascii: "["))
            for position in arrays.indices {
                if position > 0 { output.bytes.append(UInt8(ascii: ",")) }
                if arrays[position].isEmpty { output.raw("[]") } else { inline(arrays[position]) }
            }
            output.bytes.append(UInt8(ascii: "]"))
            return
        }
        var leaves = 0
        for array in arrays { leaves += array.count }
        if leaves <= JSONWriter.inlineLeafLimit {
            output.raw("[ ")
            for position in arrays.indices {
                if position > 0 { output.raw(", ") }
                if arrays[position].isEmpty { output.raw("[]") } else { inline(arrays[position]) }
            }
            output.raw(" ]")
            return
        }
        output.bytes.append(UInt8(ascii: "["))
        for position in arrays.indices {
            if position > 0 { output.bytes.append(UInt8(ascii: ",")) }
            output.newline(indent + 1)
            numbers(arrays[position], indent: indent + 1)
        }
        output.newline(indent)
        output.bytes.append(UInt8(ascii: "]"))
    }

    /// `[ a, b, … ]` (not empty), or `[a,b,…]` when compact.
    private mutating func inline(_ numbers: [Double]) {
        if compact {
            output.bytes.append(UInt8(ascii: "["))
            for position in numbers.indices {
                if position > 0 { output.bytes.append(UInt8(ascii: ",")) }
                output.writeNumber(numbers[position])
            }
            output.bytes.append(UInt8(ascii: "]"))
            return
        }
        output.raw("[ ")
        for position in numbers.indices {
            if position > 0 { output.raw(", ") }
            output.writeNumber(numbers[position])
        }
        output.raw(" ]")
    }
}
