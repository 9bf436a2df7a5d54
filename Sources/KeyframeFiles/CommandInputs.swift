#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The files one command reads, known by device and inode, so that none of its outputs replaces one of them.
///
/// A file is the same input whatever path reaches it — a symbolic link, a hard link, `./a` or `dir/../a` — so an
/// output is compared by what it names after links, not by its spelling. A command collects its inputs once it has
/// read them (the export's files, its atlas images, a script and the documents it names), checks every output it
/// knows before writing the first, and hands the set to ``AtomicFile/protect(_:)`` so that any later write — a frame
/// in a folder, a picture of an export — is refused too.
///
/// ```swift
/// var inputs = CommandInputs()
/// inputs.add("walker/spritemap1.png")
/// try inputs.check("walker/spritemap1.png")   // throws: the output would replace an input
/// ```
public struct CommandInputs: Sendable {
    /// A file's device and inode.
    struct Identity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// Each input's path as the command was given or found it, by identity.
    private var files: [Identity: String] = [:]

    public init() {}

    /// Whether no input is known.
    public var isEmpty: Bool { files.isEmpty }

    /// Adds the file at `path` (links followed); a path where no regular file is found adds nothing.
    public mutating func add(_ path: String) {
        guard let identity = CommandInputs.identity(of: path), files[identity] == nil else { return }
        files[identity] = path
    }

    /// The input that a write to `output` would replace, as it was added, or `nil`.
    public func input(replacedBy output: String) -> String? {
        guard !files.isEmpty, let identity = CommandInputs.identity(of: output) else { return nil }
        return files[identity]
    }

    /// Refuses an output that would replace an input.
    ///
    /// - Throws: ``FileWriteError`` naming `output` and the input it is.
    public func check(_ output: String) throws(FileWriteError) {
        guard let input = input(replacedBy: output) else { return }
        let same = input == output ? "it is" : "it is the same file as"
        throw FileWriteError(path: output, reason: "\(same) \(input), which this command reads; "
                             + "write the output somewhere else")
    }

    /// The device and inode of the regular file at `path` after links, or `nil`.
    static func identity(of path: String) -> Identity? {
        guard !path.isEmpty else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
