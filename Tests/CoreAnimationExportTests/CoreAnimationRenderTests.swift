import Foundation
import KeyframeEngine
import KeyframeExport
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// Draws what the Core Animation model shows from each exported sample clip (every layer with contents: its image
/// region through `contentsRect`, its bounds, its world transform and opacity) with the raster renderer, and
/// compares every frame with what `keyframe render` draws for the same clip (FramePlan → FrameRenderer), within
/// 1/255 per channel. Clips whose export reported a warning (a tint or blend mode Core Animation cannot show) are
/// drawn too and their differing frames counted; the test requires that every clip without a warning is identical.
/// Meshes are triangle layers, each masked by a shape layer, which `keyframe render` draws as one seamless mesh:
/// frames showing a mesh are held instead to the Lottie players' criterion (every channel's mean ≤ 1/255, ≤ 2 % of
/// pixels off by > 8/255) on the whole frame and, within the meshes' bounding box, mean ≤ 4/255 and ≤ 5 % off — the
/// triangles' pushed-out edges overlap by about a pixel, where a half-transparent texel is drawn twice.
final class CoreAnimationRenderTests: XCTestCase {
    func testLayerTreesRenderLikeKeyframeRender() throws {
        var identical = 0, differing = 0, checkedFrames = 0
        var lines: [String] = []
        for name in CoreAnimationConformanceTests.samples {
            let url = TestPaths.packageRoot.appendingPathComponent("Samples/\(name)")
            let document = try Importer.importDocument(at: url)
            let folder = try Importer.detect(url).folder
            let scene = try RenderScene(document: document, assetsFolder: folder)
            let result = try CoreAnimationExporter().export(document, assetsFolder: folder, options: ExportOptions())
            for exported in result.clips {
                // The layers' images as the app gets them: the atlases and any baked tinted copies.
                let tree = try CALayerTreeFile.decode(exported.main.bytes)
                let (drawDocument, library) = try Self.library(for: tree, exported: exported, document: document,
                                                               assetsFolder: folder)
                let clip = try XCTUnwrap(document.clip(named: exported.clip))
                let warned = result.diagnostics.contains {
                    $0.severity == .warning && $0.message.contains("clip \"\(clip.name)\"")
                }
                let player = CALayerTreePlayer(document: tree)
                let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                                fps: document.frameRate.framesPerSecond, selection: .all)
                let (framing, _) = try Framing.make(plans: plans, scenes: [scene], fit: .content, size: nil)
                var renderer = FrameRenderer()
                var worst = 0, bad = 0, meshFrames = 0
                var meshWorst = (0.0, 0.0, 0.0, 0.0)
                for (index, plan) in plans.enumerated() {
                    var expected = Bitmap(width: 1, height: 1)
                    renderer.render(plan, scenes: [scene], framing: framing, background: .transparent, into: &expected)
                    let drawn = player.draw(at: Double(index) / document.frameRate.framesPerSecond)
                    let pose = try Self.pose(of: drawn, tree: tree, document: drawDocument)
                    var actual = Bitmap(width: 1, height: 1)
                    renderer.render(pose, library: library, framing: framing, background: .transparent, into: &actual)
                    let comparison = BitmapComparison.compare(actual, expected, tolerance: 1)
                    worst = max(worst, comparison.maxDifference)
                    checkedFrames += 1
                    let meshes = scene.sampler.sample(clip: clip, time: plan.layers[0].time).items.compactMap(\.mesh)
                    if !meshes.isEmpty {
                        meshFrames += 1
                        let whole = Self.difference(actual, expected, in: nil)
                        let region = Self.meshRegion(meshes, framing: framing)
                        let local = Self.difference(actual, expected, in: region)
                        meshWorst = (max(meshWorst.0, whole.mean), max(meshWorst.1, whole.off),
                                     max(meshWorst.2, local.mean), max(meshWorst.3, local.off))
                        if !(whole.mean <= 1 && whole.off <= 0.02 && local.mean <= 4 && local.off <= 0.05) && !warned {
                            XCTFail(String(format: "%@/%@ frame %d (meshes): whole frame %.3f / %.2f %%, mesh region %.3f / %.2f %%",
                                           name, clip.name, index, whole.mean, whole.off * 100, local.mean, local.off * 100))
                        }
                        if !comparison.matches { bad += 1 }
                        continue
                    }
                    if !comparison.matches {
                        bad += 1
                        if !warned {
                            var encoder = PNGEncoder()
                            let path = comparison.writeArtifacts(
                                named: "ca-\(name)-\(clip.name)-\(index)", actual: actual,
                                directory: NSTemporaryDirectory() + "keyframe-ca-render",
                                encoder: { try encoder.encode($0) })
                            XCTFail("\(name)/\(clip.name) frame \(index): \(comparison.summary); diff: \(path ?? "-")")
                        }
                    }
                }
                if bad == 0 { identical += 1 } else { differing += 1 }
                lines.append("\(name)/\(clip.name): \(plans.count) frames, \(bad) differ (max \(worst)/255)"
                             + (warned ? " [export warned]" : "")
                             + (meshFrames == 0 ? "" : String(
                                format: "; %d frames with meshes: worst whole-frame channel mean %.3f, %.2f %% off > 8; mesh region %.3f, %.2f %%",
                                meshFrames, meshWorst.0, meshWorst.1 * 100, meshWorst.2, meshWorst.3 * 100)))
            }
        }
        print("CoreAnimationRender: \(checkedFrames) frames; clips identical \(identical), with differences \(differing)\n"
              + lines.joined(separator: "\n"))
        XCTAssertGreaterThan(identical, 0)
    }

    /// The document and atlas library to draw a tree's layers with: the document's atlases plus, for each baked
    /// image, a sprite covering it whole (upright, at the source atlas's resolution, the source sprite's origin).
    static func library(for tree: CALayerTreeDocument, exported: ExportedClip, document: Document,
                        assetsFolder: URL) throws -> (Document, AtlasLibrary) {
        var drawDocument = document
        var bitmaps: [String: Bitmap] = [:]
        for image in document.assets.images {
            bitmaps[image.id] = try PNGDecoder().decode([UInt8](Data(contentsOf: assetsFolder.appendingPathComponent(image.path))))
        }
        for image in tree.images where image.sprite == nil && !document.assets.images.contains(where: { $0.id == image.id }) {
            // A filtered node's picture: one device pixel per document pixel, drawn whole at its layer's place.
            let bytes = try XCTUnwrap(exported.companions.first { $0.relativePath == image.path }?.bytes, image.path)
            bitmaps[image.id] = try PNGDecoder().decode(bytes)
            let size = Size(width: image.pixelWidth, height: image.pixelHeight)
            drawDocument.assets.images.append(AtlasImage(id: image.id, path: image.path, pixelSize: size,
                                                         resolution: 1))
            drawDocument.assets.sprites.append(Sprite(
                id: image.id, name: image.id, image: image.id,
                region: Rect(x: 0, y: 0, width: image.pixelWidth, height: image.pixelHeight), rotated: false,
                origin: Vector2(x: 0, y: 0), size: size))
        }
        for image in tree.images {
            guard let spriteID = image.sprite else { continue }
            let source = try XCTUnwrap(document.assets.sprites.first { $0.id == spriteID })
            let atlas = try XCTUnwrap(document.assets.images.first { $0.id == source.image })
            let bytes = try XCTUnwrap(exported.companions.first { $0.relativePath == image.path }?.bytes, image.path)
            bitmaps[image.id] = try PNGDecoder().decode(bytes)
            drawDocument.assets.images.append(AtlasImage(id: image.id, path: image.path,
                                                         pixelSize: Size(width: image.pixelWidth, height: image.pixelHeight),
                                                         resolution: atlas.resolution))
            drawDocument.assets.sprites.append(Sprite(
                id: image.id, name: image.id, image: image.id,
                region: Rect(x: 0, y: 0, width: image.pixelWidth, height: image.pixelHeight), rotated: false,
                origin: source.origin, size: source.size))
        }
        return (drawDocument, AtlasLibrary(document: drawDocument, bitmaps: bitmaps))
    }

    /// The worst channel's mean absolute difference (0–255) and the share of pixels whose largest channel differs
    /// by more than 8/255, over `region` (the whole frame when `nil`).
    static func difference(_ a: Bitmap, _ b: Bitmap, in region: PixelRect?) -> (mean: Double, off: Double) {
        let r = (region ?? a.bounds).intersection(a.bounds)
        guard !r.isEmpty, a.width == b.width, a.height == b.height else { return (255, 1) }
        var sums = [0, 0, 0, 0]
        var off = 0
        for y in r.y..<(r.y + r.height) {
            for x in r.x..<(r.x + r.width) {
                var largest = 0
                for c in 0..<4 {
                    let i = (y * a.width + x) * 4 + c
                    let d = abs(Int(a.pixels[i]) - Int(b.pixels[i]))
                    sums[c] += d
                    largest = max(largest, d)
                }
                if largest > 8 { off += 1 }
            }
        }
        let count = Double(r.width * r.height)
        return (Double(sums.max()!) / count, Double(off) / count)
    }

    /// The device bounding box of the meshes, 2 px around.
    static func meshRegion(_ meshes: [Pose.Mesh], framing: Framing) -> PixelRect? {
        let view = framing.rootToDevice
        var box: (Double, Double, Double, Double)? = nil
        for p in meshes.flatMap(\.positions) where p.x.isFinite && p.y.isFinite {
            let x = view.a * p.x + view.c * p.y + view.tx, y = view.b * p.x + view.d * p.y + view.ty
            box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
        }
        guard let box else { return nil }
        let x0 = Int((box.0 - 2).rounded(.down)), y0 = Int((box.1 - 2).rounded(.down))
        return PixelRect(x: x0, y: y0, width: Int((box.2 + 2).rounded(.up)) - x0, height: Int((box.3 + 2).rounded(.up)) - y0)
    }

    /// A picture clipped by a shape layer's convex polygon, as the renderer's mesh item: the polygon cut into a fan
    /// of triangles, placed where the shape layer puts it, textured where the picture's layer maps those points.
    static func clipped(_ item: Pose.Item, by polygon: [Double], shape: CALayerTreePlayer.DrawnLayer,
                        document: Document) throws -> Pose.Item? {
        let sprite = try XCTUnwrap(document.assets.sprites.first { $0.id == item.sprite })
        guard let toPicture = item.transform.inverted else { return nil }
        let points = stride(from: 0, to: polygon.count - 1, by: 2).map {
            shape.transform.apply(Vector2(x: polygon[$0], y: polygon[$0 + 1]))
        }
        let uvs = points.map { p -> Vector2 in
            let q = toPicture.apply(p)
            return Vector2(x: q.x / sprite.size.width, y: q.y / sprite.size.height)
        }
        var triangles: [Int] = []
        for i in 1..<max(points.count - 1, 1) { triangles += [0, i, i + 1] }
        var clipped = item
        clipped.mesh = Pose.Mesh(positions: points, uvs: uvs, triangles: triangles)
        return clipped
    }

    /// What the model's drawn layers show, as a pose the renderer draws: each layer's picture, a mesh triangle clipped
    /// by its shape-layer mask, and the other masks as mask items.
    static func pose(of drawn: [CALayerTreePlayer.DrawnLayer], tree: CALayerTreeDocument, document: Document) throws
        -> Pose
    {
        var pose = Pose()
        for layer in drawn {
            var item = try item(layer, tree: tree, document: document)
            var masks = layer.masks
            if let last = masks.last, last.count == 1, let polygon = last[0].shape {
                // A mesh triangle: the picture clipped by its shape-layer mask. A triangle placed with no area draws
                // nothing.
                guard let triangle = try clipped(item, by: polygon, shape: last[0], document: document) else { continue }
                item = triangle
                masks.removeLast()
            }
            for shapes in masks {
                pose.masks.append(try shapes.map { try Self.item($0, tree: tree, document: document) })
                item.masks.append(pose.masks.count - 1)
            }
            pose.items.append(item)
        }
        return pose
    }

    /// The renderer's item for a drawn layer: the sprite named by the layer, placed by mapping the sprite's upright
    /// picture onto the layer's bounds through `contentsRect` (so a wrong rectangle or rotation shows in pixels).
    static func item(_ layer: CALayerTreePlayer.DrawnLayer, tree: CALayerTreeDocument, document: Document) throws -> Pose.Item {
        let image = try XCTUnwrap(tree.images.first { $0.id == layer.image })
        // A baked copy is drawn as the sprite `library(for:…)` made of it.
        let spriteID = image.sprite != nil || layer.name.hasPrefix(CoreAnimationConformance.filtered) ? image.id
            : layer.name
        let sprite = try XCTUnwrap(document.assets.sprites.first { $0.id == spriteID }, "no sprite \(spriteID)")
        let r = layer.contentsRect, region = sprite.region
        let resolution = region.width / (sprite.rotated ? sprite.size.height : sprite.size.width)
        // Upright point → atlas pixel (the model's definition of a sprite) → bounds point (inverse contentsRect).
        func bounds(u: Double, v: Double) -> Vector2 {
            let ax = sprite.rotated ? region.x + region.width - v * resolution : region.x + u * resolution
            let ay = sprite.rotated ? region.y + u * resolution : region.y + v * resolution
            let p = (ax / image.pixelWidth - r[0]) / r[2] * layer.bounds[2] + layer.bounds[0]
            let q = (ay / image.pixelHeight - r[1]) / r[3] * layer.bounds[3] + layer.bounds[1]
            return Vector2(x: p, y: q)
        }
        let o = bounds(u: 0, v: 0), x = bounds(u: 1, v: 0), y = bounds(u: 0, v: 1)
        let uprightToBounds = Matrix2D(a: x.x - o.x, b: x.y - o.y, c: y.x - o.x, d: y.y - o.y, tx: o.x, ty: o.y)
        return Pose.Item(sprite: sprite.id, transform: layer.transform.concatenating(uprightToBounds),
                         color: ColorTransform(alphaMultiplier: layer.opacity), blendMode: .normal, masks: [],
                         path: layer.path)
    }
}
