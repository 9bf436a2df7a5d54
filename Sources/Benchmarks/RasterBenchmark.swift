import KeyframeRaster
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
    /// A fill rate with the bulk kernels and without them, in million pixels per second.
    public struct FillComparison: Sendable, Hashable {
        public var bulk = 0.0
        public var pixelByPixel = 0.0
        /// How many times faster the bulk path is.
        public var speedUp: Double { pixelByPixel > 0 ? bulk / pixelByPixel : 0 }
    }

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
        /// Bilinear fill rate of the same sprite as ``bilinearFillMegapixelsPerSecond`` drawn with the `add`
        /// blend mode, and of it drawn with a colour transform; each with the same drawn pixel by pixel
        /// (the rasterizer's bulk kernels off), measured in the same run.
        public var addFill = FillComparison()
        public var tintedFill = FillComparison()

        public var description: String {
            let c = configuration
            return """
                raster \(c.frameSize)²: \(c.spriteCount) sprites \(c.spriteSizes.lowerBound)–\(c.spriteSizes.upperBound) px, \
                \(c.frames) frames: \(fmt(millisecondsPerFrame)) ms/frame (best \(fmt(bestMillisecondsPerFrame)), \
                clear \(fmt(clearMillisecondsPerFrame))), \(fmt(spritePixelsPerFrame / 1e6)) Mpx drawn/frame, \
                \(fmt(sceneMegapixelsPerSecond)) Mpx/s in scene; bilinear fill \(fmt(bilinearFillMegapixelsPerSecond)) Mpx/s; \
                copy fill \(fmt(copyFillMegapixelsPerSecond)) Mpx/s; add fill \(fmt(addFill.bulk)) Mpx/s \
                (\(fmt(addFill.speedUp))× pixel by pixel); tinted fill \(fmt(tintedFill.bulk)) Mpx/s \
                (\(fmt(tintedFill.speedUp))× pixel by pixel)
                """
        }
    }

    /// Runs the scene and fill-rate measurements.
    public static func run(_ configuration: Configuration = Configuration()) -> Report {
        let scene = BenchmarkScene(configuration)
        var frame = Bitmap(width: configuration.frameSize, height: configuration.frameSize)
        var rasterizer = Rasterizer()
        scene.render(frame: 0, into: &frame, with: &rasterizer)  // warm-up: faults pages in

        let clock = ContinuousClock()
        var total = Duration.zero
        var best = Duration.seconds(1000)
        var clearTotal = Duration.zero
        for f in 0..<max(1, configuration.frames) {
            let start = clock.now
            frame.clear(to: BenchmarkScene.background)
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
        let tint = PixelColorTransform(redMultiplier: 0.8, greenMultiplier: 1, blueMultiplier: 0.6, alphaMultiplier: 1,
                                       redOffset: 30, greenOffset: 0, blueOffset: -20, alphaOffset: 0)
        func comparison(_ paint: Paint) -> FillComparison {
            var plain = Rasterizer()
            plain.usesBulkKernels = false
            return FillComparison(
                bulk: fillRate(scene: scene, frame: &frame, rasterizer: &rasterizer, copy: false, paint: paint),
                pixelByPixel: fillRate(scene: scene, frame: &frame, rasterizer: &plain, copy: false, paint: paint))
        }
        var report = Report(
            configuration: configuration, millisecondsPerFrame: perFrame * 1000,
            bestMillisecondsPerFrame: seconds(best) * 1000, clearMillisecondsPerFrame: seconds(clearTotal) / frames * 1000,
            spritePixelsPerFrame: scene.spritePixels,
            sceneMegapixelsPerSecond: scene.spritePixels / max(drawPerFrame, 1e-12) / 1e6,
            bilinearFillMegapixelsPerSecond: fillRate(scene: scene, frame: &frame, rasterizer: &rasterizer, copy: false),
            copyFillMegapixelsPerSecond: fillRate(scene: scene, frame: &frame, rasterizer: &rasterizer, copy: true))
        report.addFill = comparison(Paint(blendMode: .add))
        report.tintedFill = comparison(Paint(colorTransform: tint))
        return report
    }

    private static func fillRate(scene: BenchmarkScene, frame: inout Bitmap, rasterizer: inout Rasterizer, copy: Bool,
                                 paint: Paint = Paint()) -> Double {
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
            rasterizer.draw(scene.atlas, region: region, transform: transform, paint: paint, into: &frame)
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
}
