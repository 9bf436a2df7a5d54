import Dispatch
import Foundation
import KeyframeImport
import KeyframeModel
@_spi(Testing) import KeyframePNG
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// The fast PNG preset on every frame of every clip of every corpus export: libpng must read each file back to
/// exactly the frame it was written from (the samples' frames are checked in `BufferReuseTests`), and the plain C
/// path must write the bytes the widest vector path writes. Frames are scaled to fit 128 × 128 to keep the 4,000
/// frames quick in a debug build; the compressor sees the same kinds of rows at any size, and
/// `FramesCompressorTests` covers sizes, layouts and wide rows.
final class FastPNGCorpusTests: XCTestCase {
    func testEveryCorpusFrameReadsBackExactly() throws {
        let exports = try ["animate_atlas", "dragonbones", "flump", "flump_xml"].flatMap { try TestPaths.corpus($0) }
        let outcome = Outcome()
        DispatchQueue.concurrentPerform(iterations: exports.count) { index in
            do {
                let (frames, failures) = try Self.check(exports[index])
                outcome.add(frames: frames, failures: failures)
            } catch {
                outcome.add(frames: 0, failures: ["\(exports[index].lastPathComponent): \(error)"])
            }
        }
        for failure in outcome.failures.prefix(20) { XCTFail(failure) }
        XCTAssertTrue(outcome.failures.isEmpty, "\(outcome.failures.count) frames read back differently")
        XCTAssertGreaterThan(outcome.frames, 3000)
        print("FastPNGCorpusTests: \(outcome.frames) frames of \(exports.count) exports read back exactly")
    }

    /// Renders every frame of every clip of `export` and round-trips it; returns the frame count and the failures.
    private static func check(_ export: URL) throws -> (Int, [String]) {
        let name = export.lastPathComponent
        let document = try Importer.importDocument(at: export)
        let scene = try RenderScene(document: document, assetsFolder: try Importer.detect(export).folder)
        var renderer = FrameRenderer()
        var frame = Bitmap(width: 0, height: 0)
        var encoder = PNGEncoder(options: .fast)
        var plain = PNGEncoder(options: .fast)
        plain.options.vectorInstructions = .none
        var frames = 0
        var failures: [String] = []
        for clip in document.clips {
            let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                            fps: document.frameRate.framesPerSecond, selection: .all)
            let (natural, _) = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: nil)
            let scale = min(1, 128 / Double(max(natural.width, natural.height)))
            let size = (max(1, Int(Double(natural.width) * scale)), max(1, Int(Double(natural.height) * scale)))
            let (framing, _) = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: size)
            for plan in plans {
                renderer.renderReusingBuffer(plan, scenes: [scene], framing: framing, background: .transparent,
                                             into: &frame)
                let png = try encoder.encode(frame)
                if try PNGDecoder().decode(png) != frame { failures.append("\(name)/\(clip.name) frame \(plan.number)") }
                if try plain.encode(frame) != png {
                    failures.append("\(name)/\(clip.name) frame \(plan.number): plain C wrote other bytes")
                }
                frames += 1
            }
        }
        return (frames, failures)
    }

    /// On real frames the fast preset's files are no larger than 1.1× zlib level 1 with the best filter setting
    /// for each frame (the goal of issue 27, measured at full size by `keyframe bench png`), and every vector path
    /// writes the same bytes at this size too.
    func testFastFilesStayWithinATenthOfZlibLevelOneWithTheBestFilter() throws {
        let filters: [PNGFilters] = [.none, .sub, .up, .average, .paeth, .all]
        let zlib = [PNGCompressionStrategy.default, .runLength].flatMap { strategy in
            filters.map { PNGEncodingOptions(compressionLevel: 1, filters: $0, strategy: strategy) }
        }
        var fast = 0, best = 0
        for export in try TestPaths.corpus("animate_atlas") {
            let document = try Importer.importDocument(at: export)
            let scene = try RenderScene(document: document, assetsFolder: try Importer.detect(export).folder)
            let clip = try XCTUnwrap(document.clips.first)
            let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                            fps: document.frameRate.framesPerSecond, selection: .all)
            let (framing, _) = try Framing.make(plans: plans, scenes: [scene], fit: .content, size: (512, 512))
            var renderer = FrameRenderer()
            var frame = Bitmap(width: 0, height: 0)
            for plan in plans.prefix(1) {
                renderer.render(plan, scenes: [scene], framing: framing, background: .transparent, into: &frame)
                var encoder = PNGEncoder(options: .fast)
                let png = try encoder.encode(frame)
                fast += png.count
                for vectors in [PNGVectorInstructions.none, .sse2] {
                    encoder.options.vectorInstructions = vectors
                    XCTAssertTrue(try encoder.encode(frame) == png, "\(export.lastPathComponent): \(vectors) vectors")
                }
                best += try zlib.map { options in
                    var encoder = PNGEncoder(options: options)
                    return try encoder.encode(frame).count
                }.min()!
            }
        }
        XCTAssertGreaterThan(best, 0)
        XCTAssertLessThanOrEqual(Double(fast), 1.1 * Double(best), "fast \(fast) bytes, zlib level 1 best \(best)")
    }
}

/// Frame counts and failures gathered from concurrent workers.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var frames = 0
    private(set) var failures: [String] = []

    func add(frames: Int, failures: [String]) {
        lock.lock()
        defer { lock.unlock() }
        self.frames += frames
        self.failures += failures
    }
}
