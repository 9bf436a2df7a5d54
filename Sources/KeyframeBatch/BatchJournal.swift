import Foundation
import KeyframeJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The manifest's journal, `OUT/.keyframe-manifest.journal`: while a batch runs, one line per event is appended —
/// `{"id": …, "started": [files]}` before the first output of an export is written, naming every file its conversion
/// will write, and `{"id": …, "entry": {…}}` once all of them are in place. At the end the whole manifest is written
/// once and the journal removed.
///
/// Rewriting the whole manifest after every export made a run's manifest writes grow with the square of the number
/// of exports (10,000 exports: 10,000 writes of a manifest of up to 10,000 entries). An append is one `write(2)` of
/// one line. A run killed at any moment leaves the manifest of the previous run plus a journal; the next run reads
/// both (``BatchManifest/loadWithJournal(folder:)``), in order: a "started" line makes the entry of an export whose
/// outputs were being replaced pending (they may come from other bytes than the entry's inputs; see
/// ``BatchManifest``), a finished line gives an export its new entry. So the manifest never vouches for outputs
/// written from other inputs, and the next run converts exactly what is missing. A line that did not reach the disk whole (a full disk, a crash of the machine)
/// does not parse and is ignored, and the next line starts on a line of its own.
final class BatchJournal: @unchecked Sendable {
    /// The journal's file name inside OUT.
    static let fileName = ".keyframe-manifest.journal"

    /// One line of the journal.
    enum Record: Equatable {
        /// The export's conversion began writing these files (relative to OUT): its entry no longer holds.
        case started(id: String, files: [String])
        /// The export's outputs are all in place, as `entry` records.
        case finished(id: String, entry: BatchManifest.Entry)
    }

    /// Why a "started" line could not be appended (the export must then leave its outputs alone).
    struct Failure: Error {
        var reason: String
    }

    private let path: String
    private let lock = NSLock()
    private var fd: Int32 = -1
    /// Whether the file may end inside a line (a failed append, or a torn last line left by an earlier run).
    private var needsLineBreak = false

    init(folder: String) { path = folder + "/" + BatchJournal.fileName }

    /// Appends that `id`'s conversion is about to write `files`.
    ///
    /// - Throws: ``Failure`` when the line did not reach the file whole (then nothing may be written).
    func appendStarted(id: String, files: [String]) throws(Failure) {
        try append(.object(["id": .string(id), "started": .array(files.map { .string($0) })]))
    }

    /// Appends one finished export. Failing to append only means the export is converted again after a crash.
    func appendFinished(id: String, entry: BatchManifest.Entry) {
        try? append(.object(["id": .string(id), "entry": BatchManifest.entryJSON(entry)]))
    }

    private func append(_ value: JSONValue) throws(Failure) {
        lock.lock(); defer { lock.unlock() }
        if fd < 0 {
            fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw Failure(reason: "cannot open \(path): \(String(cString: strerror(errno)))") }
            var info = stat()
            var last: UInt8 = 0x0A
            if fstat(fd, &info) == 0, info.st_size > 0, pread(fd, &last, 1, off_t(info.st_size - 1)) == 1 {
                needsLineBreak = last != 0x0A
            }
        }
        var line = needsLineBreak ? [UInt8(0x0A)] : []
        line += JSONWriter.writeCompact(value)
        line.append(0x0A)
        let failure: String? = line.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += written
            }
            return nil
        }
        if let failure {
            needsLineBreak = true
            throw Failure(reason: "cannot write \(path): \(failure)")
        }
        needsLineBreak = false
    }

    /// Closes and removes the journal (once the manifest holding its entries has been written).
    func remove() {
        lock.lock(); defer { lock.unlock() }
        if fd >= 0 { close(fd); fd = -1 }
        unlink(path)
    }

    /// The records of a journal left in `folder`, in the order they were appended; lines that do not parse are
    /// skipped.
    static func records(in folder: String) -> [Record] {
        guard let data = FileManager.default.contents(atPath: folder + "/" + fileName) else { return [] }
        var found: [Record] = []
        for line in [UInt8](data).split(separator: 0x0A) {
            guard let value = try? JSONParser.parse(Array(line)), let id = value["id"]?.stringValue else { continue }
            if let files = value["started"]?.arrayValue {
                found.append(.started(id: id, files: files.compactMap(\.stringValue)))
            } else if let entryValue = value["entry"], let entry = BatchManifest.entry(from: entryValue) {
                found.append(.finished(id: id, entry: entry))
            }
        }
        return found
    }
}
