import Foundation
import KeyframePNG
import KeyframeRaster
import KeyframeRender

/// Measures the fast PNG preset on rendered frames of real clips against zlib, in the same run: time per frame
/// (thread CPU time and wall clock) against zlib level 1 with the "up" filter and run-length strategy (the fast
/// preset before it had its own compressor), and bytes against zlib level 1 with the best filter for each frame.
/// Every fast file is decoded by libpng and compared with the frame it was made from.
///
/// Frames are rendered once, untimed; the encoders then take turns over the same frames (the order alternates
/// between repetitions) and the fastest repetition of each is kept.
public enum FrameEncodingBenchmark {
    /// What to measure.
    public struct Configuration: Sendable {
        /// Frames are `size` × `size` pixels.
        public var size = 1024
        /// Content scaled up to fill the frame (`fit`), or at its authored scale, centred (`native`).
        public var upscale = false
        /// Frames of each clip (short clips repeat).
        public var frames = 24
        /// Repetitions; the fastest is kept.
        public var repetitions = 3

        public init() {}
    }

    /// The figures for one clip.
    public struct Result: Sendable {
        public var name: String
        public var frames: Int
        /// Milliseconds per frame: the fast preset, and zlib level 1 + up + run-length; CPU time of the thread.
        public var fastCPU: Double
        public var zlibCPU: Double
        /// The same, wall clock.
        public var fastWall: Double
        public var zlibWall: Double
        /// Bytes over all frames: the fast preset, zlib level 1 + up + run-length, and zlib level 1 with the best of
        /// its filter settings (none, sub, up, average, Paeth, adaptive; default and run-length strategies) per frame.
        public var fastBytes: Int
        public var zlibUpBytes: Int
        public var zlibBestBytes: Int
        /// Frames whose fast PNG libpng did not decode to exactly the frame.
        public var mismatches: Int
    }

    /// The zlib level 1 settings the best-filter figure takes the smallest of.
    static let zlibLevel1: [PNGEncodingOptions] = {
        let filters: [PNGFilters] = [.none, .sub, .up, .average, .paeth, .all]
        return [PNGCompressionStrategy.default, .runLength].flatMap { strategy in
            filters.map { PNGEncodingOptions(compressionLevel: 1, filters: $0, strategy: strategy) }
        }
    }()

    /// zlib level 1, the "up" filter, run-length strategy.
    static let zlibUp = PNGEncodingOptions(compressionLevel: 1, filters: .up, strategy: .runLength)

    /// Measures the first clip of each scene.
    public static func run(_ scenes: [(name: String, scene: RenderScene)], configuration c: Configuration)
        throws -> [Result]
    {
        var results: [Result] = []
        for (name, scene) in scenes {
            guard let plans = try BenchmarkInputs.loopedFirstClip(of: scene, frames: c.frames), !plans.isEmpty
            else { continue }
            let (framing, _) = try Framing.make(plans: plans, scenes: [scene], fit: .content,
                                                size: (c.size, c.size), upscale: c.upscale)
            var renderer = FrameRenderer()
            let frames: [Bitmap] = plans.map { plan in
                var frame = Bitmap(width: 0, height: 0)
                renderer.render(plan, scenes: [scene], framing: framing, background: .transparent, into: &frame)
                return frame
            }
            results.append(try measure(name: name, frames: frames, repetitions: c.repetitions))
        }
        return results
    }

