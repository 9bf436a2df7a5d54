import KeyframePNG
import KeyframeFiles
import KeyframeRaster

/// Measures PNG encoding of rendered frames, alone and together with rasterizing (and optionally
/// writing), on the calling thread with `ContinuousClock`.
///
/// Frames come from ``KeyframeRaster/RasterBenchmark``'s sprite scene, so the encoder sees realistic
/// content (flat background, soft sprites with partial alpha). Nothing is asserted.
///
/// ```swift
/// let report = try PNGBenchmark.run(PNGBenchmark.Configuration(frames: 30))
/// print(report)   // encode ms/frame, raster ms/frame, end-to-end frames/s
/// ```
public enum PNGBenchmark {
    /// What to measure.
    public struct Configuration: Sendable, Hashable {
        /// The scene rendered into each frame (its `frames` is ignored; see ``frames``).
        public var scene: RasterBenchmark.Configuration
        /// Frames measured (after one warm-up frame).
        public var frames: Int
        /// Encoder settings.
        public var options: PNGEncodingOptions
        /// If set, each frame is also written (atomically) into this existing directory.
        public var outputDirectory: String?

        /// Creates a configuration; the default is 30 frames of the 1024² scene with the fast preset.
        public init(
            scene: RasterBenchmark.Configuration = RasterBenchmark.Configuration(), frames: Int = 30,
            options: PNGEncodingOptions = .fast, outputDirectory: String? = nil
        ) {
            self.scene = scene
            self.frames = frames
            self.options = options
            self.outputDirectory = outputDirectory
        }
    }

    /// Measured figures (means per frame).
    public struct Report: Sendable, Hashable, CustomStringConvertible {
        /// The configuration measured.
        public var configuration: Configuration
        /// Clearing and rasterizing one frame, in milliseconds.
        public var rasterMillisecondsPerFrame: Double
        /// libpng encoding alone (including premultiplied → straight conversion), in milliseconds.
        public var encodeMillisecondsPerFrame: Double
        /// Writing the file, in milliseconds (0 without an output directory).
        public var writeMillisecondsPerFrame: Double
        /// Mean PNG size in bytes.
        public var bytesPerFrame: Double
        /// Raster + encode (+ write) throughput, frames per second.
        public var endToEndFramesPerSecond: Double
        /// Encode-only throughput, frames per second.
        public var encodeOnlyFramesPerSecond: Double
        /// End-to-end time over encode-only time (1 means drawing and writing cost nothing).
        public var endToEndOverEncode: Double

        public var description: String {
            func f(_ v: Double) -> String { "\((v * 100).rounded() / 100)" }
            let s = configuration.scene
            return """
                png \(s.frameSize)² (\(s.spriteCount) sprites), \(configuration.frames) frames, \
                level \(configuration.options.compressionLevel): encode \(f(encodeMillisecondsPerFrame)) ms/frame \
                (\(f(encodeOnlyFramesPerSecond)) fps, \(f(bytesPerFrame / 1024)) KiB), raster \
                \(f(rasterMillisecondsPerFrame)) ms, write \(f(writeMillisecondsPerFrame)) ms; end-to-end \
                \(f(endToEndFramesPerSecond)) fps = \(f(endToEndOverEncode))× encode-only
                """
        }
    }

    /// Runs the measurement.
    public static func run(_ configuration: Configuration = Configuration()) throws(PNGError) -> Report {
        let size = configuration.scene.frameSize
        var frame = Bitmap(width: size, height: size)
        var rasterizer = Rasterizer()
        var encoder = PNGEncoder(options: configuration.options)
        let scene = BenchmarkScene(configuration.scene)
        scene.render(frame: 0, into: &frame, with: &rasterizer)
        _ = try encoder.encode(frame)  // warm-up

        let clock = ContinuousClock()
        var raster = Duration.zero
        var encode = Duration.zero
        var write = Duration.zero
        var bytes = 0
        let frames = max(1, configuration.frames)
        for i in 0..<frames {
            let t0 = clock.now
            scene.render(frame: i + 1, into: &frame, with: &rasterizer)
            let t1 = clock.now
            let png = try encoder.encode(frame)
            let t2 = clock.now
            if let directory = configuration.outputDirectory {
                let path = "\(directory)/bench-\(i % 10).png"
                let stored: Result<Void, PNGError> = png.withUnsafeBytes { raw in
                    do throws(FileWriteError) {
                        try AtomicFile.store(raw, to: path)
                        return .success(())
                    } catch {
                        return .failure(PNGError(kind: .fileSystem, message: error.reason, path: path))
                    }
                }
                try stored.get()
            }
            let t3 = clock.now
            raster += t1 - t0
            encode += t2 - t1
            write += t3 - t2
            bytes += png.count
        }
        let n = Double(frames)
        let rasterMs = seconds(raster) / n * 1000
        let encodeMs = seconds(encode) / n * 1000
        let writeMs = seconds(write) / n * 1000
        let total = rasterMs + encodeMs + writeMs
        return Report(
            configuration: configuration, rasterMillisecondsPerFrame: rasterMs, encodeMillisecondsPerFrame: encodeMs,
            writeMillisecondsPerFrame: writeMs, bytesPerFrame: Double(bytes) / n,
            endToEndFramesPerSecond: 1000 / total, encodeOnlyFramesPerSecond: 1000 / encodeMs,
            endToEndOverEncode: total / encodeMs)
    }

    private static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}
