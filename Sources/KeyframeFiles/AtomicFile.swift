#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Why an output file could not be written, in plain words, with the path concerned.
public struct FileWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path the caller asked to write (or the temporary file, when that is what failed).
    public var path: String
    /// What went wrong (`not a regular file`, `No space left on device`, …).
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot write \(path): \(reason)" }
}

/// Writes output files through a temporary sibling and `rename(2)`, so a path never holds partial data.
///
/// The temporary is `.<name>.<pid>-<random>.tmp`; the first time a process writes into (or checks) a folder, it removes
/// the temporaries that writers which are gone left there (``Temporaries``), so a `kill -9` leaves nothing for ever.
///
/// The one place Keyframe's outputs reach the disk. It never replaces what is not a regular file: a symbolic link
/// is written through (its target is replaced, the link stays), and a directory, device, FIFO or socket at the path
/// is refused with an error, untouched; nor does it replace an input of the running command (``protect(_:)``).
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically, creating missing parent folders.
    public static func write(_ bytes: [UInt8], to path: String) throws(FileWriteError) {
        let outcome: Result<Void, FileWriteError> = bytes.withUnsafeBytes { raw in
            do throws(FileWriteError) {
                try store(raw, to: path)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try outcome.get()
    }

    /// Writes `bytes` to `path` atomically, creating missing parent folders.
    public static func store(_ bytes: UnsafeRawBufferPointer, to path: String) throws(FileWriteError) {
        let target = try resolveTarget(path)
        try refuseInput(path)
        let folder = directory(of: target)
        try createFolders(folder, for: path)
        Temporaries.sweepOnce(folder)
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<8 {
            // The name carries this process's id and a random word: concurrent writers stay apart (O_EXCL makes a
            // collision a retry), and a later run can tell a temporary whose writer is gone (see Temporaries).
            temporary = "\(folder)/\(Temporaries.fileName(for: fileName(of: target)))"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 || errno != EEXIST { break }
        }
        if fd < 0 { throw failure(path, "cannot create files in \(folder)") }
        // Held until the file is closed: a sweep never takes a temporary that is being written for a stale one.
        _ = flock(fd, LOCK_EX)
        var offset = 0
        while offset < bytes.count {
            let written = Glibc_write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                let error = failure(path, nil)
                close(fd)
                unlink(temporary)
                throw error
            }
            offset += written
        }
        if close(fd) != 0 {
            let error = failure(path, nil)
            unlink(temporary)
            throw error
        }
        if rename(temporary, target) != 0 {
            let error = failure(path, nil)
            unlink(temporary)
            throw error
        }
    }

    /// The path to replace: `path` itself, or the file a symbolic link at `path` points to. Anything at the path
    /// that is not a regular file (or a link to one, or nothing) is refused.
    static func resolveTarget(_ path: String) throws(FileWriteError) -> String {
        guard !path.isEmpty else { throw FileWriteError(path: path, reason: "empty path") }
        var info = stat()
        if lstat(path, &info) != 0 {
            if errno == ENOENT { return path }
            if errno == ENOTDIR, let file = fileAbove(path) {
                throw FileWriteError(path: path, reason: "\(file) is a file, not a folder")
            }
            throw failure(path, nil)
        }
        if isLink(info) {
            guard let resolved = realpath(path, nil) else {
                // A dangling link: write the file it names, as `>` in a shell would.
                var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let count = readlink(path, &buffer, buffer.count - 1)
                guard count > 0 else { throw failure(path, nil) }
                let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return link.hasPrefix("/") ? link : "\(directory(of: path))/\(link)"
            }
            defer { free(resolved) }
            let target = String(cString: resolved)
            guard stat(target, &info) == 0 else { throw failure(path, nil) }
            guard isRegular(info) else { throw FileWriteError(path: path, reason: "it links to something that is not a regular file") }
            return target
        }
        guard isRegular(info) else {
            throw FileWriteError(path: path, reason: isDirectory(info) ? "it is a directory" : "it is not a regular file")
        }
        return path
    }

    static func createFolders(_ folder: String, for path: String) throws(FileWriteError) {
        var info = stat()
        if stat(folder, &info) == 0 {
            guard isDirectory(info) else { throw FileWriteError(path: path, reason: "\(folder) is a file, not a folder") }
            return
        }
        if errno == ENOTDIR, let file = fileAbove(folder) {
            throw FileWriteError(path: path, reason: "\(file) is a file, not a folder")
        }
        guard errno == ENOENT else { throw failure(path, nil) }
        let parent = directory(of: folder)
        if parent != folder { try createFolders(parent, for: path) }
        if mkdir(folder, 0o755) != 0 && errno != EEXIST {
            throw FileWriteError(path: path, reason: "cannot create the folder \(folder): \(String(cString: strerror(errno)))")
        }
    }

    /// The nearest folder of `path` (above it) that is not a folder, when a lookup failed with `ENOTDIR`.
    static func fileAbove(_ path: String) -> String? {
        var info = stat()
        var above = directory(of: path)
        while above != directory(of: above) || above == "." {
            if stat(above, &info) == 0 && !isDirectory(info) { return above }
            if above == "." { break }
            above = directory(of: above)
        }
        return nil
    }

    static func isLink(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFLNK }
    static func isRegular(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFREG }
    static func isDirectory(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFDIR }

    static func failure(_ path: String, _ what: String?) -> FileWriteError {
        let reason = String(cString: strerror(errno))
        return FileWriteError(path: path, reason: what.map { "\($0): \(reason)" } ?? reason)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

/// libc's `write(2)`, named apart from ``AtomicFile/write(_:to:)``.
@inline(__always)
private func Glibc_write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, buffer, count)
    #elseif canImport(Darwin)
    return Darwin.write(fd, buffer, count)
    #else
    return Musl.write(fd, buffer, count)
    #endif
}
