import Foundation
import KeyframeEngine
@testable import KeyframeExport
import KeyframeImport
import KeyframeModel
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// `PoseBaker`, the pictures both exporters show for filtered nodes: each picture, put at its offset on an empty
/// canvas, is exactly what `keyframe render` draws of that node alone; pictures are trimmed to their drawn pixels;
/// an equal pose part is not drawn again, and equal pixels are one picture.
final class PoseBakerTests: XCTestCase {
    func testPicturesAreTheRenderOfTheirNodeTrimmedAndReused() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("Samples/animate-glow")
        let document = try Importer.importDocument(at: url)
        let library = try AtlasLibrary(document: document, folder: try Importer.detect(url).folder)
        let clip = try XCTUnwrap(document.clips.first)
        let scene = RenderScene(document: document, library: library)
        let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                        fps: document.frameRate.framesPerSecond, selection: .all)
        let framing = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: nil).framing
        var baker = PoseBaker(library: library, framing: framing)
        var renderer = FrameRenderer()
        var parts = 0
        for plan in plans {
            let pose = scene.sampler.sample(clip: clip, time: plan.layers[0].time)
            for part in PoseBaker.filteredParts(of: pose) {
                parts += 1
                let placement = baker.bake(pose, items: part.items)
                // The same part again: the same picture, nothing drawn.
                let drawn = baker.drawn
                XCTAssertEqual(baker.bake(pose, items: part.items), placement)
                XCTAssertEqual(baker.drawn, drawn)
                // The node alone, as `render` draws it (its blend mode aside: the picture's is normal).
                var alone = pose
                alone.items = Array(pose.items[part.items])
                alone.filterGroups[part.group].blendMode = .normal
                var expected = Bitmap(width: 1, height: 1)
                renderer.render(alone, library: library, framing: framing, background: .transparent, into: &expected)
                guard let placement else {
                    XCTAssertFalse(expected.pixels.contains { $0 != 0 }, "\(pose.filterGroups[part.group].path)")
                    continue
                }
                let picture = baker.pictures[placement.picture]
                let area = PixelRect(x: placement.x, y: placement.y, width: picture.width, height: picture.height)
                XCTAssertEqual(expected.cropped(to: area), picture, "\(pose.filterGroups[part.group].path)")
                var outside = 0
                for y in 0..<expected.height {
                    for x in 0..<expected.width where expected.pixels[(y * expected.width + x) * 4 + 3] != 0 {
                        if x < area.x || y < area.y || x >= area.maxX || y >= area.maxY { outside += 1 }
                    }
                }
                XCTAssertEqual(outside, 0, "drawn pixels outside the picture")
                // Trimmed: every edge row and column holds a drawn pixel.
                let alpha = { (x: Int, y: Int) in picture.pixels[(y * picture.width + x) * 4 + 3] != 0 }
                XCTAssertTrue((0..<picture.width).contains { alpha($0, 0) })
                XCTAssertTrue((0..<picture.width).contains { alpha($0, picture.height - 1) })
                XCTAssertTrue((0..<picture.height).contains { alpha(0, $0) })
                XCTAssertTrue((0..<picture.height).contains { alpha(picture.width - 1, $0) })
            }
        }
        XCTAssertGreaterThan(parts, 0)
        XCTAssertLessThan(baker.drawn, parts, "no pose part was reused")
        for (i, a) in baker.pictures.enumerated() {
            XCTAssertFalse(baker.pictures[(i + 1)...].contains(a), "picture \(i) is there twice")
        }
    }
}
