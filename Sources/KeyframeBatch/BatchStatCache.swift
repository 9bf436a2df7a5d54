import Foundation
import KeyframeFiles
import KeyframeJSON

/// A local shortcut in front of the content hash: for each input file a batch read (and each output it checked), its
/// status (device, inode, size, modification and change times) and the digest of the bytes it had then. A rerun that
/// finds a file with the very same status takes the digest from here instead of reading and hashing the file again.
///
/// Correctness never depends on it: a file whose status differs in any way is read and hashed, and a file is only
/// entered once its times have settled (``FileStatus/isSettled(before:)``), so a write in the same clock tick cannot
/// go unnoticed. It lives beside the manifest as `OUT/.keyframe-stat-cache.json`, apart from it because its content
/// is specific to this machine and these files (inode numbers, times) while the manifest's bytes depend only on what
/// was converted. It is written once at the end of a run; a missing, corrupt or foreign cache is simply empty (every
/// file is hashed), and deleting it is always safe.
final class BatchStatCache: @unchecked Sendable {
    /// The cache's file name inside OUT.
    static let fileName = ".keyframe-stat-cache.json"
    /// The `format` member that identifies a stat cache.
    static let formatName = "keyframe-batch-stat-cache"
    /// The version this build writes and reads; any other version is ignored.
    static let version = 1

    struct Entry: Equatable {
        var status: FileStatus
        var digest: String
    }

    private let lock = NSLock()
    /// What the previous run left, by absolute path.
    private let previous: [String: Entry]
    /// What this run saw, by absolute path: written at the end.
    private var current: [String: Entry] = [:]
    private var reads = 0
    private var bytesRead = 0
    private var outputReads = 0
    private var outputBytesRead = 0

    init(previous: [String: Entry] = [:]) { self.previous = previous }

    /// Reads the cache of OUT; anything unusable is an empty cache.
    static func load(folder: String) -> BatchStatCache {
        guard let data = FileManager.default.contents(atPath: folder + "/" + fileName),
            let root = try? JSONParser.parse([UInt8](data)),
            root["format"]?.stringValue == formatName, root["version"]?.doubleValue == Double(version)
        else { return BatchStatCache() }
        var entries: [String: Entry] = [:]
        for (path, value) in root["files"]?.objectValue ?? [:] {
            guard let text = value["status"]?.stringValue, let status = FileStatus(text: text),
                let digest = value["digest"]?.stringValue
            else { continue }
            entries[path] = Entry(status: status, digest: digest)
        }
        return BatchStatCache(previous: entries)
    }

    /// The digest of the file at `path` if its status is exactly the one recorded with it; `nil` means: hash it.
    func digest(of path: String) -> String? {
        guard let entry = previous[path], let status = FileStatus(path: path), status == entry.status else { return nil }
        lock.lock(); current[path] = entry; lock.unlock()
        return entry.digest
    }

    /// Records what a read found (nothing when the read cannot vouch for the file's status).
    func record(_ path: String, _ snapshot: InputSnapshot) {
        lock.lock(); defer { lock.unlock() }
        reads += 1
        bytesRead += snapshot.bytes.count
        if let status = snapshot.status { current[path] = Entry(status: status, digest: snapshot.digest) }
    }

    /// Records what reading an output found (as ``record(_:_:)``, counted apart from the inputs).
    func recordOutput(_ path: String, _ snapshot: InputSnapshot) {
        lock.lock(); defer { lock.unlock() }
        outputReads += 1
        outputBytesRead += snapshot.bytes.count
        if let status = snapshot.status { current[path] = Entry(status: status, digest: snapshot.digest) }
    }

    /// Input files read and hashed in this run, and their bytes.
    var readTotals: (files: Int, bytes: Int) {
        lock.lock(); defer { lock.unlock() }
        return (reads, bytesRead)
    }

    /// Outputs of up-to-date exports read and hashed in this run (their status had changed since a run vouched for
    /// them), and their bytes.
    var outputReadTotals: (files: Int, bytes: Int) {
        lock.lock(); defer { lock.unlock() }
        return (outputReads, outputBytesRead)
    }

    /// Writes the entries of this run's files into OUT atomically.
    func save(folder: String) throws(FileWriteError) {
        lock.lock()
        let entries = current
        lock.unlock()
        if entries == previous { return }
        let json = JSONValue.object([
            "format": .string(BatchStatCache.formatName),
            "version": .number(Double(BatchStatCache.version)),
            "files": .object(JSONObject(entries.mapValues {
                JSONValue.object(["status": .string($0.status.text), "digest": .string($0.digest)])
            })),
        ])
        try AtomicFile.write(JSONWriter.write(json), to: folder + "/" + BatchStatCache.fileName)
    }
}
