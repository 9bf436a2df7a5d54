import KeyframeRaster
import KeyframeRender

/// The sprites of one side as upright pictures in atlas texels, read from its decoded atlases: what the diff
/// compares to tell a renamed sprite (same pixels) from a repainted one.
struct SpritePictures {
    private let library: AtlasLibrary?

    init(_ side: DiffSide) { library = side.scene?.library }

    /// Whether the side's images were read.
    var available: Bool { library != nil }

    /// The sprite's picture turned upright (a rotated atlas region is turned back), one pixel per atlas texel.
    func upright(_ id: String) -> Bitmap? {
        guard let library, let sprite = library.sprite(id), library.images.indices.contains(sprite.image) else {
            return nil
        }
        let atlas = library.images[sprite.image]
        let map = sprite.uprightToRegion
        // Texels per document pixel: the scale of the upright → region mapping.
        let scale = max(1e-9, (abs(map.a * map.d - map.b * map.c)).squareRoot())
        let width = max(0, Int((sprite.size.width * scale).rounded()))
        let height = max(0, Int((sprite.size.height * scale).rounded()))
        guard width > 0, height > 0, width <= 16384, height <= 16384 else { return nil }
        var picture = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let u = (Double(x) + 0.5) / scale, v = (Double(y) + 0.5) / scale
                let rx = map.a * u + map.c * v + map.tx, ry = map.b * u + map.d * v + map.ty
                let ax = sprite.region.x + Int(rx.rounded(.down)), ay = sprite.region.y + Int(ry.rounded(.down))
                guard ax >= 0, ay >= 0, ax < atlas.width, ay < atlas.height else { continue }
                picture.setPixel(x: x, y: y, atlas.pixel(x: ax, y: ay))
            }
        }
        return picture
    }

    /// A hash of the upright picture's size and pixels (FNV-1a), or `nil` when it cannot be read.
    func hash(_ id: String) -> UInt64? {
        guard let picture = upright(id) else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for value in [picture.width, picture.height] { hash = (hash ^ UInt64(value)) &* 0x100_0000_01b3 }
        for byte in picture.pixels { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}
