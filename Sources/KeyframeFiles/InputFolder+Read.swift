#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Why ``InputFolder/read(_:limit:)`` read nothing: the file it opened is outside the folder, or it could not be read.
public enum InputReadFailure: Error, Sendable, Equatable {
    /// The file opened is not inside the folder (a link, possibly one swapped after the path was checked).
    case outside(InputPathError)
    /// The file is missing or unreadable.
    case unreadable(FileReadError)
}

extension InputFolder {
    /// The bytes of `relative` (a path ``resolve(_:)`` returned), opened once and checked after opening: the real
    /// path of the file actually opened must lie inside the folder, so a link swapped between ``resolve(_:)`` and the
    /// read — or during the read of another file — cannot lead outside. `written` is the path as the input wrote it,
    /// for the error. With `prefix`, at most the first `limit` bytes are read (a header), and a longer file is no
    /// error.
    ///
    /// - Throws: ``InputReadFailure/outside(_:)`` when the opened file is outside the folder,
    ///   ``InputReadFailure/unreadable(_:)`` (naming ``location(of:)``) when it cannot be opened or read.
    public func read(_ relative: String, written: String? = nil, limit: Int = 1 << 30, prefix: Bool = false)
        throws(InputReadFailure) -> [UInt8]
    {
        let path = location(of: relative)
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw .unreadable(FileReadError(path: path, reason: String(cString: strerror(errno))))
        }
        defer { close(fd) }
        try checkOpened(fd, written: written ?? relative)
        if prefix { return InputFolder.readPrefix(fd, count: limit) }
        do { return try InputFile.read(descriptor: fd, path: path, limit: limit) } catch {
            throw .unreadable(error)
        }
    }

    /// Refuses the open file `fd` unless its real path is inside the folder (or, in a sandbox of links, the main
    /// file's real folder).
    func checkOpened(_ fd: Int32, written: String) throws(InputReadFailure) {
        // Only a file reached through a link can be elsewhere; a path without links is where it says. But a link
        // can be swapped in after any check, so the opened file's own path decides.
        guard let real = InputFolder.openedPath(fd) else { return }
        guard realLocations().contains(where: { InputFolder.isInside(real, $0) }) else {
            throw .outside(InputPathError(written: written, reason: .linksOutside(real)))
        }
    }

    /// Up to `count` bytes from the start of `fd` (fewer at its end or on an error).
    static func readPrefix(_ fd: Int32, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress! + filled, count - filled, off_t(filled))
            }
            if read < 0 && errno == EINTR { continue }
            if read <= 0 { break }
            filled += read
        }
        return Array(bytes[..<filled])
    }

    /// The real path of the file open at `fd`, or `nil` where the system cannot tell.
    static func openedPath(_ fd: Int32) -> String? {
        #if canImport(Darwin)
        var buffer = [CChar](repeating: 0, count: Int(MAXPATHLEN) + 1)
        guard fcntl(fd, F_GETPATH, &buffer) != -1 else { return nil }
        return String(cString: buffer)
        #else
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        var text = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // A file deleted since it was opened reads "… (deleted)": where it was still decides.
        if text.hasSuffix(" (deleted)") { text.removeLast(" (deleted)".count) }
        guard text.hasPrefix("/") else { return nil }
        return text
        #endif
    }
}
