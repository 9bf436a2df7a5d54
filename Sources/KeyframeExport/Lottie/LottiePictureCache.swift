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
        var png: [UInt8]
        var width: Int
        var height: Int
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
