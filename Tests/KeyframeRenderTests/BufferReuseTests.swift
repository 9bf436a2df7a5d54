import Foundation
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// Workers reuse one frame buffer and clear only what the previous frame drew; every frame must still equal a frame
/// rendered into a fresh buffer. What a frame drew (`inkedRegion`) is also what reusing equal frames' PNG bytes
/// compares (`EncodedPictureCache`), so every pixel outside it must be the background; and every frame written with
/// the fast PNG preset must read back, through libpng, exactly.
///
/// Frames are drawn at their authored size and scaled down (where sprites come from reduced atlases, whose rounding
/// to whole texels widens a quad by more than a pixel along an axis scaled more than the other: a progress bar
/// stretched in x only left two rows of its edge behind when that was not counted as drawn).
final class BufferReuseTests: XCTestCase {
    func testReusedBufferFramesEqualFreshFrames() throws {
        let root = TestPaths.packageRoot.appendingPathComponent("Samples")
        let samples = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
            .map { root.appendingPathComponent($0) }.filter { (try? Importer.detect($0)) != nil }
        XCTAssertGreaterThanOrEqual(samples.count, 5)
        let stretched = try TestPaths.corpus("dragonbones").filter { $0.lastPathComponent == "db4.5-animationbasetest" }
        XCTAssertEqual(stretched.count, 1, "the corpus export whose progress bar is scaled in x only")
        var frames = 0
        let runs: [(URL, (width: Int, height: Int)?)] = samples.map { ($0, nil) } + samples.map { ($0, (96, 64)) }
            + stretched.map { ($0, (256, 256)) }
        for (sample, size) in runs {
            let document = try Importer.importDocument(at: sample)
            let scene = try RenderScene(document: document, assetsFolder: try Importer.detect(sample).folder)
            let backgrounds = size == nil ? [RGBAColor.transparent, RGBAColor(r: 30, g: 60, b: 90, a: 200)]
                : [RGBAColor.transparent]
            for background in backgrounds {
                // All clips in a row through one renderer and one buffer, as a worker does, so a frame follows
                // frames of other clips and sizes too.
                var reusing = FrameRenderer()
                var buffer = Bitmap(width: 0, height: 0)
                var encoder = PNGEncoder(options: .fast)
                for clip in document.clips {
                    let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                                    fps: document.frameRate.framesPerSecond, selection: .all)
                    let (framing, _) = try Framing.make(plans: plans, scenes: [scene], fit: .content, size: size)
                    // Play forwards, then backwards, so shrinking and growing ink are both seen.
                    for plan in plans + plans.reversed() {
                        reusing.renderReusingBuffer(plan, scenes: [scene], framing: framing, background: background,
                                                    into: &buffer)
                        var fresh = FrameRenderer()
                        var expected = Bitmap(width: 0, height: 0)
                        fresh.render(plan, scenes: [scene], framing: framing, background: background, into: &expected)
                        if buffer != expected {
                            let comparison = BitmapComparison.compare(buffer, expected)
                            XCTFail("\(sample.lastPathComponent)/\(clip.name) frame \(plan.number) at "
                                    + "\(framing.width)×\(framing.height): \(comparison.summary)")
                            return
                        }
                        let label = "\(sample.lastPathComponent)/\(clip.name) frame \(plan.number) over \(background)"
                        let ink = try XCTUnwrap(reusing.inkedRegion, label)
                        XCTAssertEqual(Self.rowsWithInkOutside(ink, of: buffer, background: background), 0, label)
                        let png = try encoder.encode(buffer)
                        XCTAssertEqual(try PNGDecoder().decode(png), buffer, "\(label): the fast PNG reads back differently")
                        frames += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(frames, 800)
    }

    /// How many rows of `bitmap` have a pixel outside `region` that is not `background` (compared as bytes, row
    /// piece by row piece, so that it stays quick in a debug build).
    private static func rowsWithInkOutside(_ region: PixelRect, of bitmap: Bitmap, background: RGBAColor)
        -> Int
    {
        let pixel = background.premultiplied
        let row = [UInt8]((0..<bitmap.width).flatMap { _ in [pixel.r, pixel.g, pixel.b, pixel.a] })
        var rows = 0
        bitmap.pixels.withUnsafeBytes { pixels in
            row.withUnsafeBytes { row in
                for y in 0..<bitmap.height {
                    let start = pixels.baseAddress! + y * bitmap.rowBytes
                    let inside = y >= region.y && y < region.maxY && !region.isEmpty
                    let pieces = inside
                        ? [(0, max(0, region.x)), (min(bitmap.width, region.maxX), bitmap.width)]
                        : [(0, bitmap.width)]
                    for (from, to) in pieces where to > from
                        && memcmp(start + from * 4, row.baseAddress!, (to - from) * 4) != 0
                    {
                        rows += 1
                        break
                    }
                }
            }
        }
        return rows
    }
}
