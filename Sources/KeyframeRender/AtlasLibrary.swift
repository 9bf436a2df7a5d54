import Foundation
import KeyframeFiles
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
    /// Reduced copies of each image for drawing it small: `mipmaps[i][k]` is image `i` halved `k + 1` times
    /// (2 × 2 box filter on premultiplied pixels), down to about ``mipmapFloor`` pixels.
    public let mipmaps: [[Bitmap]]
    private let sprites: [String: ResolvedSprite]

    /// Images are halved while their longer side stays at least this large.
    public static let mipmapFloor = 64
    /// At most this many reduced levels per image.
    public static let maximumMipmapLevels = 4

    /// Decodes every atlas image of `document`, resolving paths against `folder`.
    ///
    /// - Throws: ``RenderError`` naming the image that is missing or unreadable.
    public init(document: Document, folder: URL, mipmaps: Bool = true) throws(RenderError) {
        try self.init(document: document, folder: InputFolder(folder.path), mipmaps: mipmaps)
    }

    /// Decodes every atlas image of `document` from `folder`; each path is resolved inside it
    /// (``imageFile(_:index:in:)``). Without `mipmaps` (for readers that cut pictures rather than draw: the Lottie
    /// exporter) ``mipmaps`` holds no reduced copies, and drawing always samples the full image.
    ///
    /// - Throws: ``RenderError`` naming the image that is missing, unreadable, or outside `folder`.
    public init(document: Document, folder: InputFolder, mipmaps: Bool = true) throws(RenderError) {
        var images: [Bitmap] = []
        var imageIndex: [String: Int] = [:]
        let decoder = PNGDecoder()
        for (index, image) in document.assets.images.enumerated() where imageIndex[image.id] == nil {
            let file = try AtlasLibrary.imageBytes(image, index: index, in: folder)
            do {
                images.append(try decoder.decode(file.bytes))
            } catch {
                throw RenderError(.unreadableImage(id: image.id, path: file.display, reason: error.message))
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
        self.mipmaps = mipmaps ? images.map(AtlasLibrary.mipmapChain) : images.map { _ in [] }
        self.sprites = sprites
    }

    /// The file of atlas image `image`, element `index` of the document's `assets.images`: its path resolved inside
    /// `folder` (``InputFolder/resolve(_:)``), as a path to open and as messages name it. Every reader of atlas
    /// images (rendering, both exporters) finds them here.
    ///
    /// - Throws: ``RenderError`` when the path leads outside `folder` or no regular file is there.
    public static func imageFile(_ image: AtlasImage, index: Int, in folder: InputFolder) throws(RenderError)
        -> (path: String, display: String)
    {
        let file = try locate(image, index: index, in: folder)
        return (file.path, file.display)
    }

    /// ``imageFile(_:index:in:)`` with the path relative to `folder` as well.
    private static func locate(_ image: AtlasImage, index: Int, in folder: InputFolder) throws(RenderError)
        -> (relative: String, path: String, display: String)
    {
        let relative: String
        do { relative = try folder.resolve(image.path) } catch {
            let name = folder.displayName.isEmpty ? "its folder" : folder.displayName
            throw RenderError(.imageOutsideFolder(id: image.id, field: "assets.images[\(index)].path",
                                                  message: "the atlas image " + error.message(folder: name)))
        }
        let path = folder.location(of: relative)
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw RenderError(.missingImage(id: image.id, path: folder.displayPath(of: relative)))
        }
        return (relative, path, folder.displayPath(of: relative))
    }

    /// The bytes of atlas image `image` (element `index` of `assets.images`) and its file as messages name it: the
    /// file ``imageFile(_:index:in:)`` finds, opened once and checked after opening to be inside `folder`
    /// (``InputFolder/read(_:written:limit:)``), so a link swapped after the check cannot lead outside. Every reader
    /// of atlas images' bytes (rendering, both exporters) reads them here.
    ///
    /// - Throws: ``RenderError`` when the path leads outside `folder`, before or after opening, or the file is
    ///   missing or unreadable.
    public static func imageBytes(_ image: AtlasImage, index: Int, in folder: InputFolder) throws(RenderError)
        -> (bytes: [UInt8], display: String)
    {
        let file = try locate(image, index: index, in: folder)
        do {
            return (try folder.read(file.relative, written: image.path, limit: PNGDecoder.maximumFileSize),
                    file.display)
        } catch {
            switch error {
            case .outside(let outside):
                let name = folder.displayName.isEmpty ? "its folder" : folder.displayName
                throw RenderError(.imageOutsideFolder(id: image.id, field: "assets.images[\(index)].path",
                                                      message: "the atlas image " + outside.message(folder: name)))
            case .unreadable(let failure):
                throw RenderError(.unreadableImage(id: image.id, path: file.display, reason: failure.reason))
            }
        }
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
        self.mipmaps = images.map(AtlasLibrary.mipmapChain)
        self.sprites = sprites
    }

    /// This library with the reduced copies drawing samples (``mipmaps``) made, when it was opened without them
    /// (a library that cuts pictures, such as the Lottie exporter's, and then needs to draw some as `render` does).
    public func withMipmaps() -> AtlasLibrary {
        guard mipmaps.allSatisfy(\.isEmpty) else { return self }
        return AtlasLibrary(images: images, mipmaps: images.map(AtlasLibrary.mipmapChain), sprites: sprites)
    }

    private init(images: [Bitmap], mipmaps: [[Bitmap]], sprites: [String: ResolvedSprite]) {
        self.images = images
        self.mipmaps = mipmaps
        self.sprites = sprites
    }

    /// The reduced copies of `image`, each half the size of the one before.
    static func mipmapChain(_ image: Bitmap) -> [Bitmap] {
        var chain: [Bitmap] = []
        var current = image
        while chain.count < maximumMipmapLevels, max(current.width, current.height) / 2 >= mipmapFloor {
            current = halve(current)
            chain.append(current)
        }
        return chain
    }

    /// `image` at half size: each pixel the rounded mean of a 2 × 2 block (a lone last row or column is averaged
    /// with itself), premultiplied, so edges against transparency stay dark-fringe free.
    static func halve(_ image: Bitmap) -> Bitmap {
        let width = (image.width + 1) / 2, height = (image.height + 1) / 2
        var out = Bitmap(width: width, height: height)
        let source = image.pixels
        let stride = image.width * 4
        out.pixels.withUnsafeMutableBufferPointer { dst in
            source.withUnsafeBufferPointer { src in
                for y in 0..<height {
                    let y0 = 2 * y, y1 = min(2 * y + 1, image.height - 1)
                    for x in 0..<width {
                        let x0 = 2 * x, x1 = min(2 * x + 1, image.width - 1)
                        let a = y0 * stride + x0 * 4, b = y0 * stride + x1 * 4
                        let c = y1 * stride + x0 * 4, d = y1 * stride + x1 * 4
                        let o = (y * width + x) * 4
                        for k in 0..<4 {
                            let sum = Int(src[a + k]) + Int(src[b + k]) + Int(src[c + k]) + Int(src[d + k])
                            dst[o + k] = UInt8((sum + 2) >> 2)
                        }
                    }
                }
            }
        }
        return out
    }

    /// The drawable form of sprite `id`, or `nil` when the document does not define it.
    public func sprite(_ id: String) -> ResolvedSprite? { sprites[id] }

    /// Works out where sprite `sprite` lies in its atlas and how its upright picture maps there.
    ///
    /// A rotated region stores the picture turned 90° clockwise: upright (u, v) sits at region-local
    /// (w − v, u) in atlas pixels, continuous coordinates. Atlas pixels are `resolution` times document pixels.
    static func resolve(_ sprite: Sprite, image: Int, resolution: Double) -> ResolvedSprite {
        let region = PixelRect(
            x: Int(saturatingRounded: sprite.region.x), y: Int(saturatingRounded: sprite.region.y),
            width: Int(saturatingRounded: sprite.region.width), height: Int(saturatingRounded: sprite.region.height))
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
