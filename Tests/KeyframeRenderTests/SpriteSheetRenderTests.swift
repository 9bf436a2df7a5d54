import Foundation
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// Every frame of every clip of an authored sprite sheet (``SpriteSheetFixture``: trimmed, negative offsets,
/// rotated, renamed image, BOM), rendered as `keyframe render` renders it, equals the frame the authored picture
/// makes at its offset in the untrimmed frame, in all three layouts.
final class SpriteSheetRenderTests: XCTestCase {
    func testRenderedFramesEqualTheAuthoredFrames() throws {
        for layout in SpriteSheetFixture.Layout.allCases {
            let folder = try SpriteSheetFixture.write(layout)
            addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
            let document = try Importer.importDocument(at: folder, options: ImportOptions(sheetAnimations: .single))
            let scene = RenderScene(document: document, library: try AtlasLibrary(document: document, folder: folder))
            let clip = try XCTUnwrap(document.clips.first)
            let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                            fps: document.frameRate.framesPerSecond, selection: .all)
            let framing = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: nil).framing
            let byName = SpriteSheetFixture.frames.sorted { $0.name < $1.name }
            XCTAssertEqual(plans.count, byName.count, "\(layout)")
            var renderer = FrameRenderer()
            for (index, plan) in plans.enumerated() where index < byName.count {
                let pose = scene.sampler.sample(clip: clip, time: plan.layers[0].time)
                var bitmap = Bitmap(width: framing.width, height: framing.height)
                renderer.render(pose, library: scene.library, framing: framing, background: .transparent, into: &bitmap)
                let expected = SpriteSheetFixture.expectedFrame(byName[index])
                let comparison = BitmapComparison.compare(bitmap, expected, tolerance: 1)
                if !comparison.matches {
                    let path = comparison.writeArtifacts(
                        named: "sheet-\(layout.rawValue)-\(index)", actual: bitmap,
                        directory: NSTemporaryDirectory() + "keyframe-sheet-diffs",
                        encoder: { bitmap in
                            var encoder = PNGEncoder(options: .compact)
                            return try encoder.encode(bitmap)
                        })
                    XCTFail("\(layout) \(byName[index].name): \(comparison.summary); diff: \(path ?? "none")")
                }
            }
        }
    }
}
