/// Malformed JSON text, with the 1-based line and column where reading stopped.
public struct JSONSyntaxError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What was wrong at that position ("expected ',' or '}' after an object member", …).
    public var message: String
    /// 1-based line number.
    public var line: Int
    /// 1-based column, counted in characters (Unicode scalars) of that line.
    public var column: Int
    /// Byte offset from the start of the text (after a UTF-8 byte-order mark, if any, was skipped).
    public var offset: Int

    public init(message: String, line: Int, column: Int, offset: Int) {
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}

extension JSONSyntaxError {
    /// The 1-based line and column (in Unicode scalars) of byte `offset` of JSON text whose first byte after a
    /// byte-order mark is at `start`: how the parser's errors and ``JSONLocator`` both count positions.
    static func lineAndColumn(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to offset: Int)
        -> (line: Int, column: Int)
    {
        var line = 1
        var column = 1
        var position = start
        while position < offset {
            let byte = bytes[position]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            position += 1
        }
        return (line, column)
    }
}
