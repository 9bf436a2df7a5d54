import KeyframeRaster
/// The synthetic sprite scene behind ``RasterBenchmark`` and KeyframePNG's benchmark.
///
/// Like an Animate export, the atlas packs sprites at roughly the size they are drawn: regions of
/// the configured sizes on shelves of a 2048 × 2048 atlas, drawn at 0.8–1.25× with any rotation.
public struct BenchmarkScene: Sendable {
    /// The opaque background colour.
    public static let background = RGBAColor(r: 40, g: 44, b: 52)
    static let atlasSize = 2048
    let atlas: Bitmap
    let regions: [PixelRect]
    let sprites: [(region: Int, x: Double, y: Double, angle: Double, spin: Double, sx: Double, sy: Double)]
    /// Sum of the sprites' on-screen areas, in pixels.
    public let spritePixels: Double

    /// Builds the atlas and layout for `c` (the atlas is generated once here).
    public init(_ c: RasterBenchmark.Configuration) {
        var rng = c.seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func unit() -> Double {
            rng ^= rng << 13
            rng ^= rng >> 7
            rng ^= rng << 17
            return Double(rng >> 11) / Double(1 << 53)
        }
        let lo = max(8, c.spriteSizes.lowerBound)
        let hi = min(BenchmarkScene.atlasSize, max(lo, c.spriteSizes.upperBound))
        // Shelf-pack one region per sprite (reusing regions once the atlas is full).
        var regions: [PixelRect] = []
        var x = 0, y = 0, shelf = 0
        for _ in 0..<max(1, c.spriteCount) {
            let w = lo + Int(unit() * Double(hi - lo))
            let h = lo + Int(unit() * Double(hi - lo))
            if x + w > BenchmarkScene.atlasSize { x = 0; y += shelf; shelf = 0 }
            if y + h > BenchmarkScene.atlasSize { break }
            regions.append(PixelRect(x: x, y: y, width: w, height: h))
            x += w
            shelf = max(shelf, h)
        }
        self.regions = regions
        atlas = BenchmarkScene.makeAtlas(regions)
        let frameSize = Double(c.frameSize)
        var sprites: [(Int, Double, Double, Double, Double, Double, Double)] = []
        var pixels = 0.0
        for i in 0..<max(0, c.spriteCount) {
            let region = i % regions.count
            let sx = 0.8 + 0.45 * unit()
            let sy = sx * (0.9 + 0.2 * unit())
            sprites.append((region, unit() * frameSize, unit() * frameSize, unit() * 6.283, (unit() - 0.5) * 0.1, sx, sy))
            pixels += Double(regions[region].width * regions[region].height) * sx * sy
        }
        self.sprites = sprites.map { (region: $0.0, x: $0.1, y: $0.2, angle: $0.3, spin: $0.4, sx: $0.5, sy: $0.6) }
        spritePixels = pixels
    }

    /// Clears `frame` and draws frame `index` of the animation.
    public func render(frame index: Int, into frame: inout Bitmap, with rasterizer: inout Rasterizer) {
        frame.clear(to: BenchmarkScene.background)
        drawSprites(frame: index, into: &frame, with: &rasterizer)
    }

    /// Draws the sprites of frame `index` without clearing.
    public func drawSprites(frame index: Int, into frame: inout Bitmap, with rasterizer: inout Rasterizer) {
        let t = Double(index)
        for s in sprites {
            let r = regions[s.region]
            let m = Affine.translation(s.x + 20 * (t * 0.05).sineValue, s.y)
                .concatenating(.rotation(s.angle + s.spin * t))
                .concatenating(.scale(s.sx, s.sy))
                .concatenating(.translation(-Double(r.width) / 2, -Double(r.height) / 2))
            rasterizer.draw(atlas, region: r, transform: m, into: &frame)
        }
    }

    /// Soft-edged coloured blobs, one per region, with alpha falling off at the rim.
    static func makeAtlas(_ regions: [PixelRect]) -> Bitmap {
        let size = atlasSize
        var straight = [UInt8](repeating: 0, count: size * size * 4)
        for (n, region) in regions.enumerated() {
            let hue = Double(n % 16) / 16
            let cx = Double(region.width) / 2
            let cy = Double(region.height) / 2
            for y in 0..<region.height {
                for x in 0..<region.width {
                    let dx = (Double(x) + 0.5 - cx) / cx
                    let dy = (Double(y) + 0.5 - cy) / cy
                    let r = (dx * dx + dy * dy).squareRoot() * (1 + 0.15 * (6 * hue + dx * 3).sineValue)
                    let alpha = max(0, min(1, (1 - r) * 6))
                    let k = ((region.y + y) * size + region.x + x) * 4
                    straight[k] = UInt8(127 + 127 * (6.283 * hue).sineValue * (1 - min(r, 1) * 0.5))
                    straight[k + 1] = UInt8(127 + 127 * (6.283 * hue + 2.1).sineValue)
                    straight[k + 2] = UInt8(max(0, min(255, 255 * (1 - r) + 12 * (Double(x + y) * 0.2).sineValue)))
                    straight[k + 3] = UInt8(alpha * 255)
                }
            }
        }
        return Bitmap(width: size, height: size, straightRGBA: straight)!
    }
}
