/// Malformed XML: what is wrong and where (1-based line, column in Unicode scalars).
struct MarkupSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong at that position.
    var message: String
    /// 1-based line.
    var line: Int
    /// 1-based column, counted in Unicode scalars of the line.
    var column: Int

    var description: String { "line \(line), column \(column): \(message)" }
}
