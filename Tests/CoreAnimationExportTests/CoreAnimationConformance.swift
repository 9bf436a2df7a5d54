import Foundation
import KeyframeEngine
import KeyframeExport
import KeyframeImport
import KeyframeJSON
import KeyframeModel
import XCTest

/// Compares what the Core Animation model shows from an exported file with what the engine's `PoseSampler` shows,
/// frame by frame: same sprites in the same order, every atlas-region corner within 0.01 px, opacity within 1e-4.
struct CoreAnimationConformance {
    static let cornerTolerance = 0.01
    static let opacityTolerance = 1e-4

    /// What one comparison covered and the worst differences it saw.
    struct Figures: CustomStringConvertible {
        var exports = 0
        var clips = 0
        var frames = 0
        var sprites = 0
        var meshItems = 0
        var meshTriangles = 0
        var flattenedTimelines = 0
        var maskShapes = 0
        var filterPictures = 0
        var maxCornerError = 0.0
        var maxOpacityError = 0.0
        var failures: [String] = []

        mutating func add(_ other: Figures) {
            exports += other.exports
            clips += other.clips
            frames += other.frames
            sprites += other.sprites
            meshItems += other.meshItems
            meshTriangles += other.meshTriangles
            flattenedTimelines += other.flattenedTimelines
            maskShapes += other.maskShapes
            filterPictures += other.filterPictures
            maxCornerError = max(maxCornerError, other.maxCornerError)
            maxOpacityError = max(maxOpacityError, other.maxOpacityError)
            failures += other.failures
        }

        var description: String {
            "\(exports) exports, \(clips) clips, \(frames) frames, \(sprites) sprites, \(meshItems) mesh items (\(meshTriangles) triangles) and "
                + "\(maskShapes) mask shapes compared (\(filterPictures) filter pictures), \(flattenedTimelines) nested timelines flattened; "
                + "max corner error \(maxCornerError) px, max opacity error \(maxOpacityError)"
        }
    }

    /// Imports `url`, exports every clip and compares every frame.
    static func check(_ url: URL, format: CALayerTreeFile.Format = .json) throws -> Figures {
        let document = try Importer.importDocument(at: url)
        let folder = try Importer.detect(url).folder
        var options = ExportOptions()
        options.coreAnimationFormat = format
        let result = try CoreAnimationExporter().export(document, assetsFolder: folder, options: options)
        var figures = Figures(exports: 1)
        figures.flattenedTimelines = result.diagnostics.filter { $0.code == "ca-timeline-flattened" }.map(\.count).reduce(0, +)
        let sampler = PoseSampler(document: document)
        for exported in result.clips {
            let tree = try CALayerTreeFile.decode(exported.main.bytes, source: exported.main.relativePath)
            let problems = CALayerTreeValidator.problems(in: tree)
            if !problems.isEmpty { figures.failures.append("\(url.lastPathComponent)/\(exported.clip): \(problems[0])") }
            // The exporter writes JSON straight from the specs (CALayerTreeJSON): the bytes must be the generic
            // writer's for the same tree, on one line (the default) and indented.
            if format == .json, exported.main.bytes != JSONWriter.writeCompact(tree.json) + [0x0A] {
                figures.failures.append("\(url.lastPathComponent)/\(exported.clip): the JSON differs from JSONWriter's for the same tree")
            }
            if format == .json, try CALayerTreeFile.encode(tree, as: .json, pretty: true) != JSONWriter.write(tree.json) {
                figures.failures.append("\(url.lastPathComponent)/\(exported.clip): the indented JSON differs from JSONWriter's for the same tree")
            }
            let clip = try XCTUnwrap(document.clip(named: exported.clip))
            figures.add(compare(tree, clip: clip, document: document, sampler: sampler,
                                name: "\(url.lastPathComponent)/\(clip.name)"))
        }
        return figures
    }

