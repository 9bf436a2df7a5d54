import KeyframePNG
import KeyframeRaster

/// Turns rendered frames, in playing order, into the pictures a preview page stores, so the page grows with what
/// changes rather than with frames × frame size: a *key* picture holds the part of a frame that is not
/// transparent, and the frames after it store only the rectangle in which they differ from that key (a *patch*).
/// A frame is drawn as its key, then its patch over the rectangle the patch covers — the same pixels as the
/// rendered frame, byte for byte in straight RGBA. A frame whose changed rectangle covers more than ``keyShare`` of
/// its content becomes the next key (a patch that large would cost about as much as the frame). A key whose content
/// fills most of the frame is the rendered PNG itself, so frames that change everywhere cost one decode each and no
/// encoding.
///
/// Identical frames (held poses, repeated loops, a clip that replays another's frames) and identical pictures
/// share their entries in the store. One encoder serves a whole page.
public struct PreviewFrameEncoder {
    /// Above this share of a frame's content area, a changed rectangle makes the frame a new key.
    public static let keyShare = 0.4
    /// A key whose content covers at least this share of the frame is stored as the rendered PNG, uncropped.
    public static let uncroppedShare = 0.75

    private struct Key {
        var pixels: [UInt8]
        var width: Int
        var height: Int
        var layer: PreviewClip.Layer
    }

    private var key: Key?
    private var seen: [UInt64: [(png: [UInt8], layers: [PreviewClip.Layer])]] = [:]
    private var encoder = PNGEncoder(options: .fast)

    public init() {}

    /// The layers that draw the frame whose PNG is `png`, storing new pictures in `store`.
    ///
    /// - Throws: `KeyframePNG/PNGError` when `png` cannot be decoded or a picture cannot be encoded.
    public mutating func layers(for png: [UInt8], store: inout PreviewImageStore) throws(PNGError) -> [PreviewClip.Layer] {
        let fingerprint = PreviewImageStore.fingerprint(png)
        if let known = seen[fingerprint]?.first(where: { $0.png == png }) { return known.layers }
        let frame = try PNGDecoder().decodeStraight(png)
        let layers = try encode(frame, png: png, store: &store)
        seen[fingerprint, default: []].append((png, layers))
        return layers
    }

    private mutating func encode(_ frame: (width: Int, height: Int, pixels: [UInt8]), png: [UInt8],
                                 store: inout PreviewImageStore) throws(PNGError) -> [PreviewClip.Layer] {
        let content = PixelRect.nonTransparent(in: frame.pixels, width: frame.width, height: frame.height)
        if let key, key.width == frame.width, key.height == frame.height {
            guard let changed = PixelRect.changes(between: frame.pixels, and: key.pixels, width: frame.width,
                                                  height: frame.height)
            else { return [key.layer] }
            let contentArea = content.map { $0.width * $0.height } ?? 0
            if Double(changed.width * changed.height) <= PreviewFrameEncoder.keyShare * Double(max(contentArea, 1)) {
                let patch = try picture(frame, changed)
                return [key.layer, PreviewClip.Layer(image: store.add(patch), x: changed.x, y: changed.y)]
            }
        }
        guard let content else {
            key = nil
            return []
        }
        let layer: PreviewClip.Layer
        if Double(content.width * content.height) >= PreviewFrameEncoder.uncroppedShare * Double(frame.width * frame.height) {
            layer = PreviewClip.Layer(image: store.add(png), x: 0, y: 0)
        } else {
            layer = PreviewClip.Layer(image: store.add(try picture(frame, content)), x: content.x, y: content.y)
        }
        key = Key(pixels: frame.pixels, width: frame.width, height: frame.height, layer: layer)
        return [layer]
    }

    /// The rectangle `rect` of `frame` as a PNG.
    private mutating func picture(_ frame: (width: Int, height: Int, pixels: [UInt8]), _ rect: PixelRect) throws(PNGError)
        -> [UInt8]
    {
        var crop = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        for row in 0..<rect.height {
            let source = ((rect.y + row) * frame.width + rect.x) * 4
            crop.replaceSubrange(row * rect.width * 4..<(row + 1) * rect.width * 4,
                                 with: frame.pixels[source..<source + rect.width * 4])
        }
        return try encoder.encode(pixels: crop, width: rect.width, height: rect.height, layout: .rgba)
    }
}
