import Foundation
import KeyframeFiles
import KeyframePNG
import KeyframeRaster

/// Renders a list of frames, in parallel when asked, and writes each one as a PNG.
///
/// Every frame is a pure function of its plan, so the bytes written do not depend on the number of workers or the
/// order in which they finish. Each worker keeps its own ``FrameRenderer``, frame buffer and PNG encoder, so buffers
/// are reused from frame to frame. A frame whose poses equal those of a frame already drawn in the run (a held pose,
/// a loop coming round) is neither drawn nor encoded again: it gets that frame's bytes, which are the bytes drawing
/// and encoding it would give (`RenderedFrameCache`). Files are written atomically (temporary file, then rename).
public struct BatchRenderer: Sendable {
    /// What a finished frame leaves behind.
    public struct Result: Sendable {
        /// The frame's plan.
        public var plan: FramePlan
        /// The file written, when an output folder was given.
        public var path: String?
        /// A reduced copy for the contact sheet, when asked for.
        public var thumbnail: Bitmap?
        /// Whether the frame's PNG bytes were those of a frame with the same poses drawn earlier in the run.
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
    /// Whether a frame with the same poses as one already drawn gets its bytes instead of being drawn and encoded
    /// again (the files are the same either way; benchmarks turn it off to measure what it saves).
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
        let cache = reusesIdenticalFrames && folder != nil ? RenderedFrameCache() : nil
        let work: @Sendable (Int) -> Void = { _ in
            var renderer = FrameRenderer()
            var frame = Bitmap(width: 0, height: 0)
            var encoder = PNGEncoder(options: png)
            while let index = queue.next() {
                let plan = plans[index]
                var result = Result(plan: plan, path: nil, thumbnail: nil)
                var failure: RenderError? = nil
                let layers = plan.layers.filter { scenes.indices.contains($0.scene) }
                    .map { RenderedFrameCache.Layer(scene: $0.scene, pose: $0.pose(in: scenes[$0.scene])) }
                var claim: RenderedFrameCache.Claim? = nil
                if let folder, let cache {
                    switch cache.look(up: layers) {
                    case .drawn(let known):
                        // Drawn before: its bytes and thumbnail, and the worker's buffer left as it was.
                        let path = folder.appendingPathComponent(fileName(plan)).path
                        if let error = BatchRenderer.store(known.png, to: path) { failure = error } else { result.path = path }
                        result.reused = true
                        result.thumbnail = known.thumbnail
                        collector.finish(index, result, failure, progress: progress)
                        continue
                    case .yours(let yours):
                        claim = yours
                    }
                }
                renderer.renderReusingBuffer(layers: layers.map { (pose: $0.pose, library: scenes[$0.scene].library) },
                                             framing: framing, background: background, into: &frame)
                if let side = thumbnailSide { result.thumbnail = Thumbnail.make(from: frame, longestSide: side) }
                if let folder {
                    let path = folder.appendingPathComponent(fileName(plan)).path
                    do throws(PNGError) {
                        let bytes = try encoder.encode(frame)
                        if let error = BatchRenderer.store(bytes, to: path) { failure = error } else { result.path = path }
                        // The bytes are the frame's even when writing them failed; a frame equal to it may still be
                        // written elsewhere.
                        if let claim { cache?.fulfil(claim, with: RenderedFrameCache.Frame(png: bytes, thumbnail: result.thumbnail)) }
                    } catch {
                        failure = RenderError(.output(path: path, reason: error.message))
                        if let claim { cache?.abandon(claim) }
                    }
                }
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
    /// Writes PNG bytes to `path` atomically; the failure, if any.
    static func store(_ png: [UInt8], to path: String) -> RenderError? {
        png.withUnsafeBytes { raw in
            do throws(FileWriteError) { try AtomicFile.store(raw, to: path) } catch {
                return RenderError(.output(path: path, reason: error.reason))
            }
            return nil
        }
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