    /// Compares one exported clip at each of its frames.
    static func compare(_ tree: CALayerTreeDocument, clip: Clip, document: Document, sampler: PoseSampler,
                        name: String) -> Figures {
        var figures = Figures(clips: 1)
        let player = CALayerTreePlayer(document: tree)
        let fps = document.frameRate.framesPerSecond
        var sprites: [String: Sprite] = [:]
        for sprite in document.assets.sprites where sprites[sprite.id] == nil { sprites[sprite.id] = sprite }
        let images = Dictionary(tree.images.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let frames = Int(clip.duration.value.rounded(.up))
        for frame in 0..<frames {
            figures.frames += 1
            let pose = sampler.sample(clip: clip, time: Frames(Double(frame)))
            let items = Self.drawnItems(pose)
            figures.meshItems += items.filter { $0.mesh != nil }.count
            let drawn = player.draw(at: Double(frame) / fps)
            func fail(_ message: String) {
                if figures.failures.count < 20 { figures.failures.append("\(name) frame \(frame): \(message)") }
            }
            let expectedCount = items.reduce(0) { $0 + (meshTriangles($1)?.count ?? 1) }
            guard drawn.count == expectedCount else {
                fail("Core Animation draws \(drawn.count) layers, the sampler \(expectedCount) sprites and triangles: "
                     + "\(drawn.map(\.name)) vs \(items.map(\.sprite))")
                continue
            }
            var expected: [Pose.Item] = []
            var plain: [CALayerTreePlayer.DrawnLayer] = []
            var cursor = 0
            for item in items {
                guard let triangles = meshTriangles(item) else {
                    expected.append(item)
                    plain.append(drawn[cursor])
                    cursor += 1
                    continue
                }
                // A mesh: one triangle layer per triangle, each masked by its triangle.
                for (t, vertices) in triangles.enumerated() {
                    let layer = drawn[cursor + t]
                    guard layer.name == item.sprite, let sprite = sprites[item.sprite], let image = images[layer.image],
                        let mesh = item.mesh
                    else {
                        fail("draws \(layer.name) where the sampler draws a triangle of \(item.sprite)")
                        continue
                    }
                    figures.meshTriangles += 1
                    let error = vertexError(layer, vertices: vertices, mesh: mesh, sprite: sprite, image: image)
                    figures.maxCornerError = max(figures.maxCornerError, error)
                    if !(error <= cornerTolerance) { fail("\(item.path) triangle \(t) vertex off by \(error) px") }
                    if layer.masks.last?.first?.shape == nil { fail("\(item.path) triangle \(t) has no triangle mask") }
                    let opacityError = abs(layer.opacity - item.color.alphaMultiplier)
                    figures.maxOpacityError = max(figures.maxOpacityError, opacityError)
                    if !(opacityError <= opacityTolerance) { fail("\(item.path) triangle \(t) opacity \(layer.opacity)") }
                }
                cursor += triangles.count
            }
            for (layer, item) in zip(plain, expected) {
                figures.sprites += 1
                if item.sprite.hasPrefix(Self.filtered) {
                    // A filtered node's picture: in the node's layer, on whole document pixels, with the node's alpha.
                    let m = layer.transform
                    let node = String(layer.name.dropFirst(Self.filtered.count))
                    if !layer.name.hasPrefix(Self.filtered) || !item.path.hasSuffix("/" + node) {
                        fail("draws \(layer.name) where the sampler draws the filtered \(item.path)")
                    } else {
                        // Every corner within the corner tolerance of the whole-pixel place (the timelines' lead of
                        // 10⁻⁶ frame moves the node layer a little ahead, as it does sprites).
                        let (w, h) = (layer.bounds[2], layer.bounds[3])
                        let (x, y) = (m.tx.rounded(), m.ty.rounded())
                        var error = 0.0
                        for (u, v) in [(0.0, 0.0), (w, 0), (0, h), (w, h)] {
                            let p = m.apply(Vector2(x: u, y: v))
                            error = max(error, hypot(p.x - (u + x), p.y - (v + y)))
                        }
                        figures.maxCornerError = max(figures.maxCornerError, error)
                        if !(error <= cornerTolerance) {
                            fail("the picture of \(item.path) is not on whole document pixels: \(m)")
                        }
                    }
                    figures.filterPictures += 1
                    let expectedOpacity = min(max(item.color.alphaMultiplier, 0), 1)
                    if !(abs(layer.opacity - expectedOpacity) <= opacityTolerance) {
                        fail("\(item.path) picture opacity \(layer.opacity), sampler \(expectedOpacity)")
                    }
                    if layer.masks.count != item.masks.count {
                        fail("the picture of \(item.path) has \(layer.masks.count) masks, the sampler \(item.masks.count)")
                    }
                    continue
                }
                guard layer.name == item.sprite, let sprite = sprites[item.sprite], let image = images[layer.image],
                    image.sprite == nil || image.sprite == item.sprite
                else {
                    fail("draws \(layer.name) where the sampler draws \(item.sprite)")
                    continue
                }
                let error = cornerError(layer, item: item, sprite: sprite, image: image)
                figures.maxCornerError = max(figures.maxCornerError, error)
                if !(error <= cornerTolerance) { fail("\(item.sprite) (\(item.path)) corner off by \(error) px") }
                // Masks: the same shapes, placed the same, for each mask that limits the item.
                let expectedMasks = item.masks.map { pose.masks.indices.contains($0) ? pose.masks[$0].filter { $0.mesh == nil } : [] }
                if expectedMasks.count != layer.masks.count {
                    fail("\(item.sprite) has \(layer.masks.count) masks, the sampler \(expectedMasks.count)")
                } else {
                    for (shapes, expectedShapes) in zip(layer.masks, expectedMasks) {
                        guard shapes.count == expectedShapes.count else {
                            fail("\(item.sprite)'s mask has \(shapes.count) shapes, the sampler's \(expectedShapes.count)")
                            continue
                        }
                        for (shape, expectedShape) in zip(shapes, expectedShapes) {
                            guard shape.name == expectedShape.sprite, let maskSprite = sprites[shape.name],
                                let maskImage = images[shape.image]
                            else {
                                fail("mask shape \(shape.name) where the sampler has \(expectedShape.sprite)")
                                continue
                            }
                            figures.maskShapes += 1
                            let error = cornerError(shape, item: expectedShape, sprite: maskSprite, image: maskImage)
                            figures.maxCornerError = max(figures.maxCornerError, error)
                            if !(error <= cornerTolerance) { fail("mask shape \(shape.name) corner off by \(error) px") }
                        }
                    }
                }
                let opacityError = abs(layer.opacity - item.color.alphaMultiplier)
                figures.maxOpacityError = max(figures.maxOpacityError, opacityError)
                if !(opacityError <= opacityTolerance) {
                    fail("\(item.sprite) opacity \(layer.opacity), sampler \(item.color.alphaMultiplier)")
                }
            }
        }
        return figures
    }

    /// A mesh item's triangles that have area in texture space (vertex indices), or `nil` for a plain sprite.
    static func meshTriangles(_ item: Pose.Item) -> [[Int]]? {
        guard let mesh = item.mesh else { return nil }
        var result: [[Int]] = []
        for t in 0..<(mesh.triangles.count / 3) {
            let v = [mesh.triangles[3 * t], mesh.triangles[3 * t + 1], mesh.triangles[3 * t + 2]]
            guard v.allSatisfy(mesh.uvs.indices.contains) else { continue }
            let (a, b, c) = (mesh.uvs[v[0]], mesh.uvs[v[1]], mesh.uvs[v[2]])
            if abs((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) > 1e-12 { result.append(v) }
        }
        return result
    }

    /// The largest distance between where Core Animation puts a triangle's texture corners (upright point → atlas
    /// point by the model's definition of a sprite → bounds point through `contentsRect` → root) and the pose's
    /// vertices.
    static func vertexError(_ layer: CALayerTreePlayer.DrawnLayer, vertices: [Int], mesh: Pose.Mesh, sprite: Sprite,
                            image: CALayerTreeDocument.Image) -> Double {
        let (bw, bh) = (layer.bounds[2], layer.bounds[3])
        let r = layer.contentsRect
        let region = sprite.region
        let resolution = region.width / (sprite.rotated ? sprite.size.height : sprite.size.width)
        var worst = 0.0
        for v in vertices {
            let u = mesh.uvs[v].x * sprite.size.width, w = mesh.uvs[v].y * sprite.size.height
            let ax = sprite.rotated ? region.x + region.width - w * resolution : region.x + u * resolution
            let ay = sprite.rotated ? region.y + u * resolution : region.y + w * resolution
            let bx = layer.bounds[0] + (ax / image.pixelWidth - r[0]) / r[2] * bw
            let by = layer.bounds[1] + (ay / image.pixelHeight - r[1]) / r[3] * bh
            let ca = layer.transform.apply(Vector2(x: bx, y: by))
            let p = mesh.positions[v]
            worst = max(worst, ((ca.x - p.x) * (ca.x - p.x) + (ca.y - p.y) * (ca.y - p.y)).squareRoot())
        }
        return worst
    }

    /// The sprite name ``drawnItems(_:)`` gives a filtered node's picture (followed by the node's path).
    static let filtered = "filtered:"

    /// The items the layer tree draws for `pose`: every item outside filter groups, and for each outermost filter
    /// group (a filtered node's content, drawn into pictures) one item named ``filtered`` with the node's path, its
    /// colour and masks.
    static func drawnItems(_ pose: Pose) -> [Pose.Item] {
        var items: [Pose.Item] = []
        var index = 0
        for part in outermostGroups(pose) {
            items += pose.items[index..<part.items.lowerBound]
            let group = pose.filterGroups[part.group]
            items.append(Pose.Item(sprite: filtered + group.path, transform: .identity, color: group.color,
                                   blendMode: group.blendMode, masks: group.masks, path: group.path))
            index = part.items.upperBound
        }
        items += pose.items[index...]
        return items
    }

    /// The outermost groups of `pose` that have filters, with their items (consecutive), in order (a group without
    /// filters, a symbol blended as one picture, is not drawn into a picture by the export).
    static func outermostGroups(_ pose: Pose) -> [(items: Range<Int>, group: Int)] {
        var parts: [(items: Range<Int>, group: Int)] = []
        for (index, item) in pose.items.enumerated() {
            var filtered: Int? = nil
            var current = item.inGroup?.group
            while let g = current {
                if !pose.filterGroups[g].filters.isEmpty { filtered = g }
                current = pose.filterGroups[g].parent
            }
            guard let group = filtered else { continue }
            if let last = parts.last, last.group == group, last.items.upperBound == index {
                parts[parts.count - 1].items = last.items.lowerBound..<(index + 1)
            } else {
                parts.append((index..<(index + 1), group))
            }
        }
        return parts
    }

    /// The largest distance between where Core Animation and the sampler put each corner of the sprite's atlas
    /// region. Core Animation's side goes through `contentsRect` (bounds corner → atlas point); the sampler's
    /// through the model's definition of a sprite (upright point → atlas point, rotated regions turned back).
    static func cornerError(_ layer: CALayerTreePlayer.DrawnLayer, item: Pose.Item, sprite: Sprite,
                            image: CALayerTreeDocument.Image) -> Double {
        let (bw, bh) = (layer.bounds[2], layer.bounds[3])
        let r = layer.contentsRect
        let region = sprite.region
        let resolution = region.width / (sprite.rotated ? sprite.size.height : sprite.size.width)
        var worst = 0.0
        for (p, q) in [(0.0, 0.0), (bw, 0), (bw, bh), (0, bh)] {
            let bx = layer.bounds[0] + p, by = layer.bounds[1] + q
            let ax = (r[0] + r[2] * (bw > 0 ? p / bw : 0)) * image.pixelWidth
            let ay = (r[1] + r[3] * (bh > 0 ? q / bh : 0)) * image.pixelHeight
            let u: Double, v: Double
            if image.sprite != nil {
                // A baked copy is the upright picture at the atlas's resolution.
                u = (r[0] + r[2] * (bw > 0 ? p / bw : 0)) * image.pixelWidth / resolution
                v = (r[1] + r[3] * (bh > 0 ? q / bh : 0)) * image.pixelHeight / resolution
            } else if sprite.rotated {
                u = (ay - region.y) / resolution
                v = (region.x + region.width - ax) / resolution
            } else {
                u = (ax - region.x) / resolution
                v = (ay - region.y) / resolution
            }
            let ca = layer.transform.apply(Vector2(x: bx, y: by))
            let expected = item.transform.apply(Vector2(x: u, y: v))
            worst = max(worst, ((ca.x - expected.x) * (ca.x - expected.x) + (ca.y - expected.y) * (ca.y - expected.y)).squareRoot())
        }
        return worst
    }
}
