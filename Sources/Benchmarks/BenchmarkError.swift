/// Why a benchmark could not run: an input it could not read or convert, a folder it could not make.
public struct BenchmarkError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, naming the input as given.
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
