import KeyframeJSON

/// Something in the source that the model could not represent exactly, with where it was found.
///
/// Importers never drop a feature silently: filters, unsupported blend modes, sounds, scripts and the like become
/// diagnostics. `keyframe convert --strict` turns any warning into an error.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How much the problem matters.
    public enum Severity: String, Sendable, Hashable, CaseIterable {
        /// Information only: converted, with a note.
        case info
        /// Part of the source is kept as data but not reproduced (or approximated).
        case warning
    }

    /// How much the problem matters.
    public var severity: Severity
    /// A stable machine-readable code, e.g. `filter-not-rendered`.
    public var code: String
    /// A human-readable explanation.
    public var message: String
    /// The source file, relative to the input folder.
    public var file: String?
    /// The JSON path of the first occurrence.
    public var path: String?
    /// How many occurrences this diagnostic stands for (identical code, file and message are merged).
    public var count: Int

    public init(severity: Severity, code: String, message: String, file: String? = nil, path: String? = nil,
                count: Int = 1) {
        self.severity = severity
        self.code = code
        self.message = message
        self.file = file
        self.path = path
        self.count = count
    }

    public var description: String {
        var text = "\(severity.rawValue): [\(code)] \(message)"
        if let file { text += " (\(file)\(path.map { " at \($0)" } ?? ""))" }
        if count > 1 { text += " ×\(count)" }
        return text
    }
}

extension Diagnostic: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        let severityCursor = try json.member("severity")
        guard let severity = Severity(rawValue: try severityCursor.string()) else {
            throw severityCursor.error("unknown severity \"\(try severityCursor.string())\"")
        }
        self.init(
            severity: severity, code: try json.decode("code"), message: try json.decode("message"),
            file: try json.decodeIfPresent("file"), path: try json.decodeIfPresent("path"),
            count: try json.decodeIfPresent("count") ?? 1)
    }
    public var json: JSONValue {
        var object: JSONObject = [
            "severity": .string(severity.rawValue), "code": .string(code), "message": .string(message),
            "count": .number(Double(count)),
        ]
        object.setIfPresent("file", file)
        object.setIfPresent("path", path)
        return .object(object)
    }
}

/// Collects diagnostics during an import, merging repeats of the same problem so a file with 80 glow filters
/// reports one line with a count rather than 80.
public struct DiagnosticCollector: Sendable {
    /// What makes two occurrences the same diagnostic.
    private struct Key: Hashable {
        var code: String
        var file: String?
        var message: String
    }

    private var order: [Key] = []
    private var entries: [Key: Diagnostic] = [:]

    public init() {}

    /// Records one occurrence.
    public mutating func add(_ diagnostic: Diagnostic) {
        let key = Key(code: diagnostic.code, file: diagnostic.file, message: diagnostic.message)
        if entries[key] != nil {
            entries[key]!.count += diagnostic.count
        } else {
            order.append(key)
            entries[key] = diagnostic
        }
    }

    /// Records one occurrence, formatting its path only if it is the first (a path is kept for the first only).
    public mutating func add(severity: Diagnostic.Severity, code: String, message: String, file: String?,
                             path: () -> String?) {
        let key = Key(code: code, file: file, message: message)
        if entries[key] != nil {
            entries[key]!.count += 1
        } else {
            order.append(key)
            entries[key] = Diagnostic(severity: severity, code: code, message: message, file: file, path: path())
        }
    }

    /// The diagnostics in the order they were first seen.
    public var diagnostics: [Diagnostic] { order.compactMap { entries[$0] } }
}
