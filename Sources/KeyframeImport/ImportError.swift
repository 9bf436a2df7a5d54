import KeyframeJSON
import KeyframeModel

/// Why an export could not be converted. Every case names the file, and where it applies the line and column or
/// the JSON path, so the user can open the file at the problem.
///
/// Files of the export are named relative to its folder (`Animation.json`, `LIBRARY/hub.json`), so the same error
/// reads the same in a batch report on any machine; ``located(in:)`` puts the folder in front as the user wrote it.
/// Only ``Kind/unrecognizedInput(path:reason:)`` names the input itself, as the caller gave it.
public struct ImportError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The kinds of problems.
    public enum Kind: Sendable, Equatable {
        /// The text of `file` is not valid JSON.
        case syntax(file: String, JSONSyntaxError)
        /// An XML file (Flump's XML export) is malformed or has a wrong shape at `line`, `column`.
        case markup(file: String, line: Int, column: Int, message: String)
        /// A key is missing or has the wrong type.
        case schema(file: String, JSONSchemaError)
        /// A file the export needs does not exist, cannot be read, or leads outside the export's folder; `path` is
        /// relative to the export's folder.
        case missingFile(path: String, reason: String)
        /// A file of the export is not what it should be (a Flump library without movies, a damaged `.dbbin`);
        /// `file` is relative to the export's folder.
        case invalidFile(file: String, reason: String)
        /// An element names a sprite no spritemap defines.
        case missingSprite(name: String, file: String, path: String)
        /// A symbol contains itself, directly or through others; the chain is listed from the outer symbol.
        case symbolCycle([String])
        /// A value is beyond what Keyframe accepts (e.g. a frame duration of 10⁹).
        case limitExceeded(file: String, path: String, message: String)
        /// The input is missing or not an export Keyframe recognises; `path` is the input as the caller gave it.
        case unrecognizedInput(path: String, reason: String)
        /// Diagnostics were reported and `strict` was requested.
        case strictDiagnostics([Diagnostic])
        /// A normalized document failed to load.
        case model(file: String, ModelError)
    }

    public var kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    public var description: String {
        switch kind {
        case .syntax(let file, let error): return "\(file):\(error.line):\(error.column): invalid JSON: \(error.message)"
        case .schema(let file, let error): return "\(file): at \(error.path): \(error.message)"
        case .markup(let file, let line, let column, let message): return "\(file):\(line):\(column): \(message)"
        case .missingFile(let path, let reason): return "\(path): \(reason)"
        case .invalidFile(let file, let reason): return "\(file): \(reason)"
        case .missingSprite(let name, let file, let path):
            return "\(file): at \(path): sprite \"\(name)\" is not in any spritemap"
        case .symbolCycle(let chain): return "symbol cycle: \(chain.joined(separator: " → "))"
        case .limitExceeded(let file, let path, let message): return "\(file): at \(path): \(message)"
        case .unrecognizedInput(let path, let reason): return "\(path): \(reason)"
        case .strictDiagnostics(let diagnostics):
            return "--strict: \(diagnostics.count) diagnostic(s):\n"
                + diagnostics.map { "  \($0)" }.joined(separator: "\n")
        case .model(let file, let error): return "\(file): \(error)"
        }
    }
}
