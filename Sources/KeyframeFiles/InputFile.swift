#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Why an input file could not be read, in plain words, with the path concerned.
public struct FileReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path as the caller gave it.
    public var path: String
    /// What went wrong (`No such file or directory`, `it is a folder`, …).
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot read \(path): \(reason)" }
}

/// Reads input files with errors in plain words (no Foundation error domains or codes).
public enum InputFile {
    /// The whole content of the regular file at `path`, refusing files larger than `limit` bytes.
    ///
    /// A named pipe is read like a file (`<(command)`, `/dev/stdin`), but opening one never waits for a writer: a
    /// pipe nobody writes to is an error, not a hang.
    public static func read(_ path: String, limit: Int = 1 << 30) throws(FileReadError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw FileReadError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        return try read(descriptor: fd, path: path, limit: limit)
    }

    /// The whole content of the file open at `fd` (opened with `O_NONBLOCK`), named `path` in errors; see
    /// ``read(_:limit:)``. The caller closes `fd`.
    static func read(descriptor fd: Int32, path: String, limit: Int) throws(FileReadError) -> [UInt8] {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileReadError(path: path, reason: String(cString: strerror(errno))) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw FileReadError(path: path, reason: "it is a folder, not a file") }
        let isPipe = (info.st_mode & S_IFMT) == S_IFIFO
        // Reads block again once open: a pipe with a writer is read to its end.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        if (info.st_mode & S_IFMT) == S_IFREG && Int(info.st_size) > limit {
            throw FileReadError(path: path, reason: "it is \(info.st_size) bytes, more than the \(limit >> 20) MiB limit")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileReadError(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 {
                if isPipe && bytes.isEmpty {
                    throw FileReadError(path: path, reason: "it is a named pipe and nothing was written to it")
                }
                break
            }
            bytes += chunk[..<count]
            if bytes.count > limit {
                throw FileReadError(path: path, reason: "it is more than the \(limit >> 20) MiB limit")
            }
        }
        return bytes
    }
}

extension InputFile {
    /// The whole content of the regular file at `path` (at most `limit` bytes) with its `stat` taken just before and
    /// just after the read, so a caller can tell whether the file changed while it was read.
    ///
    /// With `folder`, the file opened must lie inside it (``InputFolder/read(_:written:limit:)``): it is opened once
    /// and its real path checked after opening, so a link swapped in at any moment cannot lead outside.
    public static func readRegular(_ path: String, limit: Int = 1 << 30, inside folder: InputFolder? = nil)
        throws(FileReadError) -> (bytes: [UInt8], before: stat, after: stat?) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileReadError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        if let folder {
            do { try folder.checkOpened(fd, written: path) } catch {
                if case .outside(let outside) = error {
                    throw FileReadError(path: path, reason: outside.message(folder: "the export's folder"))
                }
            }
        }
        var before = stat()
        guard fstat(fd, &before) == 0 else { throw FileReadError(path: path, reason: String(cString: strerror(errno))) }
        guard (before.st_mode & S_IFMT) == S_IFREG else { throw FileReadError(path: path, reason: "it is not a regular file") }
        guard Int(before.st_size) <= limit else {
            throw FileReadError(path: path, reason: "it is \(before.st_size) bytes, more than the \(limit >> 20) MiB limit")
        }
        // Read to the end whatever the size said (the file may grow), into one buffer sized from the status.
        var bytes = [UInt8](repeating: 0, count: max(Int(before.st_size), 0) + 1)
        var filled = 0
        while true {
            if filled == bytes.count {
                guard filled <= limit else {
                    throw FileReadError(path: path, reason: "it is more than the \(limit >> 20) MiB limit")
                }
                bytes += [UInt8](repeating: 0, count: max(bytes.count, 1 << 16))
            }
            let count = bytes.withUnsafeMutableBytes { buffer in
                systemRead(fd, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileReadError(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            filled += count
        }
        guard filled <= limit else { throw FileReadError(path: path, reason: "it is more than the \(limit >> 20) MiB limit") }
        bytes.removeSubrange(filled...)
        var after = stat()
        return (bytes, before, fstat(fd, &after) == 0 ? after : nil)
    }
}

/// libc's `read(2)`, named apart from ``InputFile/read(_:limit:)``.
@inline(__always)
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(fd, buffer, count)
    #elseif canImport(Darwin)
    return Darwin.read(fd, buffer, count)
    #else
    return Musl.read(fd, buffer, count)
    #endif
}
