import Foundation
import KeyframeFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// One input file as a batch read it: its bytes (handed to the importer, so each file is read once), their content
/// hash, and the file's status at the time, which the ``BatchStatCache`` keeps so that a later run can skip hashing a
/// file whose status has not changed.
struct InputSnapshot {
    /// The whole file.
    var bytes: [UInt8]
    /// ``ContentHash/digest(_:)`` of ``bytes``.
    var digest: String
    /// The file's status while it was read, or `nil` when it cannot vouch for the content: the file changed while
    /// it was read, or it was changed so recently that a further change could leave the same status (see
    /// ``FileStatus/isSettled(before:)``).
    var status: FileStatus?

    /// Reads and hashes the regular file at `path`, which must be inside `folder` when one is given (checked on the
    /// file opened, so a link swapped during the batch cannot lead outside).
    ///
    /// - Throws: a plain-words reason when the file cannot be opened or read, is not a regular file, or is outside
    ///   `folder`.
    static func read(_ path: String, inside folder: InputFolder? = nil) throws(InputReadError) -> InputSnapshot {
        let started = Date().timeIntervalSince1970
        let read: (bytes: [UInt8], before: stat, after: stat?)
        do { read = try InputFile.readRegular(path, inside: folder) } catch { throw InputReadError(reason: error.reason) }
        let status = FileStatus(read.before)
        let unchanged = read.after.map { FileStatus($0) == status && Int($0.st_size) == read.bytes.count } ?? false
        return InputSnapshot(bytes: read.bytes, digest: ContentHash.digest(read.bytes),
                             status: unchanged && status.isSettled(before: started) ? status : nil)
    }
}

/// Why an input file could not be read.
struct InputReadError: Error {
    var reason: String
}

/// What `stat` says about a file that changes whenever its content is written: device, inode, size, modification
/// and status-change times (to the nanosecond). The status-change time (`ctime`) cannot be set from user space, so
/// a rewrite that restores the size and the modification time (`touch -r`, `utimes`) still changes it.
struct FileStatus: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Timestamp
    var changed: Timestamp

    /// Seconds and nanoseconds.
    struct Timestamp: Equatable, Sendable {
        var seconds: Int64
        var nanoseconds: Int64
    }

    init(device: UInt64, inode: UInt64, size: Int64, modified: Timestamp, changed: Timestamp) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modified = Timestamp(seconds: Int64(info.st_mtimespec.tv_sec), nanoseconds: Int64(info.st_mtimespec.tv_nsec))
        changed = Timestamp(seconds: Int64(info.st_ctimespec.tv_sec), nanoseconds: Int64(info.st_ctimespec.tv_nsec))
        #else
        modified = Timestamp(seconds: Int64(info.st_mtim.tv_sec), nanoseconds: Int64(info.st_mtim.tv_nsec))
        changed = Timestamp(seconds: Int64(info.st_ctim.tv_sec), nanoseconds: Int64(info.st_ctim.tv_nsec))
        #endif
    }

    /// The status of the file at `path` (following symbolic links), or `nil` when it is not a regular file.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        self.init(info)
    }

    /// Whether both times lie at least ``settleSeconds`` before `time` (seconds since 1970): only then does a later
    /// write certainly leave a different status. A file written in the same clock tick as (or just after) it was
    /// read could otherwise keep its status while its content changes — the file system's time stamps are coarser
    /// than its writes.
    func isSettled(before time: Double) -> Bool {
        let newest = max(Double(modified.seconds) + Double(modified.nanoseconds) / 1e9,
                         Double(changed.seconds) + Double(changed.nanoseconds) / 1e9)
        return newest <= time - FileStatus.settleSeconds
    }

    /// How old a file's times must be before its status is trusted: two seconds, the coarsest time stamps in use
    /// (FAT), well above the clock tick of ext4, XFS, APFS and NTFS.
    static let settleSeconds = 2.0

    /// One line: `device:inode:size:mtime:ctime`, times as `seconds.nanoseconds`.
    var text: String {
        "\(device):\(inode):\(size):\(modified.seconds).\(modified.nanoseconds):\(changed.seconds).\(changed.nanoseconds)"
    }

    /// Parses ``text``.
    init?(text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 5, let device = UInt64(parts[0]), let inode = UInt64(parts[1]), let size = Int64(parts[2]),
            let modified = Timestamp(text: parts[3]), let changed = Timestamp(text: parts[4])
        else { return nil }
        self.init(device: device, inode: inode, size: size, modified: modified, changed: changed)
    }
}

extension FileStatus.Timestamp {
    init?(text: Substring) {
        let parts = text.split(separator: ".")
        guard parts.count == 2, let seconds = Int64(parts[0]), let nanoseconds = Int64(parts[1]) else { return nil }
        self.init(seconds: seconds, nanoseconds: nanoseconds)
    }
}
