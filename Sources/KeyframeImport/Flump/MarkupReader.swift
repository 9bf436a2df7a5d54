/// A strict reader for the XML subset that Flump's XML export uses, reporting problems with line and column.
///
/// It reads one root element with attributes and child elements, the five predefined entities and numeric
/// character references, comments, processing instructions (including the `<?xml …?>` declaration) and CDATA
/// sections. Document type declarations are rejected (Flump never writes one, and refusing them rules out entity
/// expansion). Text content is read and dropped: Flump keeps all data in attributes.
///
/// Foundation's `XMLParser` would also work on Linux (FoundationXML over libxml2), but its errors are bare codes
/// with approximate positions, and it would add a runtime library to the CLI; this reader is small, needs nothing,
/// and keeps the position of every element and attribute so that errors about *values* name their place too.
struct MarkupReader {
    /// Elements nested deeper than this are rejected instead of exhausting the stack.
    static let maximumDepth = 512

    private let bytes: [UInt8]
    private var index: Int
    private var line = 1
    private var lineStart: Int

    /// Parses a complete document and returns its root element.
    ///
    /// - Throws: ``MarkupSyntaxError`` naming line and column.
    static func parse(_ bytes: [UInt8]) throws(MarkupSyntaxError) -> MarkupElement {
        var reader = MarkupReader(bytes: bytes)
        return try reader.document()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        let hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        index = hasBOM ? 3 : 0
        lineStart = index
    }

    // MARK: Document structure

    private mutating func document() throws(MarkupSyntaxError) -> MarkupElement {
        try miscellany()
        guard index < bytes.count else { throw error("the document has no root element") }
        guard bytes[index] == UInt8(ascii: "<") else { throw error("expected '<' to start the root element") }
        let root = try element(depth: 0)
        try miscellany()
        if index < bytes.count { throw error("unexpected content after the root element </\(root.name)>") }
        return root
    }

    /// Skips whitespace, comments and processing instructions between top-level items.
    private mutating func miscellany() throws(MarkupSyntaxError) {
        while true {
            skipWhitespace()
            if starts(with: "<?") {
                try processingInstruction()
            } else if starts(with: "<!--") {
                try comment()
            } else if starts(with: "<!DOCTYPE") {
                throw error("document type declarations (<!DOCTYPE …>) are not supported")
            } else {
                return
            }
        }
    }

