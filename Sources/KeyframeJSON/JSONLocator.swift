/// Finds where a value sits in JSON text, so that a message about it can name a line and column
/// (`Animation.json:12:5: error: …`), which editors, IDEs and CI logs turn into a link.
///
/// The text is scanned, not parsed into values: only the containers on the way to the value are entered, everything
/// else is skipped, and nothing is allocated but the member names compared. Positions are counted the way
/// ``JSONSyntaxError`` counts them: 1-based lines, columns in Unicode scalars of the line, after a byte-order mark.
///
/// ```swift
/// let place = JSONLocator.position(of: JSONPath(parsing: "movies[0].layers"), in: bytes)   // (line: 4, column: 17)
/// ```
public enum JSONLocator {
    /// The line and column where the value at `path` starts in `bytes`, or `nil` when the text holds no such value
    /// (or is not JSON as far as the scan goes). When an object repeats a member name, the last one is found, as
    /// ``JSONParser`` keeps the last.
    public static func position(of path: JSONPath, in bytes: [UInt8]) -> (line: Int, column: Int)? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(buffer)
            guard let offset = scanner.find(path.components) else { return nil }
            return scanner.lineAndColumn(of: offset)
        }
    }
}

extension JSONPath {
    /// Reads a path in the form ``description`` writes (`ANIMATION.TIMELINE.LAYERS[3].Frames[12]`; `$` or empty
    /// for the root), or `nil` when `text` is not in that form. A member name that itself contains `.` or `[`
    /// cannot be told apart from two steps; such a path reads as the steps, and locating it finds nothing.
    public init?(parsing text: String) {
        var components: [Component] = []
        if text.isEmpty || text == "$" {
            self.init(components: [])
            return
        }
        var key = ""
        var index: String? = nil
        var afterIndex = false
        for character in text {
            if var digits = index {
                if character == "]" {
                    guard let value = Int(digits) else { return nil }
                    components.append(.index(value))
                    index = nil
                    afterIndex = true
                } else {
                    digits.append(character)
                    index = digits
                }
                continue
            }
            switch character {
            case ".":
                if !key.isEmpty { components.append(.key(key)) } else if !afterIndex { return nil }
                key = ""
                afterIndex = false
            case "[":
                if !key.isEmpty { components.append(.key(key)) }
                key = ""
                index = ""
            default:
                if afterIndex { return nil }
                key.append(character)
            }
        }
        guard index == nil else { return nil }
        if !key.isEmpty { components.append(.key(key)) }
        self.init(components: components)
    }
}

/// A forward scan over JSON text that can step into members and elements and skip whole values.
private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let start: Int
    var index: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        let hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        start = hasBOM ? 3 : 0
        index = start
    }

    /// The byte offset where the value at `components` starts.
    mutating func find(_ components: [JSONPath.Component]) -> Int? {
        skipWhitespace()
        for component in components {
            guard index < bytes.count else { return nil }
            switch component {
            case .key(let wanted):
                guard bytes[index] == UInt8(ascii: "{") else { return nil }
                index += 1
                var found: Int? = nil
                let wantedBytes = Array(wanted.utf8)
                skipWhitespace()
                if index < bytes.count && bytes[index] == UInt8(ascii: "}") { return nil }
                while true {
                    skipWhitespace()
                    guard let name = readString() else { return nil }
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                    skipWhitespace()
                    if name == wantedBytes { found = index }
                    guard skipValue() else { return nil }
                    skipWhitespace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "}") else { return nil }
                    break
                }
                guard let found else { return nil }
                index = found
            case .index(let wanted):
                guard bytes[index] == UInt8(ascii: "["), wanted >= 0 else { return nil }
                index += 1
                skipWhitespace()
                if index < bytes.count && bytes[index] == UInt8(ascii: "]") { return nil }
                var position = 0
                while position < wanted {
                    guard skipValue() else { return nil }
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return nil }
                    index += 1
                    skipWhitespace()
                    position += 1
                }
            }
        }
        return index < bytes.count ? index : nil
    }

    /// Reads a string starting at `index` and returns its UTF-8 bytes with escapes resolved.
    mutating func readString() -> [UInt8]? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        var result: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return result
            }
            if byte != UInt8(ascii: "\\") {
                result.append(byte)
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { return nil }
            let escaped = bytes[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "n"): result.append(0x0A)
            case UInt8(ascii: "t"): result.append(0x09)
            case UInt8(ascii: "r"): result.append(0x0D)
            case UInt8(ascii: "b"): result.append(0x08)
            case UInt8(ascii: "f"): result.append(0x0C)
            case UInt8(ascii: "u"):
                guard var scalar = hex4() else { return nil }
                // A surrogate pair: the second half follows as another \u escape.
                if scalar >= 0xD800 && scalar < 0xDC00, index + 1 < bytes.count,
                    bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                {
                    index += 2
                    guard let low = hex4(), low >= 0xDC00 && low < 0xE000 else { return nil }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                result += Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
            default: result.append(escaped)
            }
        }
        return nil
    }

    mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Skips the value starting at `index` (containers by counting brackets outside strings, without recursion).
    mutating func skipValue() -> Bool {
        guard index < bytes.count else { return false }
        var depth = 0
        repeat {
            guard index < bytes.count else { return false }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                guard skipString() else { return false }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard depth > 0 else { return false }
                depth -= 1
                index += 1
            default:
                if depth == 0 {
                    // A number or a literal: up to the next delimiter.
                    let begin = index
                    while index < bytes.count {
                        let next = bytes[index]
                        if next == UInt8(ascii: ",") || next == UInt8(ascii: "}") || next == UInt8(ascii: "]")
                            || next == 0x20 || next == 0x0A || next == 0x0D || next == 0x09 { break }
                        index += 1
                    }
                    return index > begin
                }
                index += 1
            }
        } while depth > 0
        return true
    }

    /// Skips a string starting at `index`, escapes included.
    mutating func skipString() -> Bool {
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") {
                index += 2
            } else {
                index += 1
                if byte == UInt8(ascii: "\"") { return true }
            }
        }
        return false
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 } else { return }
        }
    }

    /// The 1-based line and column (in Unicode scalars) of `offset`.
    func lineAndColumn(of offset: Int) -> (line: Int, column: Int) {
        JSONSyntaxError.lineAndColumn(in: bytes, from: start, to: offset)
    }
}
