import Foundation
import KeyframeFiles
import KeyframePNG
import KeyframeRaster

/// Renders a list of frames, in parallel when asked, and writes each one as a PNG.
///
/// Every frame is a pure function of its plan, so the bytes written do not depend on the number of workers or the
/// order in which they finish. Each worker keeps its own ``FrameRenderer``, frame buffer and PNG encoder, so buffers
/// are reused from frame to frame. A frame equal pixel for pixel to one already encoded in the run (a held pose, a
/// loop coming round) is not encoded again: it gets that frame's bytes (``EncodedPictureCache``), which are the bytes
/// encoding it would give. Files are written atomically (temporary file, then rename).
public struct BatchRenderer: Sendable {
    /// What a finished frame leaves behind.
    public struct Result: Sendable {
        /// The frame's plan.
        public var plan: FramePlan
        /// The file written, when an output folder was given.
        public var path: String?
        /// A reduced copy for the contact sheet, when asked for.
        public var thumbnail: Bitmap?
        /// Whether the frame's PNG bytes were those of an equal frame encoded earlier in the run.
        public var reused = false
    }

    /// The documents the plans refer to.
    public var scenes: [RenderScene]
    /// The framing shared by every frame.
    public var framing: Framing
    /// The colour behind the scene (transparent by default).
    public var background: RGBAColor
    /// PNG settings.
    public var png: PNGEncodingOptions
    /// Parallel workers (at least 1).
    public var jobs: Int
    /// The longest side of contact-sheet thumbnails; `nil` makes none.
    public var thumbnailSide: Int?
    /// Whether a frame equal to one already encoded gets its bytes instead of being encoded again (the files are the
    /// same either way; benchmarks turn it off to measure what it saves).
    public var reusesIdenticalFrames = true

    public init(scenes: [RenderScene], framing: Framing, background: RGBAColor = .transparent,
                png: PNGEncodingOptions = .fast, jobs: Int = 1, thumbnailSide: Int? = nil,
                reusesIdenticalFrames: Bool = true) {
        self.scenes = scenes
        self.framing = framing
        self.background = background
        self.png = png
        self.jobs = max(1, jobs)
        self.thumbnailSide = thumbnailSide
        self.reusesIdenticalFrames = reusesIdenticalFrames
    }

    /// Renders `plans`, writing frame `plan` to `fileName(plan)` inside `folder` (nothing is written when `folder`
    /// is `nil`), and reports progress after each frame.
    ///
    /// - Throws: ``RenderError`` for the first frame (in plan order) that could not be written.
    public func run(_ plans: [FramePlan], into folder: URL?, fileName: @escaping @Sendable (FramePlan) -> String,
                    progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) throws(RenderError) -> [Result]
    {
        let collector = Collector(count: plans.count)
        let workers = min(jobs, max(1, plans.count))
        // Workers take the next frame when they finish one (rather than a fixed share), so a worker
        // slowed by heavier frames or by other processes does not hold the others up. Every frame
        // is rendered and written on its own, so the files do not depend on which worker drew them.
        let queue = FrameQueue(count: plans.count)
        let cache = reusesIdenticalFrames && folder != nil ? EncodedPictureCache() : nil
        let work: @Sendable (Int) -> Void = { _ in
            var renderer = FrameRenderer()
            var frame = Bitmap(width: 0, height: 0)
            var encoder = PNGEncoder(options: png)
            while let index = queue.next() {
                let plan = plans[index]
                renderer.renderReusingBuffer(plan, scenes: scenes, framing: framing, background: background,
                                             into: &frame)
                var result = Result(plan: plan, path: nil, thumbnail: nil)
                var failure: RenderError? = nil
                if let folder {
                    let path = folder.appendingPathComponent(fileName(plan)).path
                    let written = BatchRenderer.write(frame, inked: renderer.inkedRegion, background: background,
                                                      to: path, cache: cache, encoder: &encoder)
                    result.reused = written.reused
                    if let error = written.failure { failure = error } else { result.path = path }
                }
                if let side = thumbnailSide { result.thumbnail = Thumbnail.make(from: frame, longestSide: side) }
                collector.finish(index, result, failure, progress: progress)
            }
        }
        if workers == 1 {
            work(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: workers, execute: work)
        }
        return try collector.results()
    }
}

extension BatchRenderer {
    /// Writes `frame` as a PNG to `path`: the bytes of an equal frame encoded before when `cache` has one, else
    /// encoded with `encoder`. Returns whether the bytes were reused, or the failure.
    static func write(_ frame: Bitmap, inked: PixelRect?, background: RGBAColor, to path: String,
                      cache: EncodedPictureCache?, encoder: inout PNGEncoder) -> (reused: Bool, failure: RenderError?)
    {
        guard let cache else {
            do { try encoder.write(frame, to: path) } catch {
                return (false, RenderError(.output(path: path, reason: error.message)))
            }
            return (false, nil)
        }
        let encoded: (png: [UInt8], reused: Bool)
        do { encoded = try cache.png(for: frame, inked: inked, background: background, encoder: &encoder) } catch {
            return (false, RenderError(.output(path: path, reason: error.message)))
        }
        let failure: RenderError? = encoded.png.withUnsafeBytes { raw in
            do throws(FileWriteError) { try AtomicFile.store(raw, to: path) } catch {
                return RenderError(.output(path: path, reason: error.reason))
            }
            return nil
        }
        return (encoded.reused, failure)
    }
}

/// Hands out frame indices in plan order, one at a time, to whichever worker asks.
private final class FrameQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var following = 0
    private let count: Int

    init(count: Int) { self.count = count }

    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard following < count else { return nil }
        following += 1
        return following - 1
    }
}

/// Gathers results from workers; the first failure in plan order wins, so errors are deterministic too.
private final class Collector: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [BatchRenderer.Result?]
    private var failures: [Int: RenderError] = [:]
    private var done = 0

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func finish(_ index: Int, _ result: BatchRenderer.Result, _ failure: RenderError?,
                progress: (@Sendable (Int, Int) -> Void)?) {
        lock.lock()
        slots[index] = result
        if let failure { failures[index] = failure }
        done += 1
        let (finished, total) = (done, slots.count)
        // Reported under the lock so the counts arrive in order.
        progress?(finished, total)
        lock.unlock()
    }

    func results() throws(RenderError) -> [BatchRenderer.Result] {
        lock.lock()
        defer { lock.unlock() }
        if let first = failures.keys.min(), let failure = failures[first] { throw failure }
        return slots.compactMap { $0 }
    }
}
