import Foundation
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// Renders the real Animate exports in ../shared/corpus/animate_atlas and checks placements against the raw files.
final class CorpusRenderTests: XCTestCase {
    /// Every frame of every clip of every Animate corpus export renders, and every clip shows something.
    ///
    /// Frames are scaled to fit 256 × 256 so the test stays quick; sampling and drawing are the same code paths
    /// as at full size.
    func testEveryAnimateExportRendersEveryFrameOfEveryClip() throws {
        let exports = try TestPaths.corpus("animate_atlas")
        var frameTotal = 0
        for export in exports {
            let name = export.lastPathComponent
            let document = try Importer.importDocument(at: export)
            let scene = try RenderScene(document: document, assetsFolder: try Importer.detect(export).folder)
            XCTAssertFalse(document.clips.isEmpty, "\(name): no clips")
            for clip in document.clips {
                let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                                fps: document.frameRate.framesPerSecond, selection: .all)
                XCTAssertEqual(plans.count, Int(clip.duration.value.rounded(.up)), "\(name)/\(clip.name)")
                let (natural, _) = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: nil)
                let scale = min(1, 256 / Double(max(natural.width, natural.height)))
                let size = (max(1, Int(Double(natural.width) * scale)), max(1, Int(Double(natural.height) * scale)))
                let (framing, _) = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: size)
                let results = try BatchRenderer(scenes: [scene], framing: framing, jobs: 2, thumbnailSide: 256)
                    .run(plans, into: nil, fileName: { _ in "" })
                XCTAssertEqual(results.count, plans.count)
                let visible = Self.hasInk(results)
                XCTAssertTrue(visible, "\(name)/\(clip.name): every frame is empty")
                frameTotal += results.count
            }
        }
        print("CorpusRenderTests: rendered \(frameTotal) frames of \(exports.count) exports")
    }

    /// Every DragonBones corpus export (meshes, skinning, IK, nested armatures, 2.3/3.0 up-conversion, `.dbbin`)
    /// renders every armature's every animation — first, middle and last frame — and each shows something.
    func testEveryDragonBonesExportRendersEveryClip() throws {
        try renderSpotFrames(of: try TestPaths.corpus("dragonbones"))
    }

    /// Every Flump corpus export, JSON and XML, renders every movie and label clip — first, middle and last frame.
    func testEveryFlumpExportRendersEveryClip() throws {
        try renderSpotFrames(of: try TestPaths.corpus("flump") + (try TestPaths.corpus("flump_xml")))
    }

    private func renderSpotFrames(of exports: [URL]) throws {
        XCTAssertFalse(exports.isEmpty)
        var clips = 0
        for export in exports {
            let name = export.lastPathComponent
            let document = try Importer.importDocument(at: export)
            let scene = try RenderScene(document: document, assetsFolder: try Importer.detect(export).folder)
            XCTAssertFalse(document.clips.isEmpty, "\(name): no clips")
            for clip in document.clips {
                let all = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                              fps: document.frameRate.framesPerSecond, selection: .all)
                let plans = Array(Set([0, all.count / 2, all.count - 1])).sorted().map { all[$0] }
                let (framing, _) = try Framing.make(plans: plans, scenes: [scene], fit: .content, size: (128, 128))
                let results = try BatchRenderer(scenes: [scene], framing: framing, jobs: 2, thumbnailSide: 128)
                    .run(plans, into: nil, fileName: { _ in "" })
                let visible = Self.hasInk(results)
                // Some clips fade everything out (DragonBones `loading/hide` sets every slot's alpha to 0): ink is
                // expected exactly when some sampled item is not fully transparent.
                let inked = plans.contains { plan in
                    scene.sampler.sample(clip: clip, time: plan.layers[0].time).items.contains {
                        $0.color.alphaMultiplier > 0 || $0.color.alphaOffset > 0
                    }
                }
                XCTAssertEqual(visible, inked, "\(name)/\(clip.name) at frames \(plans.map(\.number)): drawn \(visible), "
                               + "items with alpha \(inked)")
                clips += 1
            }
        }
        print("CorpusRenderTests: rendered \(clips) clips of \(exports.count) exports")
    }

    /// Starling's 2018 sample places sprites at the root: an `ATLAS_SPRITE_instance` at `Position`, and
    /// `SYMBOL_Instance`s with a `bitmap` drawn at `Matrix3D × T(bitmap.Position)` (one of them turned 90°).
    /// The test reads those numbers and the spritemap itself, predicts where a few atlas pixels must land, and
    /// compares the rendered frame there.
    func testStarlingSpritesLandWhereTheRawMatricesSay() throws {
        let export = try XCTUnwrap(try TestPaths.corpus("animate_atlas")
            .first { $0.lastPathComponent == "starling-simple-animation-2018" })
        let animation = try jsonObject(export.appendingPathComponent("Animation.json"))
        let spritemap = try jsonObject(export.appendingPathComponent("spritemap.json"))
        var regions: [String: (x: Int, y: Int, w: Int, h: Int)] = [:]
        for entry in try XCTUnwrap((spritemap["ATLAS"] as? [String: Any])?["SPRITES"] as? [[String: Any]]) {
            let s = try XCTUnwrap(entry["SPRITE"] as? [String: Any])
            XCTAssertEqual(s["rotated"] as? Bool, false)
            regions[s["name"] as! String] = ((s["x"] as! NSNumber).intValue, (s["y"] as! NSNumber).intValue,
                                             (s["w"] as! NSNumber).intValue, (s["h"] as! NSNumber).intValue)
        }
        let atlas = try PNGDecoder().decode(contentsOf: export.appendingPathComponent("spritemap.png").path)

        // (sprite, a, b, c, d, tx, ty) for each placement on the top layer's first frame.
        var placements: [(String, [Double])] = []
        let layers = try XCTUnwrap(((animation["ANIMATION"] as? [String: Any])?["TIMELINE"] as? [String: Any])?["LAYERS"]
            as? [[String: Any]])
        let elements = try XCTUnwrap(((layers[0]["Frames"] as? [[String: Any]])?.first)?["elements"] as? [[String: Any]])
        func number(_ any: Any?) -> Double { (any as? NSNumber)?.doubleValue ?? 0 }
        for element in elements {
            if let asi = element["ATLAS_SPRITE_instance"] as? [String: Any] {
                let position = asi["Position"] as? [String: Any] ?? [:]
                placements.append((asi["name"] as! String, [1, 0, 0, 1, number(position["x"]), number(position["y"])]))
            } else if let si = element["SYMBOL_Instance"] as? [String: Any], let bitmap = si["bitmap"] as? [String: Any],
                let m = si["Matrix3D"] as? [String: Any], let position = bitmap["Position"] as? [String: Any]
            {
                let (a, b, c, d) = (number(m["m00"]), number(m["m01"]), number(m["m10"]), number(m["m11"]))
                let (px, py) = (number(position["x"]), number(position["y"]))
                placements.append((bitmap["name"] as! String,
                                   [a, b, c, d, a * px + c * py + number(m["m30"]), b * px + d * py + number(m["m31"])]))
            }
        }
        XCTAssertGreaterThanOrEqual(placements.count, 3)

        let document = try Importer.importDocument(at: export)
        let scene = try RenderScene(document: document, assetsFolder: export)
        let clip = try XCTUnwrap(document.clips.first)
        let plan = try FramePlan.plans(for: clip, documentRate: document.frameRate, fps: 24, selection: .range(0...0))
        // A scene rectangle with an integer origin, so root (x, y) is pixel (x − originX, y − originY).
        let origin = (x: -400.0, y: -400.0)
        let framing = Framing(scene: Rect(x: origin.x, y: origin.y, width: 900, height: 800), size: nil)
        var renderer = FrameRenderer()
        var frame = Bitmap(width: 0, height: 0)
        renderer.render(plan[0], scenes: [scene], framing: framing, background: .transparent, into: &frame)

        var checked = 0
        for (sprite, m) in placements {
            let region = try XCTUnwrap(regions[sprite], "sprite \(sprite) is not in the spritemap")
            for fy in stride(from: 0.2, through: 0.8, by: 0.2) {
                for fx in stride(from: 0.2, through: 0.8, by: 0.2) {
                    let (u, v) = (Int(fx * Double(region.w)), Int(fy * Double(region.h)))
                    // Only probe atlas pixels inside a uniform, opaque 3×3 neighbourhood, where sampling between
                    // texels cannot change the colour.
                    let texel = atlas.pixel(x: region.x + u, y: region.y + v)
                    guard texel.a == 255, u > 0, v > 0, u < region.w - 1, v < region.h - 1 else { continue }
                    var uniform = true
                    for dy in -1...1 { for dx in -1...1 {
                        if atlas.pixel(x: region.x + u + dx, y: region.y + v + dy) != texel { uniform = false }
                    } }
                    guard uniform else { continue }
                    let cx = Double(u) + 0.5, cy = Double(v) + 0.5
                    let rootX = m[0] * cx + m[2] * cy + m[4], rootY = m[1] * cx + m[3] * cy + m[5]
                    let px = Int((rootX - origin.x).rounded(.down)), py = Int((rootY - origin.y).rounded(.down))
                    let got = frame.pixel(x: px, y: py)
                    let worst = max(abs(Int(got.r) - Int(texel.r)), abs(Int(got.g) - Int(texel.g)),
                                    abs(Int(got.b) - Int(texel.b)), abs(Int(got.a) - Int(texel.a)))
                    XCTAssertLessThanOrEqual(worst, 3, "\(sprite) texel (\(u), \(v)) → pixel (\(px), \(py)): \(got) vs \(texel)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 10, "too few uniform probes")
    }

    private func jsonObject(_ url: URL) throws -> [String: Any] {
        var data = try Data(contentsOf: url)
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data.removeFirst(3) }
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Whether any rendered thumbnail has a pixel that is not fully transparent.
    static func hasInk(_ results: [BatchRenderer.Result]) -> Bool {
        results.contains { result in
            guard let picture = result.thumbnail else { return false }
            return stride(from: 3, to: picture.pixels.count, by: 4).contains { picture.pixels[$0] != 0 }
        }
    }
}