    private mutating func element(depth: Int) throws(MarkupSyntaxError) -> MarkupElement {
        guard depth < MarkupReader.maximumDepth else {
            throw error("elements nested deeper than \(MarkupReader.maximumDepth) levels")
        }
        let (startLine, startColumn) = position
        index += 1  // <
        let name = try self.name(what: "element name")
        var element = MarkupElement(name: name, line: startLine, column: startColumn)
        // Attributes.
        while true {
            let hadSpace = skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input inside the tag <\(name)>") }
            if bytes[index] == UInt8(ascii: "/") {
                index += 1
                guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw error("expected '>' after '/'") }
                index += 1
                return element
            }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                break
            }
            guard hadSpace else { throw error("expected whitespace, '>' or '/>' in the tag <\(name)>") }
            let (attributeLine, attributeColumn) = position
            let attributeName = try self.name(what: "attribute name")
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw error("expected '=' after the attribute name \"\(attributeName)\"")
            }
            index += 1
            skipWhitespace()
            let value = try quotedValue()
            if element.attributes.contains(where: { $0.name == attributeName }) {
                throw MarkupSyntaxError(message: "duplicate attribute \"\(attributeName)\" in <\(name)>",
                                        line: attributeLine, column: attributeColumn)
            }
            element.attributes.append(
                MarkupAttribute(name: attributeName, value: value, line: attributeLine, column: attributeColumn))
        }
        // Content up to the matching end tag.
        while true {
            guard index < bytes.count else {
                throw error("unexpected end of input: <\(name)> opened at line \(startLine), column \(startColumn) is not closed")
            }
            if bytes[index] != UInt8(ascii: "<") {
                try text()
            } else if starts(with: "</") {
                let (endLine, endColumn) = position
                index += 2
                let closing = try self.name(what: "element name in the end tag")
                guard closing == name else {
                    throw MarkupSyntaxError(
                        message: "the end tag </\(closing)> does not match <\(name)> opened at line \(startLine), column \(startColumn)",
                        line: endLine, column: endColumn)
                }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
                    throw error("expected '>' to close the end tag </\(closing)>")
                }
                index += 1
                return element
            } else if starts(with: "<!--") {
                try comment()
            } else if starts(with: "<![CDATA[") {
                try cdata()
            } else if starts(with: "<?") {
                try processingInstruction()
            } else if starts(with: "<!") {
                throw error("unexpected markup declaration inside <\(name)>")
            } else {
                element.children.append(try self.element(depth: depth + 1))
            }
        }
    }

    // MARK: Lexical items

    /// An XML name: letters, digits, `_`, `:`, `-`, `.`, and any non-ASCII character; not starting with a digit,
    /// `-` or `.`.
    private mutating func name(what: String) throws(MarkupSyntaxError) -> String {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
                || byte == 0x3A || byte >= 0x80
            let isOther = (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
            if isLetter || (isOther && index > start) {
                index += 1
            } else {
                break
            }
        }
        guard index > start else {
            if index < bytes.count {
                throw error("expected an \(what), found \(describe(bytes[index]))")
            }
            throw error("unexpected end of input, expected an \(what)")
        }
        return try decodeUTF8(start..<index)
    }

    /// A quoted attribute value with entities replaced.
    private mutating func quotedValue() throws(MarkupSyntaxError) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw error("expected a quoted attribute value")
        }
        let quote = bytes[index]
        index += 1
        var value: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unexpected end of input inside an attribute value") }
            let byte = bytes[index]
            if byte == quote {
                index += 1
                break
            }
            switch byte {
            case UInt8(ascii: "<"): throw error("'<' is not allowed in an attribute value (write &lt;)")
            case UInt8(ascii: "&"): value.append(contentsOf: try entity())
            case 0x0A:
                // Attribute-value normalization: a line break reads as a space.
                value.append(0x20)
                newline()
            case 0x0D where index + 1 < bytes.count && bytes[index + 1] == 0x0A:
                index += 1  // CR LF is one line break: the LF that follows adds the space
            case 0x09, 0x0D:
                value.append(0x20)
                index += 1
            default:
                value.append(byte)
                index += 1
            }
        }
        return try decodeUTF8(value)
    }

    /// Character data between tags; checked for well-formed entities, then dropped.
    private mutating func text() throws(MarkupSyntaxError) {
        while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
            if bytes[index] == UInt8(ascii: "&") {
                _ = try entity()
            } else if bytes[index] == 0x0A {
                newline()
            } else {
                index += 1
            }
        }
    }

    /// `&name;` or `&#N;` / `&#xN;` at the current position, as UTF-8 bytes.
    private mutating func entity() throws(MarkupSyntaxError) -> [UInt8] {
        let (entityLine, entityColumn) = position
        func fail(_ message: String) -> MarkupSyntaxError {
            MarkupSyntaxError(message: message, line: entityLine, column: entityColumn)
        }
        index += 1  // &
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: ";"), index - start < 12 {
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else {
            throw fail("'&' must start an entity such as &amp; or &#38;")
        }
        let body = String(decoding: bytes[start..<index], as: UTF8.self)
        index += 1  // ;
        switch body {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            var scalarValue: UInt32? = nil
            if body.hasPrefix("#x") || body.hasPrefix("#X") {
                scalarValue = UInt32(body.dropFirst(2), radix: 16)
            } else if body.hasPrefix("#") {
                scalarValue = UInt32(body.dropFirst(), radix: 10)
            } else {
                throw fail("unknown entity &\(body);")
            }
            guard let scalarValue, let scalar = Unicode.Scalar(scalarValue), scalarValue != 0 else {
                throw fail("&\(body); is not a valid character reference")
            }
            return Array(String(Character(scalar)).utf8)
        }
    }

    private mutating func comment() throws(MarkupSyntaxError) {
        let (startLine, startColumn) = position
        index += 4  // <!--
        while index < bytes.count {
            if starts(with: "-->") {
                index += 3
                return
            }
            if bytes[index] == 0x0A { newline() } else { index += 1 }
        }
        throw MarkupSyntaxError(message: "the comment opened here is not closed with -->", line: startLine,
                                column: startColumn)
    }

    private mutating func cdata() throws(MarkupSyntaxError) {
        let (startLine, startColumn) = position
        index += 9  // <![CDATA[
        while index < bytes.count {
            if starts(with: "]]>") {
                index += 3
                return
            }
            if bytes[index] == 0x0A { newline() } else { index += 1 }
        }
        throw MarkupSyntaxError(message: "the CDATA section opened here is not closed with ]]>", line: startLine,
                                column: startColumn)
    }

    private mutating func processingInstruction() throws(MarkupSyntaxError) {
        let (startLine, startColumn) = position
        index += 2  // <?
        while index < bytes.count {
            if starts(with: "?>") {
                index += 2
                return
            }
            if bytes[index] == 0x0A { newline() } else { index += 1 }
        }
        throw MarkupSyntaxError(message: "the processing instruction opened here is not closed with ?>",
                                line: startLine, column: startColumn)
    }

    // MARK: Positions and helpers

    /// The current line and column (1-based; the column counts Unicode scalars).
    private var position: (line: Int, column: Int) {
        var column = 1
        var cursor = lineStart
        while cursor < index && cursor < bytes.count {
            if bytes[cursor] & 0xC0 != 0x80 { column += 1 }
            cursor += 1
        }
        return (line, column)
    }

    private mutating func newline() {
        index += 1
        line += 1
        lineStart = index
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A: newline()
            default: return index > start
            }
        }
        return index > start
    }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pointer = text.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] { return false }
        return true
    }

    private func decodeUTF8(_ range: Range<Int>) throws(MarkupSyntaxError) -> String {
        try decodeUTF8(Array(bytes[range]))
    }

    private func decodeUTF8(_ value: [UInt8]) throws(MarkupSyntaxError) -> String {
        guard let text = String(validating: value, as: UTF8.self) else { throw error("the text is not valid UTF-8") }
        return text
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let digits = Array("0123456789ABCDEF")
        return "byte 0x\(digits[Int(byte >> 4)])\(digits[Int(byte & 0x0F)])"
    }

    private func error(_ message: String) -> MarkupSyntaxError {
        let (line, column) = position
        return MarkupSyntaxError(message: message, line: line, column: column)
    }
}