    /// Times and sizes the encoders on `frames`.
    public static func measure(name: String, frames: [Bitmap], repetitions: Int) throws -> Result {
        var fast = PNGEncoder(options: .fast)
        var zlib = PNGEncoder(options: zlibUp)
        var best = (fastCPU: Double.infinity, fastWall: Double.infinity, zlibCPU: Double.infinity,
                    zlibWall: Double.infinity)
        for repetition in 0..<max(1, repetitions) {
            let timeFast = {
                let took = try BenchmarkClock.measure { for frame in frames { _ = try fast.encode(frame) } }
                best.fastCPU = min(best.fastCPU, took.span.threadCPU)
                best.fastWall = min(best.fastWall, took.span.wall)
            }
            let timeZlib = {
                let took = try BenchmarkClock.measure { for frame in frames { _ = try zlib.encode(frame) } }
                best.zlibCPU = min(best.zlibCPU, took.span.threadCPU)
                best.zlibWall = min(best.zlibWall, took.span.wall)
            }
            if repetition % 2 == 0 {
                try timeFast()
                try timeZlib()
            } else {
                try timeZlib()
                try timeFast()
            }
        }
        var fastBytes = 0, zlibUpBytes = 0, zlibBestBytes = 0, mismatches = 0
        for frame in frames {
            let png = try fast.encode(frame)
            fastBytes += png.count
            if try PNGDecoder().decode(png) != frame { mismatches += 1 }
            zlibUpBytes += try zlib.encode(frame).count
            var smallest = Int.max
            for options in zlibLevel1 {
                var encoder = PNGEncoder(options: options)
                smallest = min(smallest, try encoder.encode(frame).count)
            }
            zlibBestBytes += smallest
        }
        let n = Double(frames.count)
        return Result(name: name, frames: frames.count, fastCPU: best.fastCPU * 1e3 / n, zlibCPU: best.zlibCPU * 1e3 / n,
                      fastWall: best.fastWall * 1e3 / n, zlibWall: best.zlibWall * 1e3 / n, fastBytes: fastBytes,
                      zlibUpBytes: zlibUpBytes, zlibBestBytes: zlibBestBytes, mismatches: mismatches)
    }

    /// A table of results with frame-weighted totals.
    public static func report(_ results: [Result]) -> String {
        func f(_ x: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", x) }
        func column(_ text: String, _ width: Int) -> String { text.leftPadded(to: width, with: " ") }
        var lines = [
            "clip                                  frames  fast ms  (wall)  zlib ms  (wall)  speed-up   fast KB  "
                + "z1 best KB  fast/best  z1 up KB  fast/up  decoded",
        ]
        func line(_ name: String, _ r: Result) -> String {
            let label = name.count > 36 ? String(name.prefix(35)) + "…" : name
            return label.padding(toLength: 37, withPad: " ", startingAt: 0) + " " + column("\(r.frames)", 6) + " "
                + column(f(r.fastCPU), 8) + " " + column("(" + f(r.fastWall) + ")", 7) + " "
                + column(f(r.zlibCPU), 8) + " " + column("(" + f(r.zlibWall) + ")", 7) + " "
                + column(f(r.zlibCPU / r.fastCPU) + "×", 9) + " "
                + column(f(Double(r.fastBytes) / Double(r.frames) / 1024, 1), 9) + " "
                + column(f(Double(r.zlibBestBytes) / Double(r.frames) / 1024, 1), 11) + " "
                + column(f(Double(r.fastBytes) / Double(r.zlibBestBytes), 3), 10) + " "
                + column(f(Double(r.zlibUpBytes) / Double(r.frames) / 1024, 1), 9) + " "
                + column(f(Double(r.fastBytes) / Double(r.zlibUpBytes), 3), 8) + " "
                + column(r.mismatches == 0 ? "exact" : "\(r.mismatches) differ", 8)
        }
        for r in results { lines.append(line(r.name, r)) }
        if !results.isEmpty {
            let frames = results.reduce(0) { $0 + $1.frames }
            func mean(_ key: KeyPath<Result, Double>) -> Double {
                results.reduce(0) { $0 + $1[keyPath: key] * Double($1.frames) } / Double(frames)
            }
            let total = Result(
                name: "all", frames: frames, fastCPU: mean(\.fastCPU), zlibCPU: mean(\.zlibCPU),
                fastWall: mean(\.fastWall), zlibWall: mean(\.zlibWall),
                fastBytes: results.reduce(0) { $0 + $1.fastBytes }, zlibUpBytes: results.reduce(0) { $0 + $1.zlibUpBytes },
                zlibBestBytes: results.reduce(0) { $0 + $1.zlibBestBytes },
                mismatches: results.reduce(0) { $0 + $1.mismatches })
            lines.append(line("all (frame-weighted)", total))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
