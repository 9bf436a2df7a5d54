import KeyframePNG

/// A ZIP archive (PKWARE APPNOTE 6.3) built in memory: each entry stored, or deflated when that is smaller, with
/// fixed metadata (1980-01-01 00:00, UTF-8 names, Unix mode 0644), so the same entries in the same order give the
/// same bytes. No ZIP64: an archive past 4 GiB or 65 535 entries is refused.
struct ZipWriter {
    /// What the central directory repeats of each entry.
    private struct Entry {
        var name: [UInt8]
        var method: UInt16
        var crc: UInt32
        var size: Int
        var compressedSize: Int
        var offset: Int
    }

    private var entries: [Entry] = []
    private var bytes: [UInt8] = []

    /// Why an archive could not be written.
    struct Failure: Error, Equatable {
        var message: String
    }

    /// Appends a file named `name` (relative, `/`-separated) holding `data`; `deflate`: try compressing it.
    mutating func add(_ name: String, _ data: [UInt8], deflate: Bool = true) throws(Failure) {
        let nameBytes = Array(name.utf8)
        guard !nameBytes.isEmpty, nameBytes.count <= 0xFFFF, !name.hasPrefix("/"),
            !name.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0.isEmpty || $0 == ".." || $0 == "." })
        else { throw Failure(message: "invalid entry name \"\(name)\"") }
        guard !entries.contains(where: { $0.name == nameBytes }) else {
            throw Failure(message: "two entries named \"\(name)\"")
        }
        var method: UInt16 = 0
        var stored = data
        if deflate, !data.isEmpty {
            do {
                let packed = try Deflate.compress(data, level: 9)
                if packed.count < data.count {
                    method = 8
                    stored = packed
                }
            } catch {
                throw Failure(message: "\(name): \(error.message)")
            }
        }
        guard data.count <= 0xFFFF_FFFE, stored.count <= 0xFFFF_FFFE, entries.count < 0xFFFF else {
            throw Failure(message: "\(name): the archive would need ZIP64 (over 4 GiB or 65 535 entries)")
        }
        let crc = Deflate.crc32(data)
        let offset = bytes.count
        // Local file header.
        bytes += ZipWriter.le32(0x0403_4B50) + ZipWriter.le16(20) + ZipWriter.le16(ZipWriter.utf8Flag)
            + ZipWriter.le16(method) + ZipWriter.le16(0) + ZipWriter.le16(ZipWriter.date)
            + ZipWriter.le32(crc) + ZipWriter.le32(UInt32(stored.count)) + ZipWriter.le32(UInt32(data.count))
            + ZipWriter.le16(UInt16(nameBytes.count)) + ZipWriter.le16(0) + nameBytes
        bytes += stored
        guard bytes.count <= 0xFFFF_FFFE else {
            throw Failure(message: "\(name): the archive would need ZIP64 (over 4 GiB)")
        }
        entries.append(Entry(name: nameBytes, method: method, crc: crc, size: data.count, compressedSize: stored.count,
                             offset: offset))
    }

    /// The archive: the entries, their central directory and its end record.
    func finish() throws(Failure) -> [UInt8] {
        var out = bytes
        let directoryOffset = out.count
        for entry in entries {
            out += ZipWriter.le32(0x0201_4B50) + ZipWriter.le16(0x0314) + ZipWriter.le16(20)
                + ZipWriter.le16(ZipWriter.utf8Flag) + ZipWriter.le16(entry.method) + ZipWriter.le16(0)
                + ZipWriter.le16(ZipWriter.date) + ZipWriter.le32(entry.crc) + ZipWriter.le32(UInt32(entry.compressedSize))
                + ZipWriter.le32(UInt32(entry.size)) + ZipWriter.le16(UInt16(entry.name.count)) + ZipWriter.le16(0)
                + ZipWriter.le16(0) + ZipWriter.le16(0) + ZipWriter.le16(0) + ZipWriter.le32(0o100644 << 16)
                + ZipWriter.le32(UInt32(entry.offset)) + entry.name
        }
        let directorySize = out.count - directoryOffset
        guard out.count <= 0xFFFF_FFFE else { throw Failure(message: "the archive would need ZIP64 (over 4 GiB)") }
        out += ZipWriter.le32(0x0605_4B50) + ZipWriter.le16(0) + ZipWriter.le16(0)
            + ZipWriter.le16(UInt16(entries.count)) + ZipWriter.le16(UInt16(entries.count))
            + ZipWriter.le32(UInt32(directorySize)) + ZipWriter.le32(UInt32(directoryOffset)) + ZipWriter.le16(0)
        return out
    }

    /// General purpose flag 11: names are UTF-8.
    private static let utf8Flag: UInt16 = 0x0800
    /// MS-DOS date of 1980-01-01 (the earliest ZIP can say; time 00:00:00 is 0).
    private static let date: UInt16 = (0 << 9) | (1 << 5) | 1

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
    }
}
