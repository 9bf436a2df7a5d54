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
    /// What the last ``renderReusingBuffer(_:scenes:framing:background:into:)`` drew on, and over what colour.
    private var previousInk: PixelRect?
    private var previousBackground = RGBAColor.transparent
    /// Where the last ``renderReusingBuffer(_:scenes:framing:background:into:)`` drew: every pixel of that frame
    /// outside this rectangle is the background; `nil` after any other call.
    public var inkedRegion: PixelRect? { previousInk }
    /// Model blend modes that the raster cannot draw and that were drawn as normal.
    public private(set) var unsupportedBlendModes: Set<BlendMode> = []

    public init() {}

    /// Renders `plan` — each layer's clip sampled at its time — into `frame`, resized to the framing.
    public mutating func render(_ plan: FramePlan, scenes: [RenderScene], framing: Framing, background: RGBAColor,
                                into frame: inout Bitmap) {
        prepare(&frame, framing: framing, background: background)
        for layer in plan.layers where scenes.indices.contains(layer.scene) {
            let scene = scenes[layer.scene]
            let pose = layer.pose(in: scene)
            draw(pose, library: scene.library, framing: framing, into: &frame)
        }
    }

    /// Renders `plan` into the buffer this renderer filled last time, clearing only what that frame drew.
    ///
    /// For a caller that owns `frame` and gives it to no one else between calls (``BatchRenderer``'s workers): when
    /// the size and background are unchanged, the previous frame's pixels outside its inked rectangle are still
    /// the background, so only that rectangle is cleared — a 1024² frame costs about 0.3 ms to clear whole. The
    /// result is the same as ``render(_:scenes:framing:background:into:)``'s.
    public mutating func renderReusingBuffer(_ plan: FramePlan, scenes: [RenderScene], framing: Framing,
                                             background: RGBAColor, into frame: inout Bitmap) {
        beginReusing(&frame, framing: framing, background: background)
        var ink = PixelRect(x: 0, y: 0, width: 0, height: 0)
        for layer in plan.layers where scenes.indices.contains(layer.scene) {
            let scene = scenes[layer.scene]
            let pose = layer.pose(in: scene)
            ink = ink.union(FrameRenderer.deviceBounds(of: pose.items[...], library: scene.library,
                                                      view: framing.rootToDevice))
            draw(pose, library: scene.library, framing: framing, into: &frame)
        }
        previousInk = ink.intersection(frame.bounds)
    }

    /// Renders one pose into the buffer this renderer filled last time, clearing only what that frame drew
    /// (see ``renderReusingBuffer(_:scenes:framing:background:into:)``).
    public mutating func renderReusingBuffer(_ pose: Pose, library: AtlasLibrary, framing: Framing,
                                             background: RGBAColor, into frame: inout Bitmap) {
        beginReusing(&frame, framing: framing, background: background)
        let ink = FrameRenderer.deviceBounds(of: pose.items[...], library: library, view: framing.rootToDevice)
        draw(pose, library: library, framing: framing, into: &frame)
        previousInk = ink.intersection(frame.bounds)
    }

    private mutating func beginReusing(_ frame: inout Bitmap, framing: Framing, background: RGBAColor) {
        if let ink = previousInk, frame.width == framing.width, frame.height == framing.height,
            previousBackground == background
        {
            frame.clear(ink, to: background)
        } else {
            prepare(&frame, framing: framing, background: background)
        }
        previousBackground = background
    }

    /// Renders one pose into `frame`, resized to the framing and cleared to `background`.
    public mutating func render(_ pose: Pose, library: AtlasLibrary, framing: Framing, background: RGBAColor,
                                into frame: inout Bitmap) {
        prepare(&frame, framing: framing, background: background)
        draw(pose, library: library, framing: framing, into: &frame)
    }

    /// Which reduced copy to sample for an atlas drawn with `transform` (atlas pixels → device pixels): each level
    /// halves the atlas while a texel would still cover at most half a device pixel, so bilinear sampling never
    /// skips texels (which aliases and misses the cache). Returns the level and the device pixels per texel there.
    public static func mipmapLevel(for transform: Affine, available: Int) -> (level: Int, devicePerTexel: Double) {
        // The geometric mean of how long the two texel axes become on screen.
        var perTexel = abs(transform.determinant).squareRoot()
        guard perTexel.isFinite, perTexel > 0 else { return (0, perTexel) }
        var level = 0
        while perTexel <= 0.5 && level < available {
            perTexel *= 2
            level += 1
        }
        return (level, perTexel)
    }

    private mutating func prepare(_ frame: inout Bitmap, framing: Framing, background: RGBAColor) {
        previousInk = nil
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
        // Only the pixels the masked items cover, and every mask covers, can change: the offscreen work is limited
        // to that rectangle (whole pixels, rounded out).
        var area = PixelRect(x: 0, y: 0, width: framing.width, height: framing.height)
        area = area.intersection(FrameRenderer.deviceBounds(of: run, library: library, view: framing.rootToDevice))
        for maskIndex in masks {
            let shapes = pose.masks.indices.contains(maskIndex) ? pose.masks[maskIndex][...] : []
            area = area.intersection(FrameRenderer.deviceBounds(of: shapes, library: library,
                                                                view: framing.rootToDevice))
        }
        guard !area.isEmpty else { return }
        let view = Affine.translation(Double(-area.x), Double(-area.y)).concatenating(framing.rootToDevice)
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
        resizeAndClear(&layer, area)
        for item in run { draw(item, library: library, view: view, into: &layer) }
        for maskIndex in masks {
            resizeAndClear(&mask, area)
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
        rasterizer.composite(layer, x: area.x, y: area.y, into: &frame)
    }

    private func resizeAndClear(_ bitmap: inout Bitmap, _ area: PixelRect) {
        if bitmap.width != area.width || bitmap.height != area.height {
            bitmap.resize(width: area.width, height: area.height)
        } else {
            bitmap.clear()
        }
    }

    /// The whole-pixel rectangle, in device space, that `items` can touch (empty when they draw nothing).
    static func deviceBounds(of items: ArraySlice<Pose.Item>, library: AtlasLibrary, view: Affine) -> PixelRect {
        guard let rect = Framing.bounds(of: items, library: library, view: view) else {
            return PixelRect(x: 0, y: 0, width: 0, height: 0)
        }
        // One pixel of margin for the reduced-atlas rounding and anti-aliased edges.
        // Clamped on both sides (and NaN to the lower limit), so far-away or broken geometry cannot trap.
        let limit = Double(Int32.max / 2)
        func whole(_ value: Double) -> Int { Int(min(limit, max(-limit, value))) }
        let x0 = whole((rect.x - 1).rounded(.down))
        let y0 = whole((rect.y - 1).rounded(.down))
        let x1 = whole((rect.x + rect.width + 1).rounded(.up))
        let y1 = whole((rect.y + rect.height + 1).rounded(.up))
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
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
            let (level, _) = FrameRenderer.mipmapLevel(for: transform, available: library.mipmaps[sprite.image].count)
            if level == 0 {
                rasterizer.draw(image, region: sprite.region, transform: transform, paint: paint, into: &target)
            } else {
                // The region at the reduced level, rounded out to whole texels, and the map from its local space
                // back to the full-size region's: p = 2^L·q + (x₀·2^L − x).
                let r = sprite.region, step = 1 << level
                let x0 = r.x >> level, y0 = r.y >> level
                let x1 = (r.x + r.width + step - 1) >> level, y1 = (r.y + r.height + step - 1) >> level
                let scale = Double(step)
                let toFull = Affine(a: scale, b: 0, c: 0, d: scale, tx: Double(x0 * step - r.x), ty: Double(y0 * step - r.y))
                rasterizer.draw(library.mipmaps[sprite.image][level - 1],
                                region: PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0),
                                transform: transform.concatenating(toFull), paint: paint, into: &target)
            }
        }
    }
}
