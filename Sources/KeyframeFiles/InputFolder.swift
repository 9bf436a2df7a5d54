#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The folder of an input — an export, or the assets folder of a normalized document — and the one place a path
/// named inside an input file (an atlas image, a spritemap, a symbol file) is turned into a file to open.
///
/// Every such path must stay inside the folder, also after symbolic links are followed:
/// - it is read as a `/`-separated path relative to the folder; a leading `/` is dropped, so an absolute path is
///   re-rooted inside the folder (`/images/a.png` is `images/a.png` of the folder), as exporters that wrote the
///   author's absolute paths expect;
/// - `.` segments and empty segments are dropped and `..` takes one segment back; a `..` above the folder is refused;
/// - when the file exists, its real path (every link followed) must lie inside the folder's real path, so a link in
///   the folder that points elsewhere is refused;
/// - an empty path, one naming the folder itself, and one with a NUL character are refused.
///
/// A build sandbox that links every declared input file into a fresh folder (Bazel) makes every file of an export a
/// link; for that case the folder its main file (`mainFile`) really lives in counts as the folder too.
///
/// ```swift
/// let folder = InputFolder("exports/walker", mainFile: "Animation.json")
/// let image = try folder.resolve("../../secret/evil.png")   // throws: climbs above the folder
/// ```
public struct InputFolder: Sendable, Equatable {
    /// Where the folder is, as the caller gave it: absolute, relative to the working directory, or empty for the
    /// working directory itself. Files are opened through it.
    public let path: String
    /// How messages name the folder: usually ``path``; empty to name files relative to the folder.
    public let displayName: String
    /// The main file, relative to the folder, whose real folder also counts (see the type's documentation).
    private let mainFile: String?

    /// The folder at `path`, named `displayName` in messages (default: `path`); `mainFile`, relative to the folder,
    /// is the file the input was detected by (see the type's documentation).
    public init(_ path: String, displayName: String? = nil, mainFile: String? = nil) {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        if trimmed == "." { trimmed = "" }
        self.path = trimmed
        var display = displayName ?? path
        while display.count > 1 && display.hasSuffix("/") { display.removeLast() }
        self.displayName = display
        self.mainFile = mainFile.flatMap { try? InputFolder.clean($0) }
    }

    /// The path to open for `relative`, a path inside the folder (as ``resolve(_:)`` returns it).
    public func location(of relative: String) -> String {
        InputFolder.join(path, relative)
    }

    /// `relative` as messages name it: inside ``displayName``.
    public func displayPath(of relative: String) -> String {
        InputFolder.join(displayName, relative)
    }

    /// The file that `written`, a path named inside an input file, means: its clean path relative to the folder.
    ///
    /// - Throws: ``InputPathError`` when the path is empty, has a NUL character, climbs above the folder with `..`,
    ///   or names a file that, once links are followed, is not inside the folder. A file that does not exist is not
    ///   an error here: opening it reports it missing.
    public func resolve(_ written: String) throws(InputPathError) -> String {
        let relative = try InputFolder.clean(written)
        // The common case costs one `lstat` per segment: when no segment below the folder is a link, the clean path
        // is where the file really is, inside the folder. Only a link sends the path through `realpath`.
        var prefix = path
        var linked = false
        for segment in relative.split(separator: "/") {
            prefix = InputFolder.join(prefix, String(segment))
            var info = stat()
            // A missing segment: nothing below it exists to be read.
            guard lstat(prefix, &info) == 0 else { return relative }
            if (info.st_mode & S_IFMT) == S_IFLNK {
                linked = true
                break
            }
        }
        guard linked, let real = InputFolder.realPath(location(of: relative)) else { return relative }
        guard realLocations().contains(where: { InputFolder.isInside(real, $0) }) else {
            throw InputPathError(written: written, reason: .linksOutside(real))
        }
        return relative
    }

    /// The folder's real path and, in a sandbox of links, the real folder of its main file.
    func realLocations() -> [String] {
        var locations: [String] = []
        if let real = InputFolder.realPath(path.isEmpty ? "." : path) { locations.append(real) }
        if let mainFile, let real = InputFolder.realPath(location(of: mainFile)), let slash = real.lastIndex(of: "/") {
            let folder = slash == real.startIndex ? "/" : String(real[..<slash])
            if !locations.contains(folder) { locations.append(folder) }
        }
        return locations
    }

    /// The lexical part of ``resolve(_:)``, which needs no file system (files held in memory, a document whose
    /// folder is not known yet): `written` as a clean path relative to the folder.
    ///
    /// - Throws: ``InputPathError`` for an empty path, a NUL character, a path naming the folder itself, or a `..`
    ///   that climbs above the folder.
    public static func clean(_ written: String) throws(InputPathError) -> String {
        guard !written.isEmpty else { throw InputPathError(written: written, reason: .empty) }
        guard !written.utf8.contains(0) else { throw InputPathError(written: written, reason: .nulCharacter) }
        var parts: [Substring] = []
        for part in written.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { throw InputPathError(written: written, reason: .climbsOutside) }
                parts.removeLast()
            default: parts.append(part)
            }
        }
        guard !parts.isEmpty else { throw InputPathError(written: written, reason: .namesTheFolder) }
        return parts.joined(separator: "/")
    }

    /// `folder/relative`, or `relative` alone for the empty folder.
    private static func join(_ folder: String, _ relative: String) -> String {
        if folder.isEmpty { return relative }
        return folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
    }

    /// Whether the real path `path` is `folder` or inside it.
    static func isInside(_ path: String, _ folder: String) -> Bool {
        if folder == "/" { return true }
        return path == folder || path.hasPrefix(folder + "/")
    }

    /// `path` with every link followed, or `nil` when it does not exist (or cannot be resolved).
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Why a path named inside an input file cannot be used: it leads outside the input's folder, or is no path.
public struct InputPathError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the path.
    public enum Reason: Sendable, Equatable {
        /// The path is empty.
        case empty
        /// The path has a NUL character, which no file name can hold.
        case nulCharacter
        /// The path names the folder itself, not a file in it (`.`, `/`, `a/..`).
        case namesTheFolder
        /// A `..` segment climbs above the folder.
        case climbsOutside
        /// After its links are followed the file is at this real path, outside the folder.
        case linksOutside(String)
    }

    /// The path as the input file wrote it.
    public var written: String
    /// What is wrong with it.
    public var reason: Reason

    public init(written: String, reason: Reason) {
        self.written = written
        self.reason = reason
    }

    /// The path (quoted, control characters escaped) and what is wrong with it, calling the folder `folder`
    /// (`the export's folder`, `the assets folder`).
    public func message(folder: String) -> String {
        let quoted = InputPathError.quote(written)
        switch reason {
        case .empty: return "the path is empty"
        case .nulCharacter: return "\(quoted) has a NUL character"
        case .namesTheFolder: return "\(quoted) names \(folder) itself, not a file in it"
        case .climbsOutside: return "\(quoted) leads outside \(folder) (\"..\" climbs above it)"
        case .linksOutside(let real):
            return "\(quoted) leads outside \(folder) through a symbolic link (to \(InputPathError.quote(real)))"
        }
    }

    public var description: String { message(folder: "its folder") }

    /// `text` in double quotes with quotes, backslashes and control characters escaped, so a hostile name cannot
    /// break the line it is printed on.
    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
