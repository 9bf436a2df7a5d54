import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock that keeps two batches from writing the same OUT at once: `flock(2)` on an open descriptor of OUT itself,
/// and on `OUT/.keyframe-batch.lock`.
///
/// The folder's lock cannot be bypassed by deleting the lock file while a batch runs (a second batch would lock a new
/// file, but not the folder); the lock file keeps batches of earlier versions, which lock only the file, out as well,
/// and stands in on file systems that cannot lock a folder. The kernel releases both locks when the process ends in
/// any way (including `kill -9`), so a crashed batch never leaves OUT locked; the file itself stays and is reused.
public final class BatchLock {
    /// The lock file's name inside OUT.
    public static let fileName = ".keyframe-batch.lock"

    private var folderDescriptor: Int32 = -1
    private var descriptor: Int32 = -1

    /// Takes the lock of `folder`, or throws at once when another process holds it.
    ///
    /// - Throws: ``BatchError`` saying that another batch holds the lock, or why it cannot be taken (naming the lock
    ///   file when that is what is wrong).
    public init(folder: String) throws(BatchError) {
        let path = folder + "/" + BatchLock.fileName
        func busy() -> BatchError {
            BatchError(.input, "another keyframe batch is writing to \(folder) (\(path) is locked); "
                       + "wait for it to finish, or use another output folder")
        }
        folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folderDescriptor >= 0 else {
            throw BatchError(.input, "cannot lock the output folder \(folder): \(String(cString: strerror(errno)))")
        }
        if flock(folderDescriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            // A file system that cannot lock a folder (some network file systems): the lock file alone.
            guard [EINVAL, ENOLCK, EBADF, EOPNOTSUPP].contains(code) else {
                release()
                if code == EWOULDBLOCK { throw busy() }
                throw BatchError(.input, "cannot lock the output folder \(folder): \(String(cString: strerror(code)))")
            }
        }
        var info = stat()
        if stat(path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG {
            release()
            let what = (info.st_mode & S_IFMT) == S_IFDIR ? "a folder" : "not a regular file"
            throw BatchError(.input, "cannot lock the output folder \(folder): its lock file \(path) is \(what); "
                             + "remove it (keyframe batch creates it)")
        }
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if descriptor < 0 {
            let reason = String(cString: strerror(errno))
            release()
            throw BatchError(.input, "cannot write to the output folder \(folder): cannot open its lock file \(path): \(reason)")
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            release()
            if code == EWOULDBLOCK { throw busy() }
            throw BatchError(.input, "cannot lock \(path): \(String(cString: strerror(code)))")
        }
    }

    /// Releases the lock.
    public func release() {
        for fd in [descriptor, folderDescriptor] where fd >= 0 {
            flock(fd, LOCK_UN)
            close(fd)
        }
        descriptor = -1
        folderDescriptor = -1
    }

    deinit { release() }
}
