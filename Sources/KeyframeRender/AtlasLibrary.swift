import Foundation
import KeyframeModel
import KeyframePNG
import KeyframeRaster

/// A document's atlas images, decoded once, and its sprites resolved to atlas rectangles.
///
/// Build one per run and share it between workers: it is immutable after loading.
public struct AtlasLibrary: Sendable {
    /// A sprite ready to draw: which decoded image, which rectangle of it, and how the upright picture maps onto it.
    public struct ResolvedSprite: Sendable {
        /// Index into ``AtlasLibrary/images``.
        public var image: Int
        /// The region in atlas pixels.
        public var region: PixelRect
        /// Upright picture (document pixels, top-left at 0) → region-local atlas pixels.
        public var uprightToRegion: Affine
        /// Region-local atlas pixels → upright picture (document pixels).
        public var regionToUpright: Affine
        /// The upright picture's size in document pixels.
        public var size: Size
    }

    /// Decoded atlas images, in the document's order.
    public let images: [Bitmap]
    private let sprites: [String: ResolvedSprite]

    /// Decodes every atlas image of `document`, resolving paths against `folder`.
    ///
    /// - Throws: ``RenderError`` naming the image that is missing or unreadable.
    public init(document: Document, folder: URL) throws(RenderError) {
        var images: [Bitmap] = []
        var imageIndex: [String: Int] = [:]
        let decoder = PNGDecoder()
        for image in document.assets.images where imageIndex[image.id] == nil {
            let path = folder.appendingPathComponent(image.path).path
            guard FileManager.default.fileExists(atPath: path) else {
                throw RenderError(.missingImage(id: image.id, path: path))
            }
            do {
                images.append(try decoder.decode(contentsOf: path))
            } catch {
                throw RenderError(.unreadableImage(id: image.id, path: path, reason: error.message))
            }
            imageIndex[image.id] = images.count - 1
        }
        let resolutions = Dictionary(document.assets.images.map { ($0.id, $0.resolution) }, uniquingKeysWith: { a, _ in a })
        var sprites: [String: ResolvedSprite] = [:]
        for sprite in document.assets.sprites where sprites[sprite.id] == nil {
            guard let index = imageIndex[sprite.image] else { continue }
            let resolution = resolutions[sprite.image] ?? 1
            sprites[sprite.id] = AtlasLibrary.resolve(sprite, image: index, resolution: resolution > 0 ? resolution : 1)
        }
        self.images = images
        self.sprites = sprites
    }

    /// Creates a library from bitmaps already in memory (tests, benchmarks), keyed like the document's images.
    public init(document: Document, bitmaps: [String: Bitmap]) {
        var images: [Bitmap] = []
        var imageIndex: [String: Int] = [:]
        for image in document.assets.images where imageIndex[image.id] == nil {
            guard let bitmap = bitmaps[image.id] else { continue }
            images.append(bitmap)
            imageIndex[image.id] = images.count - 1
        }
        var sprites: [String: ResolvedSprite] = [:]
        for sprite in document.assets.sprites where sprites[sprite.id] == nil {
            guard let index = imageIndex[sprite.image] else { continue }
            let resolution = document.assets.images.first { $0.id == sprite.image }?.resolution ?? 1
            sprites[sprite.id] = AtlasLibrary.resolve(sprite, image: index, resolution: resolution > 0 ? resolution : 1)
        }
        self.images = images
        self.sprites = sprites
    }

    /// The drawable form of sprite `id`, or `nil` when the document does not define it.
    public func sprite(_ id: String) -> ResolvedSprite? { sprites[id] }

    /// Works out where sprite `sprite` lies in its atlas and how its upright picture maps there.
    ///
    /// A rotated region stores the picture turned 90° clockwise: upright (u, v) sits at region-local
    /// (w − v, u) in atlas pixels, continuous coordinates. Atlas pixels are `resolution` times document pixels.
    static func resolve(_ sprite: Sprite, image: Int, resolution: Double) -> ResolvedSprite {
        let region = PixelRect(
            x: Int(sprite.region.x.rounded()), y: Int(sprite.region.y.rounded()),
            width: Int(sprite.region.width.rounded()), height: Int(sprite.region.height.rounded()))
        let scale = Affine.scale(1 / resolution, 1 / resolution)
        // Region-local atlas pixels (p, q) → upright atlas pixels (u, v) = (q, w − p) when rotated.
        let unrotate = sprite.rotated
            ? Affine(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: Double(region.width))
            : .identity
        let regionToUpright = scale.concatenating(unrotate)
        let uprightToRegion = regionToUpright.inverted() ?? .identity
        return ResolvedSprite(image: image, region: region, uprightToRegion: uprightToRegion,
                              regionToUpright: regionToUpright, size: sprite.size)
    }
}
