/// A self-contained rasterizer benchmark: a synthetic sprite scene and a bilinear fill-rate test.
///
/// The scene imitates an Animate atlas export: an atlas of soft-edged sprites with partial alpha,
/// packed at 64–256 px, drawn 30–60 times per frame near their packed size (0.8–1.25×) under any
/// rotation and slightly non-uniform scale, over an opaque background. Timing uses `ContinuousClock` on the calling thread; nothing is asserted, so
/// callers (tests, `keyframe bench`) decide what to do with the figures.
///
/// ```swift
/// let report = RasterBenchmark.run(RasterBenchmark.Configuration(frames: 120))
/// print(report)
/// ```
public enum RasterBenchmark {
    /// What to measure.
    public struct Configuration: Sendable, Hashable {
        /// Frame width and height in pixels.
        public var frameSize: Int
        /// Sprites drawn per frame.
        public var spriteCount: Int
        /// Range of sprite sizes (longer side, device pixels).
        public var spriteSizes: ClosedRange<Int>
        /// Frames rendered for the scene measurement (after one warm-up frame).
        public var frames: Int
        /// Seed for the scene layout.
        public var seed: UInt64

        /// Creates a configuration; the defaults match the "corpus-like sprite scene".
        public init(
            frameSize: Int = 1024, spriteCount: Int = 45, spriteSizes: ClosedRange<Int> = 64...256, frames: Int = 60,
            seed: UInt64 = 1
        ) {
            self.frameSize = frameSize
            self.spriteCount = spriteCount
            self.spriteSizes = spriteSizes
            self.frames = frames
            self.seed = seed
        }
    }

    /// Measured figures.
    public struct Report: Sendable, Hashable, CustomStringConvertible {
        /// The configuration measured.
        public var configuration: Configuration
        /// Mean time to clear and draw one frame, in milliseconds.
        public var millisecondsPerFrame: Double
        /// Fastest single frame, in milliseconds.
        public var bestMillisecondsPerFrame: Double
        /// Mean time to clear one frame (included above), in milliseconds.
        public var clearMillisecondsPerFrame: Double
        /// Sprite pixels touched per frame (sum of sprite areas on screen).
        public var spritePixelsPerFrame: Double
        /// Sprite pixels per second while drawing the scene, in millions.
        public var sceneMegapixelsPerSecond: Double
        /// Bilinear fill rate of one large rotated, scaled sprite, in million pixels per second.
        public var bilinearFillMegapixelsPerSecond: Double
        /// Fill rate of an integer-placed (copy) sprite, in million pixels per second.
        public var copyFillMegapixelsPerSecond: Double

        public var description: String {
            let c = configuration
            return """
                raster \(c.frameSize)²: \(c.spriteCount) sprites \(c.spriteSizes.lowerBound)–\(c.spriteSizes.upperBound) px, \
                \(c.frames) frames: \(fmt(millisecondsPerFrame)) ms/frame (best \(fmt(bestMillisecondsPerFrame)), \
                clear \(fmt(clearMillisecondsPerFrame))), \(fmt(spritePixelsPerFrame / 1e6)) Mpx drawn/frame, \
                \(fmt(sceneMegapixelsPerSecond)) Mpx/s in scene; bilinear fill \(fmt(bilinearFillMegapixelsPerSecond)) Mpx/s; \
                copy fill \(fmt(copyFillMegapixelsPerSecond)) Mpx/s
                """
        }
    }

    /// Runs the scene and fill-rate measurements.
    public static func run(_ configuration: Configuration = Configuration()) -> Report {
        let scene = Scene(configuration)
        var frame = Bitmap(width: configuration.frameSize, height: configuration.frameSize)
        var rasterizer = Rasterizer()
        scene.render(frame: 0, into: &frame, with: &rasterizer)  // warm-up: faults pages in

        let clock = ContinuousClock()
        var total = Duration.zero
        var best = Duration.seconds(1000)
        var clearTotal = Duration.zero
        for f in 0..<max(1, configuration.frames) {
            let start = clock.now
            frame.clear(to: Scene.background)
            let cleared = clock.now
            scene.drawSprites(frame: f + 1, into: &frame, with: &rasterizer)
            let end = clock.now
            total += end - start
            clearTotal += cleared - start
            best = min(best, end - start)
        }
        let frames = Double(max(1, configuration.frames))
        let perFrame = seconds(total) / frames
        let drawPerFrame = perFrame - seconds(clearTotal) / frames
        return Report(
            configuration: configuration, millisecondsPerFrame: perFrame * 1000,
            bestMillisecondsPerFrame: seconds(best) * 1000, clearMillisecondsPerFrame: seconds(clearTotal) / frames * 1000,
            spritePixelsPerFrame: scene.spritePixels,
            sceneMegapixelsPerSecond: scene.spritePixels / max(drawPerFrame, 1e-12) / 1e6,
            bilinearFillMegapixelsPerSecond: fillRate(scene: scene, frame: &frame, rasterizer: &rasterizer, copy: false),
            copyFillMegapixelsPerSecond: fillRate(scene: scene, frame: &frame, rasterizer: &rasterizer, copy: true))
    }

