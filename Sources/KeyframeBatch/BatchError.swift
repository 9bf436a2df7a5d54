/// Why a batch could not start or had to stop, in plain words with the path concerned.
///
/// Failures of single exports are not errors of the batch: they are ``BatchExportResult``s with status `failed`.
public struct BatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is: usage problems exit with 2, everything else with 1.
    public enum Kind: Sendable, Equatable {
        /// The command line asks for something impossible (an exporter this build lacks, no roots).
        case usage
        /// The inputs, the output folder or the list file are unusable.
        case input
    }

    public var kind: Kind
    /// What went wrong.
    public var message: String

    public init(_ kind: Kind = .input, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
