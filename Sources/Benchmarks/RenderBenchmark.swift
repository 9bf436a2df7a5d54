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
/// Every figure is the best of a few repetitions (the machine may be shared); what runs on the calling thread is timed
/// in that thread's CPU time (so the figures hold on a loaded machine), the one-worker pipeline and the parallel run
/// also by the wall clock.
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
        /// Milliseconds per frame for each stage, measured separately (CPU time of the thread).
        public var sampleMilliseconds: Double
        public var rasterMilliseconds: Double
        public var encodeMilliseconds: Double
        /// Sample + raster + encode + write with one worker, per frame, frames equal to an earlier one reusing its
        /// PNG bytes (the default); CPU time of the thread.
        public var endToEndMilliseconds: Double
        /// The same, wall clock.
        public var endToEndWallMilliseconds: Double
        /// The same with every frame encoded.
        public var endToEndWithoutReuseMilliseconds: Double
        /// Frames whose PNG bytes were reused.
        public var reusedFrames: Int
        /// Frames per second with ``Configuration/jobs`` workers (wall clock).
        public var parallelFramesPerSecond: Double

        public var endToEndFramesPerSecond: Double { 1000 / endToEndMilliseconds }
        /// End-to-end time over the encoder's time for the same frames.
        public var ratioToEncode: Double { endToEndMilliseconds / encodeMilliseconds }
        /// Parallel rate over the single-worker rate, both wall clock (goal ≥ 1.8 with 2 workers).
        public var parallelSpeedup: Double { parallelFramesPerSecond * endToEndWallMilliseconds / 1000 }
    }

    /// Measures the first clip of each scene.
    public static func run(_ scenes: [(name: String, scene: RenderScene)], configuration: Configuration)
        throws(RenderError) -> [Result]
    {
        var results: [Result] = []
        for (name, scene) in scenes {
            guard let plans = try BenchmarkInputs.loopedFirstClip(of: scene, frames: configuration.frames),
                !plans.isEmpty
            else { continue }
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
        // Thread CPU time for what runs on this thread (everything but the parallel run), wall clock for the
        // one-worker pipeline and the parallel run.
        var best = (sample: Double.infinity, raster: Double.infinity, encode: Double.infinity,
                    endToEnd: Double.infinity, endToEndWall: Double.infinity, withoutReuse: Double.infinity,
                    parallel: Double.infinity)
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
        func run(jobs: Int, reuse: Bool) throws(RenderError) -> (BenchmarkClock.Span, Int) {
            var results: [BatchRenderer.Result] = []
            var failure: RenderError?
            let took = BenchmarkClock.measure {
                do throws(RenderError) {
                    results = try BatchRenderer(scenes: [scene], framing: framing, png: c.png, jobs: jobs,
                                                reusesIdenticalFrames: reuse).run(plans, into: folder, fileName: fileName)
                } catch { failure = error }
            }.span
            if let failure { throw failure }
            return (took, results.filter(\.reused).count)
        }
        for _ in 0..<max(1, c.repetitions) {
            // Sampling alone.
            var poses: [Pose] = []
            poses.reserveCapacity(plans.count)
            let sampling = BenchmarkClock.measure {
                for plan in plans { poses.append(plan.layers[0].pose(in: scene)) }
            }.span
            best.sample = min(best.sample, sampling.threadCPU)
            items = poses.reduce(0) { $0 + $1.items.count }

            // Rasterizing alone, then the encoder alone on the very same frame.
            var raster = 0.0, encode = 0.0
            for pose in poses {
                var start = BenchmarkClock.threadCPU()
                renderer.renderReusingBuffer(pose, library: scene.library, framing: framing, background: .transparent,
                                             into: &frame)
                let drawn = BenchmarkClock.threadCPU()
                raster += drawn - start
                do { _ = try encoder.encode(frame) } catch {
                    throw RenderError(.output(path: "(memory)", reason: error.message))
                }
                start = BenchmarkClock.threadCPU()
                encode += start - drawn
            }
            best.raster = min(best.raster, raster)
            best.encode = min(best.encode, encode)

            // The whole pipeline, one worker (on this thread), with and without reusing the bytes of equal frames,
            // then several workers.
            let (endToEnd, reusedFrames) = try run(jobs: 1, reuse: true)
            best.endToEnd = min(best.endToEnd, endToEnd.threadCPU)
            best.endToEndWall = min(best.endToEndWall, endToEnd.wall)
            reused = reusedFrames
            best.withoutReuse = min(best.withoutReuse, try run(jobs: 1, reuse: false).0.threadCPU)
            best.parallel = min(best.parallel, try run(jobs: c.jobs, reuse: true).0.wall)
        }
        let n = Double(plans.count)
        func ms(_ seconds: Double) -> Double { seconds * 1e3 / n }
        return Result(name: name, frames: plans.count, size: c.size, contentPixels: contentPixels,
                      itemsPerFrame: Double(items) / n, sampleMilliseconds: ms(best.sample),
                      rasterMilliseconds: ms(best.raster), encodeMilliseconds: ms(best.encode),
                      endToEndMilliseconds: ms(best.endToEnd), endToEndWallMilliseconds: ms(best.endToEndWall),
                      endToEndWithoutReuseMilliseconds: ms(best.withoutReuse), reusedFrames: reused,
                      parallelFramesPerSecond: 1000 / ms(best.parallel))
    }

    /// A table of results with totals over all clips: milliseconds per frame, thread CPU time except where it says
    /// wall.
    public static func report(_ results: [Result], jobs: Int) -> String {
        func f(_ x: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", x) }
        func cells(_ r: Result, parallel: Double) -> String {
            [f(r.sampleMilliseconds, 3).leftPadded(to: 7, with: " "), f(r.rasterMilliseconds, 3).leftPadded(to: 7, with: " "),
             f(r.encodeMilliseconds).leftPadded(to: 7, with: " "), f(r.endToEndMilliseconds).leftPadded(to: 7, with: " "),
             f(r.endToEndWallMilliseconds).leftPadded(to: 8, with: " "),
             f(r.endToEndFramesPerSecond, 1).leftPadded(to: 8, with: " "),
             (f(r.ratioToEncode) + "×").leftPadded(to: 8, with: " "), f(parallel, 1).leftPadded(to: 10, with: " "),
             (f(parallel * r.endToEndWallMilliseconds / 1000) + "×").leftPadded(to: 8, with: " "),
             "\(r.reusedFrames)".leftPadded(to: 7, with: " "),
             f(r.endToEndWithoutReuseMilliseconds).leftPadded(to: 12, with: " ")].joined(separator: " ")
        }
        var lines = [
            "clip                                  size  frames items content  sample  raster  encode  e2e ms  e2e wall  "
                + "e2e fps  e2e/enc  \(jobs)-job fps  speedup  reused  no-reuse ms",
        ]
        for r in results {
            let name = r.name.count > 36 ? String(r.name.prefix(35)) + "…" : r.name
            lines.append(
                name.padding(toLength: 37, withPad: " ", startingAt: 0) + " "
                    + "\(r.size)".leftPadded(to: 5, with: " ") + " " + "\(r.frames)".leftPadded(to: 6, with: " ") + " "
                    + f(r.itemsPerFrame, 0).leftPadded(to: 5, with: " ") + " "
                    + String(format: "%.2fM", Double(r.contentPixels) / 1e6).leftPadded(to: 7, with: " ") + " "
                    + cells(r, parallel: r.parallelFramesPerSecond))
        }
        if !results.isEmpty {
            let frames = results.reduce(0) { $0 + $1.frames }
            func total(_ key: KeyPath<Result, Double>) -> Double {
                results.reduce(0) { $0 + $1[keyPath: key] * Double($1.frames) } / Double(frames)
            }
            let parallel = Double(frames) / results.reduce(0) { $0 + Double($1.frames) / $1.parallelFramesPerSecond }
            let all = Result(
                name: "all", frames: frames, size: results[0].size, contentPixels: 0, itemsPerFrame: 0,
                sampleMilliseconds: total(\.sampleMilliseconds), rasterMilliseconds: total(\.rasterMilliseconds),
                encodeMilliseconds: total(\.encodeMilliseconds), endToEndMilliseconds: total(\.endToEndMilliseconds),
                endToEndWallMilliseconds: total(\.endToEndWallMilliseconds),
                endToEndWithoutReuseMilliseconds: total(\.endToEndWithoutReuseMilliseconds),
                reusedFrames: results.reduce(0) { $0 + $1.reusedFrames }, parallelFramesPerSecond: parallel)
            lines.append("all (frame-weighted means)".padding(toLength: 65, withPad: " ", startingAt: 0)
                         + cells(all, parallel: parallel))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
