import KeyframeJSON

/// Why a normalized document could not be read or is inconsistent.
public struct ModelError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The kinds of problems.
    public enum Kind: Sendable, Equatable {
        /// The text is not JSON.
        case syntax(JSONSyntaxError)
        /// A key is missing or has the wrong type.
        case schema(JSONSchemaError)
        /// The file is not a Keyframe document (`format` is not `"keyframe"`).
        case notAKeyframeDocument(found: String?)
        /// The document was written by a newer Keyframe.
        case unsupportedSchemaVersion(found: Int, supported: Int)
        /// References or values are inconsistent (a missing parent, an unknown sprite, …).
        case invalid(path: String, message: String)
    }

    public var kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    public var description: String {
        switch kind {
        case .syntax(let error): return "invalid JSON at \(error)"
        case .schema(let error): return "\(error)"
        case .notAKeyframeDocument(let found):
            return "not a Keyframe document (format is \(found.map { "\"\($0)\"" } ?? "missing"), expected \"keyframe\")"
        case .unsupportedSchemaVersion(let found, let supported):
            return "schema version \(found) is newer than this Keyframe supports (\(supported)); update Keyframe"
        case .invalid(let path, let message): return "\(path): \(message)"
        }
    }
}
