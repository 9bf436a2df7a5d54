import Foundation
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// Workers reuse one frame buffer and clear only what the previous frame drew; every frame must still equal a frame
/// rendered into a fresh buffer.
final class BufferReuseTests: XCTestCase {
    func testReusedBufferFramesEqualFreshFrames() throws {
        let root = TestPaths.packageRoot.appendingPathComponent("Samples")
        let samples = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
            .map { root.appendingPathComponent($0) }.filter { (try? Importer.detect($0)) != nil }
        XCTAssertGreaterThanOrEqual(samples.count, 5)
        var frames = 0
        for sample in samples {
            let document = try Importer.importDocument(at: sample)
            let scene = try RenderScene(document: document, assetsFolder: try Importer.detect(sample).folder)
            for background in [RGBAColor.transparent, RGBAColor(r: 30, g: 60, b: 90, a: 200)] {
                // All clips in a row through one renderer and one buffer, as a worker does, so a frame follows
                // frames of other clips and sizes too.
                var reusing = FrameRenderer()
                var buffer = Bitmap(width: 0, height: 0)
                for clip in document.clips {
                    let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                                    fps: document.frameRate.framesPerSecond, selection: .all)
                    let (framing, _) = try Framing.make(plans: plans, scenes: [scene], fit: .content, size: nil)
                    // Play forwards, then backwards, so shrinking and growing ink are both seen.
                    for plan in plans + plans.reversed() {
                        reusing.renderReusingBuffer(plan, scenes: [scene], framing: framing, background: background,
                                                    into: &buffer)
                        var fresh = FrameRenderer()
                        var expected = Bitmap(width: 0, height: 0)
                        fresh.render(plan, scenes: [scene], framing: framing, background: background, into: &expected)
                        if buffer != expected {
                            let comparison = BitmapComparison.compare(buffer, expected)
                            XCTFail("\(sample.lastPathComponent)/\(clip.name) frame \(plan.number): \(comparison.summary)")
                            return
                        }
                        frames += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(frames, 500)
    }
}
