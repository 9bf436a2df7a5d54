#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Writes files through a temporary sibling and `rename(2)`, so a path never holds partial data.
enum AtomicFile {
    static func store(_ bytes: UnsafeRawBufferPointer, to path: String) throws(PNGError) {
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<8 {
            // A random suffix keeps concurrent writers apart; O_EXCL makes a collision a retry.
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
            temporary = "\(directory(of: path))/.\(fileName(of: path)).\(suffix).tmp"
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            if fd >= 0 || errno != EEXIST { break }
        }
        if fd < 0 { throw failure("cannot create temporary file", temporary) }
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                let error = failure("write failed", temporary)
                close(fd)
                unlink(temporary)
                throw error
            }
            offset += written
        }
        if close(fd) != 0 {
            let error = failure("close failed", temporary)
            unlink(temporary)
            throw error
        }
        if rename(temporary, path) != 0 {
            let error = failure("rename failed", path)
            unlink(temporary)
            throw error
        }
    }

    private static func failure(_ what: String, _ path: String) -> PNGError {
        PNGError(kind: .fileSystem, message: "\(what): \(String(cString: strerror(errno)))", path: path)
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    private static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
