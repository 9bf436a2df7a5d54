import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock that keeps two batches from writing the same OUT at once: `flock(2)` on `OUT/.keyframe-batch.lock`.
///
/// The kernel releases the lock when the process ends in any way (including `kill -9`), so a crashed batch never
/// leaves OUT locked; the file itself stays and is reused.
public final class BatchLock {
    /// The lock file's name inside OUT.
    public static let fileName = ".keyframe-batch.lock"

    private var descriptor: Int32

    /// Takes the lock of `folder`, or throws at once when another process holds it.
    public init(folder: String) throws(BatchError) {
        let path = folder + "/" + BatchLock.fileName
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if descriptor < 0 {
            throw BatchError(.input, "cannot write to the output folder \(folder): \(String(cString: strerror(errno)))")
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let busy = errno == EWOULDBLOCK
            let reason = String(cString: strerror(errno))
            close(descriptor)
            descriptor = -1
            if busy {
                throw BatchError(.input, "another keyframe batch is writing to \(folder) (\(path) is locked); "
                                 + "wait for it to finish, or use another output folder")
            }
            throw BatchError(.input, "cannot lock \(path): \(reason)")
        }
    }

    /// Releases the lock.
    public func release() {
        if descriptor >= 0 {
            flock(descriptor, LOCK_UN)
            close(descriptor)
            descriptor = -1
        }
    }

    deinit { release() }
}
