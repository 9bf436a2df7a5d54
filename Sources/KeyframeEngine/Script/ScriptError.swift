import KeyframeJSON

/// Why a script could not be read or played, with the place in the script file that caused it.
///
/// Every message starts with the script's file name and either a line and column (invalid
/// JSON) or a JSON path (a wrong shape, an unknown name, a clip that cannot be resolved, a step
/// the animator refuses):
///
/// ```
/// walk.json:4:17: invalid JSON: unexpected character '}', expected a value
/// walk.json: at steps[3].at: expected a number, found string
/// walk.json: at steps[5] (continue walker at 1.2 s): continue is illegal while active (running): …
/// ```
public struct ScriptError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable {
        /// The bytes are not JSON.
        case syntax(JSONSyntaxError)
        /// The JSON does not have the shape of a script (wrong type, missing key, unknown name).
        case schema(JSONSchemaError)
        /// A clip target could not be resolved: the resolver's message, at the target's path.
        case clip(path: JSONPath, message: String)
        /// A step was refused by its animator or group while the script played.
        case step(index: Int, summary: String, AnimatorError)
    }

    /// The script's file name as given to the reader (`"script"` when none was given).
    public var file: String
    /// What went wrong.
    public var kind: Kind

    /// Creates an error.
    public init(file: String, _ kind: Kind) {
        self.file = file
        self.kind = kind
    }

    /// The JSON path of the offending value, when the error has one.
    public var path: JSONPath? {
        switch kind {
        case .syntax: return nil
        case .schema(let error): return error.path
        case .clip(let path, _): return path
        case .step(let index, _, _): return JSONPath.root.appending("steps").appending(index)
        }
    }

    /// `file:line:column: …` for syntax errors, `file: at path: …` otherwise.
    public var description: String {
        switch kind {
        case .syntax(let error): return "\(file):\(error.line):\(error.column): invalid JSON: \(error.message)"
        case .schema(let error): return "\(file): at \(error.path): \(error.message)"
        case .clip(let path, let message): return "\(file): at \(path): \(message)"
        case .step(let index, let summary, let error): return "\(file): at steps[\(index)] (\(summary)): \(error)"
        }
    }
}
