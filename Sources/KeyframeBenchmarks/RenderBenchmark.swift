import KeyframeRender
import Foundation
import KeyframeFiles
import KeyframeEngine
import KeyframeModel
import KeyframePNG
import KeyframeRaster

/// Measures rendering of real clips: sampling, rasterizing, PNG encoding alone, and the whole pipeline with one and
/// with several workers, all in the same run so the ratios compare like with like.
///
/// Every figure is the best of a few repetitions (the machine may be shared); timing uses `ContinuousClock`.
public enum RenderBenchmark {
    /// What to measure.
    public struct Configuration: Sendable {
        /// Frames are `size` × `size` pixels.
        public var size: Int = 1024
        /// Whether the clip's content is scaled up to fill the frame (as `--size` does) or kept at its authored
        /// scale and centred (scaled down only when larger than the frame).
        public var upscale = false
        /// At most this many frames of each clip (short clips are repeated up to it).
        public var frames: Int = 48
        /// Repetitions; the fastest is kept.
        public var repetitions: Int = 3
        /// Workers for the parallel measurement.
        public var jobs: Int = 2
        /// PNG settings.
        public var png: PNGEncodingOptions = .fast
        /// Where the end-to-end runs write their frames (deleted afterwards).
        public var scratchFolder: URL

        public init(scratchFolder: URL) {
            self.scratchFolder = scratchFolder
        }
    }

    /// The figures for one clip.
    public struct Result: Sendable {
        public var name: String
        public var frames: Int
        public var size: Int
        /// Output pixels covered by the content's bounds (a rough measure of the drawing work).
        public var contentPixels: Int
        /// Sprites (and meshes) drawn per frame, on average.
        public var itemsPerFrame: Double
        /// Milliseconds per frame for each stage, measured separately.
        public var sampleMilliseconds: Double
        public var rasterMilliseconds: Double
        public var encodeMilliseconds: Double
        /// Sample + raster + encode + write with one worker, per frame, frames equal to an earlier one reusing its
        /// PNG bytes (the default).
        public var endToEndMilliseconds: Double
        /// The same with every frame encoded.
        public var endToEndWithoutReuseMilliseconds: Double
        /// Frames whose PNG bytes were reused.
        public var reusedFrames: Int
        /// Frames per second with ``Configuration/jobs`` workers.
        public var parallelFramesPerSecond: Double

        public var endToEndFramesPerSecond: Double { 1000 / endToEndMilliseconds }
        /// End-to-end time over libpng's encode time for the same frames (goal ≤ 1.3).
        public var ratioToEncode: Double { endToEndMilliseconds / encodeMilliseconds }
        /// Parallel rate over single-worker rate (goal ≥ 1.8 with 2 workers).
        public var parallelSpeedup: Double { parallelFramesPerSecond / endToEndFramesPerSecond }
    }

    /// Measures the first clip of each scene.
    public static func run(_ scenes: [(name: String, scene: RenderScene)], configuration: Configuration)
        throws(RenderError) -> [Result]
    {
        var results: [Result] = []
        for (name, scene) in scenes {
            guard let clip = scene.document.clips.first else { continue }
            let rate = scene.document.frameRate
            let all = try FramePlan.plans(for: clip, documentRate: rate, fps: rate.framesPerSecond, selection: .all)
            var plans: [FramePlan] = []
            while plans.count < configuration.frames {
                for plan in all where plans.count < configuration.frames {
                    var copy = plan
                    copy.number = plans.count
                    plans.append(copy)
                }
            }
            let size = (configuration.size, configuration.size)
            let (framing, _) = try Framing.make(plans: plans, scenes: [scene], fit: .content, size: size,
                                                upscale: configuration.upscale)
            results.append(try measure(name: name, scene: scene, plans: plans, framing: framing,
                                       configuration: configuration))
        }
        return results
    }

