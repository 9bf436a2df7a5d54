/// The frame pictures of a preview, each distinct PNG stored once: identical frames (a held pose, a loop's repeated
/// frames) share one entry.
public struct PreviewImageStore: Sendable {
    /// The distinct PNG files' bytes, in order of first use.
    public private(set) var images: [[UInt8]] = []
    /// For each image, where it can be referenced from the page instead of embedding it (`--frames-folder`).
    public private(set) var references: [String?] = []
    /// Indices of the stored images by a cheap fingerprint; equal fingerprints are confirmed byte by byte.
    private var indicesByFingerprint: [UInt64: [Int]] = [:]

    public init() {}

    /// Stores `png` (unless identical bytes are stored already) and returns its index. `reference` is a path
    /// relative to the page to use instead of embedding the bytes.
    public mutating func add(_ png: [UInt8], reference: String? = nil) -> Int {
        let key = PreviewImageStore.fingerprint(png)
        if let index = indicesByFingerprint[key]?.first(where: { images[$0] == png }) { return index }
        images.append(png)
        references.append(reference)
        indicesByFingerprint[key, default: []].append(images.count - 1)
        return images.count - 1
    }

    /// FNV-1a over the length and 64-bit words of the bytes (hashing megabytes through `Hasher` byte by byte is
    /// slow; collisions only cost a byte comparison).
    static func fingerprint(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        bytes.withUnsafeBytes { raw in
            let words = raw.count / 8
            for w in 0..<words {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: w * 8, as: UInt64.self)) &* 0x100_0000_01b3
            }
            for b in (words * 8)..<raw.count { hash = (hash ^ UInt64(raw[b])) &* 0x100_0000_01b3 }
        }
        return hash
    }

    /// The total size of the distinct images.
    public var byteCount: Int { images.reduce(0) { $0 + $1.count } }
}
