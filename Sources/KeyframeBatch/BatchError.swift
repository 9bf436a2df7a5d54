import KeyframeImport

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
    /// The same error in the build form, when it is about a place in a file (a configuration file's key).
    public var located: BuildMessage?

    public init(_ kind: Kind = .input, _ message: String, located: BuildMessage? = nil) {
        self.kind = kind
        self.message = message
        self.located = located
    }

    public var description: String { message }
}