    /// Renders frame `index` of the benchmark scene (background included); used by the PNG benchmark.
    public static func renderSceneFrame(
        _ index: Int, configuration: Configuration, into frame: inout Bitmap, with rasterizer: inout Rasterizer
    ) {
        Scene(configuration).render(frame: index, into: &frame, with: &rasterizer)
    }

    private static func fillRate(scene: Scene, frame: inout Bitmap, rasterizer: inout Rasterizer, copy: Bool) -> Double {
        let size = Double(frame.width)
        let region = scene.regions.max { $0.width * $0.height < $1.width * $1.height } ?? scene.atlas.bounds
        let transform: Affine
        if copy {
            transform = .translation(Double((frame.width - region.width) / 2), Double((frame.height - region.height) / 2))
        } else {
            // The largest sprite magnified to ~0.65 of the frame and rotated: every pixel is bilinear.
            let s = size * 0.65 / Double(max(region.width, region.height))
            transform = Affine.translation(size / 2, size / 2).concatenating(.rotation(0.35))
                .concatenating(.scale(s, s * 1.05))
                .concatenating(.translation(-Double(region.width) / 2, -Double(region.height) / 2))
        }
        let pixels = Double(region.width * region.height) * abs(transform.determinant)
        let clock = ContinuousClock()
        var total = Duration.zero
        var runs = 0
        while total < .milliseconds(150) || runs < 5 {
            let start = clock.now
            rasterizer.draw(scene.atlas, region: region, transform: transform, into: &frame)
            total += clock.now - start
            runs += 1
        }
        return pixels * Double(runs) / seconds(total) / 1e6
    }

    private static func seconds(_ d: Duration) -> Double {
        let c = d.components
        return Double(c.seconds) + Double(c.attoseconds) * 1e-18
    }

    private static func fmt(_ v: Double) -> String {
        let scaled = (v * 100).rounded() / 100
        return "\(scaled)"
    }

    /// The synthetic atlas and sprite layout.
    ///
    /// Like an Animate export, the atlas packs sprites at roughly the size they are drawn: regions of
    /// the configured sizes on shelves of a 2048 × 2048 atlas, drawn at 0.8–1.25× with any rotation.
    struct Scene {
        static let background = RGBAColor(r: 40, g: 44, b: 52)
        static let atlasSize = 2048
        let atlas: Bitmap
        let regions: [PixelRect]
        let sprites: [(region: Int, x: Double, y: Double, angle: Double, spin: Double, sx: Double, sy: Double)]
        let spritePixels: Double

        init(_ c: Configuration) {
            var rng = c.seed &* 0x9E37_79B9_7F4A_7C15 | 1
            func unit() -> Double {
                rng ^= rng << 13
                rng ^= rng >> 7
                rng ^= rng << 17
                return Double(rng >> 11) / Double(1 << 53)
            }
            let lo = max(8, c.spriteSizes.lowerBound)
            let hi = min(Scene.atlasSize, max(lo, c.spriteSizes.upperBound))
            // Shelf-pack one region per sprite (reusing regions once the atlas is full).
            var regions: [PixelRect] = []
            var x = 0, y = 0, shelf = 0
            for _ in 0..<max(1, c.spriteCount) {
                let w = lo + Int(unit() * Double(hi - lo))
                let h = lo + Int(unit() * Double(hi - lo))
                if x + w > Scene.atlasSize { x = 0; y += shelf; shelf = 0 }
                if y + h > Scene.atlasSize { break }
                regions.append(PixelRect(x: x, y: y, width: w, height: h))
                x += w
                shelf = max(shelf, h)
            }
            self.regions = regions
            atlas = Scene.makeAtlas(regions)
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

        func render(frame index: Int, into frame: inout Bitmap, with rasterizer: inout Rasterizer) {
            frame.clear(to: Scene.background)
            drawSprites(frame: index, into: &frame, with: &rasterizer)
        }

        func drawSprites(frame index: Int, into frame: inout Bitmap, with rasterizer: inout Rasterizer) {
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
                        straight[k + 2] = UInt8(max(0, min(255, 255 * (1 - r) + Double((x ^ y) & 15))))
                        straight[k + 3] = UInt8(alpha * 255)
                    }
                }
            }
            return Bitmap(width: size, height: size, straightRGBA: straight)!
        }
    }
}
