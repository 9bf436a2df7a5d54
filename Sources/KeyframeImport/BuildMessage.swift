import Foundation
import KeyframeFiles

/// One problem written the way compilers write them, so that IDEs, editors and CI logs turn it into a link to the
/// place: `PATH:LINE:COLUMN: error: message`, `PATH: warning: message` when there is no position.
///
/// This is what `--diagnostics-format build` prints and what the SwiftPM plugin and the Bazel rule show inside
/// builds. ``ImportError/buildMessages(folder:read:)`` and `KeyframeModel/Diagnostic/buildMessage(folder:severity:prefix:read:)`
/// make them, reading the named file to turn a JSON path into a line and column.
public struct BuildMessage: Sendable, Equatable, CustomStringConvertible {
    /// How the build treats the message.
    public enum Severity: String, Sendable, Equatable {
        case error
        case warning
        case note
    }

    public var severity: Severity
    /// The file (or folder) concerned, as it is printed; empty when nothing on disk is concerned.
    public var file: String
    /// 1-based line, when known.
    public var line: Int?
    /// 1-based column in Unicode scalars, when known (only with a line).
    public var column: Int?
    /// What is wrong, on one line.
    public var message: String

    public init(_ severity: Severity, file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = line == nil ? nil : column
        self.message = message
    }

    /// `PATH:LINE:COLUMN: severity: message` (`keyframe: severity: message` without a file). Line breaks in the
    /// message become spaces: a build log parser reads one line per message.
    public var description: String {
        var place = file.isEmpty ? "keyframe" : file
        if let line {
            place += ":\(line)"
            if let column { place += ":\(column)" }
        }
        let text = message.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return "\(place): \(severity.rawValue): \(text)"
    }

    /// The same message with a file under a folder of `prefixes` (absolute path → the path to print instead, such
    /// as the folder as the user wrote it) named through it; other files are left as they are.
    public func renamingFolders(_ prefixes: [(absolute: String, shown: String)]) -> BuildMessage {
        var copy = self
        for (absolute, shown) in prefixes where !absolute.isEmpty {
            if file == absolute {
                copy.file = shown
                return copy
            }
            let folder = absolute.hasSuffix("/") ? absolute : absolute + "/"
            if file.hasPrefix(folder) {
                let rest = String(file.dropFirst(folder.count))
                copy.file = shown.isEmpty || shown == "." ? rest : (shown.hasSuffix("/") ? shown + rest : shown + "/" + rest)
                return copy
            }
        }
        return copy
    }

    /// Reads the file at `path` to find positions in it: regular files only (a named pipe given as an input has
    /// been read already and cannot be read again), `nil` when it cannot be read.
    public static func readRegularFile(_ path: String) -> [UInt8]? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return try? InputFile.read(path, limit: SourceFolder.maximumFileSize)
    }

    /// `file` inside `folder` (the folder as it should be printed); absolute files and an empty folder leave `file`
    /// as it is.
    static func path(_ file: String, in folder: String) -> String {
        if file.isEmpty { return folder }
        if file.hasPrefix("/") || folder.isEmpty { return file }
        return folder.hasSuffix("/") ? folder + file : folder + "/" + file
    }
}
