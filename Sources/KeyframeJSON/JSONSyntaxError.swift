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
