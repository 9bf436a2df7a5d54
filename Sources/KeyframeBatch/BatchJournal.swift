import Foundation
import KeyframeJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The manifest's journal, `OUT/.keyframe-manifest.journal`: while a batch runs, each export it finishes is appended
/// as one line (`{"id": …, "entry": {…}}`), after the export's outputs are all in place; at the end the whole manifest
/// is written once and the journal removed.
///
/// Rewriting the whole manifest after every export made a run's manifest writes grow with the square of the number
/// of exports (10,000 exports: 10,000 writes of a manifest of up to 10,000 entries). An append is one `write(2)` of
/// one line. A run killed at any moment leaves the manifest of the previous run plus a journal of the exports it
/// finished; the next run reads both (``BatchManifest/load(folder:)``), so it converts exactly what is missing. A
/// line that did not reach the disk whole (a crash of the machine) does not parse and is ignored: its export is
/// simply converted again.
final class BatchJournal: @unchecked Sendable {
    /// The journal's file name inside OUT.
    static let fileName = ".keyframe-manifest.journal"

    private let path: String
    private let lock = NSLock()
    private var fd: Int32 = -1

    init(folder: String) { path = folder + "/" + BatchJournal.fileName }

    /// Appends one finished export. Failing to append only means the export is converted again after a crash.
    func append(id: String, entry: BatchManifest.Entry) {
        var line = JSONWriter.writeCompact(.object(["id": .string(id), "entry": BatchManifest.entryJSON(entry)]))
        line.append(0x0A)
        lock.lock(); defer { lock.unlock() }
        if fd < 0 { fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { return }
        line.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 { if errno == EINTR { continue }; return }
                offset += written
            }
        }
    }

    /// Closes and removes the journal (once the manifest holding its entries has been written).
    func remove() {
        lock.lock(); defer { lock.unlock() }
        if fd >= 0 { close(fd); fd = -1 }
        unlink(path)
    }

    /// The entries of a journal left in `folder`, in the order they were appended (later lines win); lines that do
    /// not parse are skipped.
    static func entries(in folder: String) -> [(id: String, entry: BatchManifest.Entry)] {
        guard let data = FileManager.default.contents(atPath: folder + "/" + fileName) else { return [] }
        var found: [(id: String, entry: BatchManifest.Entry)] = []
        for line in [UInt8](data).split(separator: 0x0A) {
            guard let value = try? JSONParser.parse(Array(line)), let id = value["id"]?.stringValue,
                let entryValue = value["entry"], let entry = BatchManifest.entry(from: entryValue)
            else { continue }
            found.append((id, entry))
        }
        return found
    }
}
