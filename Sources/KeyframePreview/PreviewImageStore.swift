/// The frame pictures of a preview, each distinct PNG stored once: identical frames (a held pose, a loop's repeated
/// frames) share one entry.
public struct PreviewImageStore: Sendable {
    /// The distinct PNG files' bytes, in order of first use.
    public private(set) var images: [[UInt8]] = []
    /// For each image, where it can be referenced from the page instead of embedding it (`--frames-folder`).
    public private(set) var references: [String?] = []
    private var indexByBytes: [[UInt8]: Int] = [:]

    public init() {}

    /// Stores `png` (unless identical bytes are stored already) and returns its index. `reference` is a path
    /// relative to the page to use instead of embedding the bytes.
    public mutating func add(_ png: [UInt8], reference: String? = nil) -> Int {
        if let index = indexByBytes[png] { return index }
        images.append(png)
        references.append(reference)
        indexByBytes[png] = images.count - 1
        return images.count - 1
    }

    /// The total size of the distinct images.
    public var byteCount: Int { images.reduce(0) { $0 + $1.count } }
}
