#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

extension AtomicFile {
    /// Checks, before any work is done, that ``write(_:to:)`` could write `path`: nothing that is not a regular
    /// file (or a link to one) is there, its folder exists or can be created (it is created), and a file can be
    /// created in that folder. Nothing is left behind but the created folders.
    ///
    /// - Throws: ``FileWriteError`` naming `path` and saying in plain words why it cannot be written.
    public static func checkWritable(_ path: String) throws(FileWriteError) {
        let target = try resolveTarget(path)
        try refuseInput(path)
        let folder = directory(of: target)
        try createFolders(folder, for: path)
        Temporaries.sweepOnce(folder)
        try probe(folder, for: path)
    }

    /// Creates the folder `path` (and its parents) when missing, and checks that files can be created in it.
    ///
    /// - Throws: ``FileWriteError`` when something other than a folder is at `path`, or it cannot be created or
    ///   written into.
    public static func prepareFolder(_ path: String) throws(FileWriteError) {
        guard !path.isEmpty else { throw FileWriteError(path: path, reason: "empty path") }
        var info = stat()
        if stat(path, &info) == 0 {
            guard isDirectory(info) else { throw FileWriteError(path: path, reason: "it is a file, not a folder") }
        } else {
            guard errno == ENOENT || errno == ENOTDIR else { throw failure(path, nil) }
            let parent = directory(of: path)
            if parent != path { try createFolders(parent, for: path) }
            if mkdir(path, 0o755) != 0 && errno != EEXIST {
                throw FileWriteError(path: path, reason: "cannot create the folder: \(String(cString: strerror(errno)))")
            }
        }
        Temporaries.sweepOnce(path)
        try probe(path, for: path)
    }

    /// Creates and removes an empty hidden file in `folder`, the way ``write(_:to:)`` starts (named as its temporaries
    /// are, so a kill in between leaves nothing a later run keeps).
    private static func probe(_ folder: String, for path: String) throws(FileWriteError) {
        let probe = "\(folder)/\(Temporaries.fileName(for: "keyframe-check"))"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw FileWriteError(path: path, reason: "cannot create files in \(folder): \(String(cString: strerror(errno)))")
        }
        close(fd)
        unlink(probe)
    }
}

extension AtomicFile {
    /// Checks that whatever is at `path` may be replaced by ``write(_:to:)``: nothing, a regular file, or a link
    /// to one. (The folder is not checked; see ``checkWritable(_:)``.)
    public static func checkReplaceable(_ path: String) throws(FileWriteError) {
        _ = try resolveTarget(path)
        try refuseInput(path)
    }
}