    private static func measure(name: String, scene: RenderScene, plans: [FramePlan], framing: Framing,
                                configuration c: Configuration) throws(RenderError) -> Result {
        let clock = ContinuousClock()
        var best = (sample: Duration.seconds(1e6), raster: Duration.seconds(1e6), encode: Duration.seconds(1e6),
                    endToEnd: Duration.seconds(1e6), withoutReuse: Duration.seconds(1e6),
                    parallel: Duration.seconds(1e6))
        var reused = 0
        var items = 0
        var box = BoundingBox()
        for plan in plans {
            let layer = plan.layers[0]
            if let rect = Framing.bounds(of: layer.pose(in: scene),
                                         library: scene.library) { box.add(rect) }
        }
        let scale = framing.rootToDevice.a
        let contentPixels = box.rect.map { Int($0.width * $0.height * scale * scale) } ?? 0
        var renderer = FrameRenderer()
        var frame = Bitmap(width: framing.width, height: framing.height)
        var encoder = PNGEncoder(options: c.png)
        let folder = c.scratchFolder.appendingPathComponent("bench-\(RenderSession.fileStem(name))")
        defer { try? FileManager.default.removeItem(at: folder) }
        do { try AtomicFile.prepareFolder(folder.path) } catch {
            throw RenderError(.output(path: error.path, reason: error.reason))
        }
        let fileName: @Sendable (FramePlan) -> String = { "f\($0.number).png" }
        for _ in 0..<max(1, c.repetitions) {
            // Sampling alone.
            var poses: [Pose] = []
            poses.reserveCapacity(plans.count)
            var start = clock.now
            for plan in plans {
                let layer = plan.layers[0]
                poses.append(layer.pose(in: scene))
            }
            best.sample = min(best.sample, clock.now - start)
            items = poses.reduce(0) { $0 + $1.items.count }

            // Rasterizing alone, then libpng alone on the very same frame.
            var raster = Duration.zero, encode = Duration.zero
            for pose in poses {
                start = clock.now
                renderer.renderReusingBuffer(pose, library: scene.library, framing: framing, background: .transparent,
                                             into: &frame)
                let drawn = clock.now
                raster += drawn - start
                do { _ = try encoder.encode(frame) } catch {
                    throw RenderError(.output(path: "(memory)", reason: error.message))
                }
                encode += clock.now - drawn
            }
            best.raster = min(best.raster, raster)
            best.encode = min(best.encode, encode)

            // The whole pipeline, one worker, with and without reusing the bytes of equal frames, then several.
            start = clock.now
            let results = try BatchRenderer(scenes: [scene], framing: framing, png: c.png, jobs: 1)
                .run(plans, into: folder, fileName: fileName)
            best.endToEnd = min(best.endToEnd, clock.now - start)
            reused = results.filter(\.reused).count
            start = clock.now
            _ = try BatchRenderer(scenes: [scene], framing: framing, png: c.png, jobs: 1, reusesIdenticalFrames: false)
                .run(plans, into: folder, fileName: fileName)
            best.withoutReuse = min(best.withoutReuse, clock.now - start)
            start = clock.now
            _ = try BatchRenderer(scenes: [scene], framing: framing, png: c.png, jobs: c.jobs)
                .run(plans, into: folder, fileName: fileName)
            best.parallel = min(best.parallel, clock.now - start)
        }
        let n = Double(plans.count)
        func ms(_ d: Duration) -> Double {
            let (s, a) = d.components
            return (Double(s) * 1e3 + Double(a) / 1e15) / n
        }
        return Result(name: name, frames: plans.count, size: c.size, contentPixels: contentPixels, itemsPerFrame: Double(items) / n,
                      sampleMilliseconds: ms(best.sample), rasterMilliseconds: ms(best.raster),
                      encodeMilliseconds: ms(best.encode), endToEndMilliseconds: ms(best.endToEnd),
                      endToEndWithoutReuseMilliseconds: ms(best.withoutReuse), reusedFrames: reused,
                      parallelFramesPerSecond: 1000 / ms(best.parallel))
    }

    /// A table of results with totals over all clips.
    public static func report(_ results: [Result], jobs: Int) -> String {
        func f(_ x: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", x) }
        var lines = [
            "clip                                  size  frames items content  sample  raster  encode  e2e ms  e2e fps  "
                + "e2e/enc  \(jobs)-job fps  speedup  reused  no-reuse ms",
        ]
        for r in results {
            let name = r.name.count > 36 ? String(r.name.prefix(35)) + "…" : r.name
            lines.append(
                name.padding(toLength: 37, withPad: " ", startingAt: 0) + " "
                    + "\(r.size)".leftPadded(to: 5, with: " ") + " " + "\(r.frames)".leftPadded(to: 6, with: " ") + " "
                    + f(r.itemsPerFrame, 0).leftPadded(to: 5, with: " ") + " "
                    + String(format: "%.2fM", Double(r.contentPixels) / 1e6).leftPadded(to: 7, with: " ") + " "
                    + f(r.sampleMilliseconds, 3).leftPadded(to: 7, with: " ") + " "
                    + f(r.rasterMilliseconds, 3).leftPadded(to: 7, with: " ") + " "
                    + f(r.encodeMilliseconds).leftPadded(to: 7, with: " ") + " "
                    + f(r.endToEndMilliseconds).leftPadded(to: 7, with: " ") + " "
                    + f(r.endToEndFramesPerSecond, 1).leftPadded(to: 8, with: " ") + " "
                    + (f(r.ratioToEncode) + "×").leftPadded(to: 8, with: " ") + " "
                    + f(r.parallelFramesPerSecond, 1).leftPadded(to: 10, with: " ") + " "
                    + (f(r.parallelSpeedup) + "×").leftPadded(to: 8, with: " ") + " "
                    + "\(r.reusedFrames)".leftPadded(to: 7, with: " ") + " "
                    + f(r.endToEndWithoutReuseMilliseconds).leftPadded(to: 12, with: " "))
        }
        if !results.isEmpty {
            let frames = Double(results.reduce(0) { $0 + $1.frames })
            func total(_ key: (Result) -> Double) -> Double {
                results.reduce(0) { $0 + key($1) * Double($1.frames) } / frames
            }
            let e2e = total(\.endToEndMilliseconds), enc = total(\.encodeMilliseconds)
            let parallel = frames / results.reduce(0) { $0 + Double($1.frames) / $1.parallelFramesPerSecond }
            lines.append(
                "all (frame-weighted means)".padding(toLength: 65, withPad: " ", startingAt: 0)
                    + f(total(\.sampleMilliseconds), 3).leftPadded(to: 7, with: " ") + " "
                    + f(total(\.rasterMilliseconds), 3).leftPadded(to: 7, with: " ") + " "
                    + f(enc).leftPadded(to: 7, with: " ") + " " + f(e2e).leftPadded(to: 7, with: " ") + " "
                    + f(1000 / e2e, 1).leftPadded(to: 8, with: " ") + " "
                    + (f(e2e / enc) + "×").leftPadded(to: 8, with: " ") + " "
                    + f(parallel, 1).leftPadded(to: 10, with: " ") + " "
                    + (f(parallel / (1000 / e2e)) + "×").leftPadded(to: 8, with: " ") + " "
                    + "\(results.reduce(0) { $0 + $1.reusedFrames })".leftPadded(to: 7, with: " ") + " "
                    + f(total(\.endToEndWithoutReuseMilliseconds)).leftPadded(to: 12, with: " "))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
