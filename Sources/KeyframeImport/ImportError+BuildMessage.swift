import Foundation
import KeyframeJSON
import KeyframeModel

extension ImportError {
    /// The error as build messages (``BuildMessage``): file names inside `folder` (the export's folder as it should
    /// be printed, see ``located(in:)``), with the line and column of a JSON path found by reading the file through
    /// `read`. One message, or with `--strict` one per warning diagnostic, each an error.
    public func buildMessages(folder: String, read: @escaping (String) -> [UInt8]? = BuildMessage.readRegularFile)
        -> [BuildMessage]
    {
        var positions = SourcePositions(read: read)
        let located = self.located(in: folder)
        func message(_ file: String, _ path: String?, _ text: String) -> BuildMessage {
            let place = path.flatMap { positions.position(of: $0, in: file) }
            return BuildMessage(.error, file: file, line: place?.line, column: place?.column, message: text)
        }
        switch located.kind {
        case .syntax(let file, let error):
            return [BuildMessage(.error, file: file, line: error.line, column: error.column,
                                 message: "invalid JSON: \(error.message)")]
        case .markup(let file, let line, let column, let text):
            return [BuildMessage(.error, file: file, line: line, column: column, message: text)]
        case .schema(let file, let error):
            return [message(file, error.path.description, "at \(error.path): \(error.message)")]
        case .missingFile(let path, let reason):
            return [BuildMessage(.error, file: path, message: reason)]
        case .invalidFile(let file, let reason):
            return [BuildMessage(.error, file: file, message: reason)]
        case .missingSprite(let name, let file, let path):
            return [message(file, path, "at \(path): sprite \"\(name)\" is not in any spritemap")]
        case .symbolCycle(let chain):
            return [BuildMessage(.error, file: folder, message: "symbol cycle: \(chain.joined(separator: " → "))")]
        case .limitExceeded(let file, let path, let text):
            return [message(file, path, "at \(path): \(text)")]
        case .unrecognizedInput(let path, let reason):
            return [BuildMessage(.error, file: path, message: reason)]
        case .strictDiagnostics(let diagnostics):
            return diagnostics.map {
                $0.buildMessage(folder: folder, severity: .error, suffix: " (--strict)", positions: &positions)
            }
        case .model(let file, let error):
            switch error.kind {
            case .syntax(let syntax):
                return [BuildMessage(.error, file: file, line: syntax.line, column: syntax.column,
                                     message: "invalid JSON: \(syntax.message)")]
            case .schema(let schema):
                return [message(file, schema.path.description, "\(schema)")]
            case .invalid(let path, _):
                return [message(file, path, "\(error)")]
            case .notAKeyframeDocument, .unsupportedSchemaVersion:
                return [message(file, nil, "\(error)")]
            }
        }
    }
}

extension Diagnostic {
    /// The diagnostic as a build message: `[code] message` at its file (inside `folder`, the export's folder as it
    /// should be printed) and the line and column of its path, read from the file through `read`; a diagnostic that
    /// names no file is placed at `folder`. `severity` overrides the diagnostic's own (info becomes a note);
    /// `prefix` goes before the message (`lottie: `).
    public func buildMessage(folder: String, severity: BuildMessage.Severity? = nil, prefix: String = "",
                             read: @escaping (String) -> [UInt8]? = BuildMessage.readRegularFile) -> BuildMessage
    {
        var positions = SourcePositions(read: read)
        return buildMessage(folder: folder, severity: severity, prefix: prefix, positions: &positions)
    }

    func buildMessage(folder: String, severity: BuildMessage.Severity?, prefix: String = "",
                                  suffix: String = "", positions: inout SourcePositions) -> BuildMessage
    {
        let file = BuildMessage.path(self.file ?? "", in: folder)
        let place = self.file == nil ? nil : path.flatMap { positions.position(of: $0, in: file) }
        var text = "\(prefix)[\(code)] \(message)"
        if let path { text += " (at \(path))" }
        if count > 1 { text += " ×\(count)" }
        return BuildMessage(severity ?? (self.severity == .warning ? .warning : .note), file: file,
                            line: place?.line, column: place?.column, message: text + suffix)
    }
}

extension Array where Element == Diagnostic {
    /// The diagnostics as build messages (``Diagnostic/buildMessage(folder:severity:prefix:read:)``), each file read
    /// at most once for all of them.
    public func buildMessages(folder: String, severity: BuildMessage.Severity? = nil, prefix: String = "",
                              read: @escaping (String) -> [UInt8]? = BuildMessage.readRegularFile) -> [BuildMessage]
    {
        var positions = SourcePositions(read: read)
        return map { $0.buildMessage(folder: folder, severity: severity, prefix: prefix, positions: &positions) }
    }
}

/// Lines and columns of locations in the files of one export, each file read at most once.
struct SourcePositions {
    let read: (String) -> [UInt8]?
    private var files: [String: [UInt8]?] = [:]

    init(read: @escaping (String) -> [UInt8]?) { self.read = read }

    /// Where `location` is in `file`: a JSON path (`movies[0].layers`), or an XML position as Flump's diagnostics
    /// write it (`line 3, column 7`).
    mutating func position(of location: String, in file: String) -> (line: Int, column: Int)? {
        if location.hasPrefix("line ") {
            let parts = location.dropFirst("line ".count).split(separator: ",")
            guard parts.count == 2, let line = Int(parts[0]),
                let column = Int(parts[1].trimmingCharacters(in: .whitespaces).dropFirst("column ".count))
            else { return nil }
            return (line, column)
        }
        guard let path = JSONPath(parsing: location) else { return nil }
        if files[file] == nil { files[file] = .some(read(file)) }
        guard let bytes = files[file] ?? nil else { return nil }
        return JSONLocator.position(of: path, in: bytes)
    }
}
