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

    /// TextureAtlas Toolbox's parsers and frame builder (Python; `KEYFRAME_ORACLE_TOOLBOX` names its `src` folder,
    /// fetched from MeguminBOT/TextureAtlas-to-GIF-and-Frames into a temporary folder, never committed) cut every
    /// frame of the Sparrow and JSON layouts out of the atlas; each equals Keyframe's rendered frame. The toolbox
    /// reads a rotated JSON frame's `w × h` as the stored region, where PixiJS and TexturePacker store `h × w`:
    /// those frames are counted, not compared (docs/format.md §6.5).
    func testToolboxOracleCutsTheSameFrames() throws {
        guard let toolbox = ProcessInfo.processInfo.environment["KEYFRAME_ORACLE_TOOLBOX"] else {
            throw XCTSkip("KEYFRAME_ORACLE_TOOLBOX is not set (the src folder of MeguminBOT/TextureAtlas-to-GIF-and-Frames)")
        }
        let driver = TestPaths.packageRoot.appendingPathComponent("Scripts/sheet-oracle-toolbox.py").path
        var compared = 0, rotatedJSON = 0
        for layout in SpriteSheetFixture.Layout.allCases {
            let folder = try SpriteSheetFixture.write(layout)
            addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
            let out = folder.appendingPathComponent("oracle")
            let run = try CommandRun.run(["python3", driver, toolbox,
                                          folder.appendingPathComponent(SpriteSheetFixture.dataFile(layout)).path,
                                          folder.appendingPathComponent(SpriteSheetFixture.imageFile(layout)).path, out.path])
            XCTAssertEqual(run.status, 0, run.output)
            guard run.status == 0 else { continue }
            let listing = try XCTUnwrap(try JSONSerialization.jsonObject(
                with: Data(contentsOf: out.appendingPathComponent("frames.json"))) as? [[String: Any]])
            XCTAssertEqual(listing.count, SpriteSheetFixture.frames.count, "\(layout)")
            let document = try Importer.importDocument(at: folder, options: ImportOptions(sheetAnimations: .single))
            let scene = RenderScene(document: document, library: try AtlasLibrary(document: document, folder: folder))
            let clip = try XCTUnwrap(document.clips.first)
            let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                            fps: document.frameRate.framesPerSecond, selection: .all)
            let framing = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: nil).framing
            let names = SpriteSheetFixture.frames.map(\.name).sorted()
            var renderer = FrameRenderer()
            for (index, entry) in listing.enumerated() {
                let name = try XCTUnwrap(entry["name"] as? String)
                if layout != .sparrow, entry["rotated"] as? Bool == true {
                    rotatedJSON += 1
                    continue
                }
                let position = try XCTUnwrap(names.firstIndex(of: name))
                let pose = scene.sampler.sample(clip: clip, time: plans[position].layers[0].time)
                var bitmap = Bitmap(width: framing.width, height: framing.height)
                renderer.render(pose, library: scene.library, framing: framing, background: .transparent, into: &bitmap)
                let oracle = try PNGDecoder().decode(contentsOf: out.appendingPathComponent("\(index).png").path)
                let comparison = BitmapComparison.compare(bitmap, oracle, tolerance: 1)
                XCTAssertTrue(comparison.matches, "\(layout) \(name): \(comparison.summary)")
                compared += 1
            }
        }
        print("SpriteSheetRenderTests: toolbox oracle: \(compared) frames equal, \(rotatedJSON) rotated JSON frames not compared")
        XCTAssertEqual(compared, SpriteSheetFixture.frames.count * 3 - rotatedJSON)
    }
}
