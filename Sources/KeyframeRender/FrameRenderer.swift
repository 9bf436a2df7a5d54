import KeyframeEngine
import KeyframeModel
import KeyframeRaster

/// Draws poses into bitmaps: sprites and meshes back to front, with colour transforms, blend modes and masks.
///
/// A renderer owns its rasterizer and offscreen layers and reuses them from frame to frame; keep one per worker.
///
/// Masked items are drawn into an offscreen layer, which is multiplied by the coverage of each of their mask
/// shapes and then composited. Consecutive items with the same masks share one layer, as in Flash, where a mask
/// layer clips the layers under it as a group.
public struct FrameRenderer: Sendable {
    private var rasterizer = Rasterizer()
    private var layer = Bitmap(width: 0, height: 0)
    private var mask = Bitmap(width: 0, height: 0)
    /// Model blend modes that the raster cannot draw and that were drawn as normal.
    public private(set) var unsupportedBlendModes: Set<BlendMode> = []

    public init() {}

    /// Renders `plan` — each layer's clip sampled at its time — into `frame`, resized to the framing.
    public mutating func render(_ plan: FramePlan, scenes: [RenderScene], framing: Framing, background: RGBAColor,
                                into frame: inout Bitmap) {
        prepare(&frame, framing: framing, background: background)
        for layer in plan.layers where scenes.indices.contains(layer.scene) {
            let scene = scenes[layer.scene]
            let pose = scene.sampler.sample(clip: layer.clip, time: layer.time)
            draw(pose, library: scene.library, framing: framing, into: &frame)
        }
    }

    /// Renders one pose into `frame`, resized to the framing and cleared to `background`.
    public mutating func render(_ pose: Pose, library: AtlasLibrary, framing: Framing, background: RGBAColor,
                                into frame: inout Bitmap) {
        prepare(&frame, framing: framing, background: background)
        draw(pose, library: library, framing: framing, into: &frame)
    }

    private func prepare(_ frame: inout Bitmap, framing: Framing, background: RGBAColor) {
        if frame.width != framing.width || frame.height != framing.height {
            frame.resize(width: framing.width, height: framing.height)
        }
        frame.clear(to: background)
    }

    /// Draws `pose` over what `frame` already holds.
    public mutating func draw(_ pose: Pose, library: AtlasLibrary, framing: Framing, into frame: inout Bitmap) {
        let items = pose.items
        var index = 0
        while index < items.count {
            let masks = items[index].masks
            if masks.isEmpty {
                draw(items[index], library: library, view: framing.rootToDevice, into: &frame)
                index += 1
                continue
            }
            var end = index + 1
            while end < items.count && items[end].masks == masks { end += 1 }
            drawMasked(items[index..<end], masks: masks, pose: pose, library: library, framing: framing,
                       into: &frame)
            index = end
        }
    }

    private mutating func drawMasked(_ run: ArraySlice<Pose.Item>, masks: [Int], pose: Pose, library: AtlasLibrary,
                                     framing: Framing, into frame: inout Bitmap) {
        let view = framing.rootToDevice
        // Work on local copies so drawing into them does not overlap the access to `self`; the buffers go back
        // afterwards, so their storage is reused by the next frame.
        var layer = Bitmap(width: 0, height: 0)
        var mask = Bitmap(width: 0, height: 0)
        swap(&layer, &self.layer)
        swap(&mask, &self.mask)
        defer {
            swap(&layer, &self.layer)
            swap(&mask, &self.mask)
        }
        resizeAndClear(&layer, framing)
        for item in run { draw(item, library: library, view: view, into: &layer) }
        for maskIndex in masks {
            resizeAndClear(&mask, framing)
            if pose.masks.indices.contains(maskIndex) {
                for shape in pose.masks[maskIndex] {
                    var plain = shape
                    plain.color = .identity
                    plain.blendMode = .normal
                    draw(plain, library: library, view: view, into: &mask)
                }
            }
            layer.applyMask(mask)
        }
        rasterizer.composite(layer, x: 0, y: 0, into: &frame)
    }

    private func resizeAndClear(_ bitmap: inout Bitmap, _ framing: Framing) {
        if bitmap.width != framing.width || bitmap.height != framing.height {
            bitmap.resize(width: framing.width, height: framing.height)
        } else {
            bitmap.clear()
        }
    }

    private mutating func draw(_ item: Pose.Item, library: AtlasLibrary, view: Affine, into target: inout Bitmap) {
        guard let sprite = library.sprite(item.sprite) else { return }
        let blend: PixelBlendMode
        if let mode = PixelBlendMode(item.blendMode) {
            blend = mode
        } else {
            blend = .normal
            unsupportedBlendModes.insert(item.blendMode)
        }
        let paint = Paint(opacity: 1, colorTransform: PixelColorTransform(item.color), blendMode: blend)
        let image = library.images[sprite.image]
        if let mesh = item.mesh {
            let count = min(mesh.positions.count, mesh.uvs.count)
            var vertices: [SIMD2<Double>] = []
            var texture: [SIMD2<Double>] = []
            vertices.reserveCapacity(count)
            texture.reserveCapacity(count)
            let origin = SIMD2(Double(sprite.region.x), Double(sprite.region.y))
            for i in 0..<count {
                vertices.append(view.apply(SIMD2(mesh.positions[i].x, mesh.positions[i].y)))
                let upright = SIMD2(mesh.uvs[i].x * sprite.size.width, mesh.uvs[i].y * sprite.size.height)
                texture.append(sprite.uprightToRegion.apply(upright) + origin)
            }
            rasterizer.drawTriangles(image, region: sprite.region, vertices: vertices, textureCoordinates: texture,
                                     indices: mesh.triangles, paint: paint, into: &target)
        } else {
            let transform = view.concatenating(Affine(item.transform)).concatenating(sprite.regionToUpright)
            rasterizer.draw(image, region: sprite.region, transform: transform, paint: paint, into: &target)
        }
    }
}
