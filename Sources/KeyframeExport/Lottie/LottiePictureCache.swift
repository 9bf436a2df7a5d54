import Foundation
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender

/// The encoded pictures of one export, shared by all its clips (which may be built at the same time): each sprite,
/// and each baked colour of it, is cut and PNG-encoded once per document, not once per clip.
final class LottiePictureCache: @unchecked Sendable {
    /// An encoded picture: its PNG bytes and size.
    struct Picture {
        let png: [UInt8]
        var width: Int
        var height: Int

        /// The PNG bytes as a dictionary key: equal when the bytes are, hashed once when the picture is encoded
        /// (an array's own hashing feeds the hasher one byte at a time, for every lookup).
        let bytes: PNGBytes

        init(png: [UInt8], width: Int, height: Int) {
            self.png = png
            self.width = width
            self.height = height
            bytes = PNGBytes(png)
        }
    }

    /// Encoded bytes with their hash computed once.
    struct PNGBytes: Hashable {
        let bytes: [UInt8]
        private let digest: Int

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            var hasher = Hasher()
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
            digest = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) { hasher.combine(digest) }

        static func == (a: PNGBytes, b: PNGBytes) -> Bool { a.digest == b.digest && a.bytes == b.bytes }
    }

    /// How every picture of the export is encoded.
    let encoding: PNGEncodingOptions
    /// Pictures already encoded, by their pixels: two sprites (or two tints) that come out the same are encoded once.
    let contents = EncodedPictureCache()
    private let lock = NSLock()
    private var pictures: [String: Picture] = [:]

    init(encoding: PNGEncodingOptions = .compact) {
        self.encoding = encoding
    }

    func picture(_ key: String) -> Picture? {
        lock.lock(); defer { lock.unlock() }
        return pictures[key]
    }

    func store(_ key: String, _ picture: Picture) {
        lock.lock(); defer { lock.unlock() }
        pictures[key] = picture
    }
}
