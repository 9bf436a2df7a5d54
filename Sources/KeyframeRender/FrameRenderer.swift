import KeyframeEngine
import KeyframeModel
import KeyframeRaster

/// Draws poses into bitmaps: sprites and meshes back to front, with colour transforms, blend modes, masks and
/// filters.
///
/// A renderer owns its rasterizer and offscreen layers and reuses them from frame to frame; keep one per worker.
///
/// Masked items are drawn into an offscreen layer, which is multiplied by the coverage of each of their mask
/// shapes and then composited. Consecutive items with the same masks share one layer, as in Flash, where a mask
/// layer clips the layers under it as a group.
///
/// What a filtered node shows (a ``Pose/FilterGroup``) is drawn once into an offscreen layer as large as its
/// content grown by its filters' reach, filtered in place, then composited with the node's colour transform and
/// blend mode, as Flash draws a filtered display object (raster.md, "Filters"). A node with a blend mode of its own
/// that shows a nested composition is such a group too (without filters): Flash blends a display object's
/// content as one picture. Items and groups with `alpha` or `erase` act on the picture of the group they are
/// drawn into, and are not drawn where no group encloses them (raster.md, "Blend modes").
public struct FrameRenderer: Sendable {
    private var rasterizer = Rasterizer()
    /// Offscreen layers (masked runs, masks, filtered groups) not in use; their storage is reused frame to frame.
    private var spare: [Bitmap] = []
    /// Set while a masked run draws one blended unit into its own picture: the unit (an item or a group) is drawn
    /// normally there, and the picture composited with the unit's mode after masking.
    private var drawsNextUnitNormally = false
    /// Working memory of the filters.
    private var filterPlane: [UInt8] = []
    private var filterScratch: [UInt8] = []
    /// What the last ``renderReusingBuffer(_:scenes:framing:background:into:)`` drew on, and over what colour.
    private var previousInk: PixelRect?
    private var previousBackground = RGBAColor.transparent
    /// Where the last ``renderReusingBuffer(_:scenes:framing:background:into:)`` drew: every pixel of that frame
    /// outside this rectangle is the background; `nil` after any other call.
    public var inkedRegion: PixelRect? { previousInk }

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
        let layers = plan.layers.filter { scenes.indices.contains($0.scene) }
            .map { (pose: $0.pose(in: scenes[$0.scene]), library: scenes[$0.scene].library) }
        renderReusingBuffer(layers: layers, framing: framing, background: background, into: &frame)
    }

    /// Renders poses already sampled, back to front, into the buffer this renderer filled last time (see
    /// ``renderReusingBuffer(_:scenes:framing:background:into:)``).
    public mutating func renderReusingBuffer(layers: [(pose: Pose, library: AtlasLibrary)], framing: Framing,
                                             background: RGBAColor, into frame: inout Bitmap) {
        beginReusing(&frame, framing: framing, background: background)
        var ink = PixelRect(x: 0, y: 0, width: 0, height: 0)
        for (pose, library) in layers {
            ink = ink.union(FilterLayout(pose: pose, view: framing.rootToDevice)
                .bounds(of: pose.items[...], within: nil, library: library, view: framing.rootToDevice))
            draw(pose, library: library, framing: framing, into: &frame)
        }
        previousInk = ink.intersection(frame.bounds)
    }

    /// Renders one pose into the buffer this renderer filled last time, clearing only what that frame drew
    /// (see ``renderReusingBuffer(_:scenes:framing:background:into:)``).
    public mutating func renderReusingBuffer(_ pose: Pose, library: AtlasLibrary, framing: Framing,
                                             background: RGBAColor, into frame: inout Bitmap) {
        beginReusing(&frame, framing: framing, background: background)
        let ink = FilterLayout(pose: pose, view: framing.rootToDevice)
            .bounds(of: pose.items[...], within: nil, library: library, view: framing.rootToDevice)
        draw(pose, library: library, framing: framing, into: &frame)
        previousInk = ink.intersection(frame.bounds)
    }

    /// The whole-pixel rectangle, in the space of `view`, that drawing `pose` can touch: its items' quads and mesh
    /// vertices, each filtered group's grown by its filters' reach (empty when it draws nothing).
    public static func inkedBounds(of pose: Pose, library: AtlasLibrary, view: Affine) -> PixelRect {
        FilterLayout(pose: pose, view: view).bounds(of: pose.items[...], within: nil, library: library, view: view)
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
        let layout = FilterLayout(pose: pose, view: framing.rootToDevice)
        drawUnits(pose.items[...], group: nil, maskBase: 0, pose: pose, layout: layout, library: library,
                  view: framing.rootToDevice, into: &frame)
    }

    /// One thing to draw inside `group`: an item directly in it (`child` nil, `end` the next index), or the run of
    /// items inside one of its child groups.
    private static func unit(_ items: ArraySlice<Pose.Item>, at index: Int, in group: Int?, pose: Pose)
        -> (end: Int, child: Int?)
    {
        guard let child = childGroup(of: items[index], in: group, pose: pose) else { return (index + 1, nil) }
        var end = index + 1
        while end < items.endIndex && childGroup(of: items[end], in: group, pose: pose) == child { end += 1 }
        return (end, child)
    }

    /// The group directly inside `group` that holds `item`, or `nil` when the item is directly in `group`.
    private static func childGroup(of item: Pose.Item, in group: Int?, pose: Pose) -> Int? {
        var current = item.inGroup?.group
        while let index = current, pose.filterGroups.indices.contains(index) {
            let parent = pose.filterGroups[index].parent
            if parent == group { return index }
            current = parent
        }
        return nil
    }

    /// Draws `items` — the content of `group` (`nil`: the whole pose) — with masks beyond the first `maskBase`
    /// (those of the enclosing runs) applied.
    private mutating func drawUnits(_ items: ArraySlice<Pose.Item>, group: Int?, maskBase: Int, pose: Pose,
                                    layout: FilterLayout, library: AtlasLibrary, view: Affine,
                                    into target: inout Bitmap) {
        func masks(_ start: Int, _ child: Int?) -> ArraySlice<Int> {
            let all = child.map { pose.filterGroups[$0].masks } ?? items[start].masks
            return all.dropFirst(min(maskBase, all.count))
        }
        var index = items.startIndex
        while index < items.endIndex {
            let first = FrameRenderer.unit(items, at: index, in: group, pose: pose)
            let own = masks(index, first.child)
            if own.isEmpty {
                if let child = first.child {
                    drawGroup(child, items[index..<first.end], pose: pose, layout: layout, library: library,
                              view: view, into: &target)
                } else {
                    draw(items[index], enclosed: group != nil, library: library, view: view, into: &target)
                }
                index = first.end
                continue
            }
            // Consecutive units under the same masks share one masked layer.
            var end = first.end
            while end < items.endIndex {
                let next = FrameRenderer.unit(items, at: end, in: group, pose: pose)
                guard masks(end, next.child) == own else { break }
                end = next.end
            }
            drawMasked(items[index..<end], masks: Array(own), group: group, maskBase: maskBase, pose: pose,
                       layout: layout, library: library, view: view, into: &target)
            index = end
        }
    }

    private mutating func drawMasked(_ run: ArraySlice<Pose.Item>, masks: [Int], group: Int?, maskBase: Int,
                                     pose: Pose, layout: FilterLayout, library: AtlasLibrary, view: Affine,
                                     into target: inout Bitmap) {
        // Only the pixels the masked items cover, and every mask covers, can change: the offscreen work is limited
        // to that rectangle (whole pixels, rounded out).
        var area = target.bounds
        area = area.intersection(layout.bounds(of: run, within: group, library: library, view: view))
        for maskIndex in masks {
            let shapes = pose.masks.indices.contains(maskIndex) ? pose.masks[maskIndex][...] : []
            area = area.intersection(FrameRenderer.deviceBounds(of: shapes, library: library, view: view))
        }
        guard !area.isEmpty else { return }
        let local = Affine.translation(Double(-area.x), Double(-area.y)).concatenating(view)
        // Units with a blend mode blend with what is behind the masked run, not with the run's own picture: each is
        // drawn (normally) and masked on its own, then composited with its mode; the units between them share one
        // masked picture, composited normally.
        var start = run.startIndex
        while start < run.endIndex {
            var end = start
            var mode = BlendMode.normal
            while end < run.endIndex {
                let unit = FrameRenderer.unit(run, at: end, in: group, pose: pose)
                let own = FrameRenderer.mode(of: run[end], child: unit.child, pose: pose)
                if PixelBlendMode(own) != .normal {
                    if end == start { (end, mode) = (unit.end, own) }
                    break
                }
                end = unit.end
            }
            if FrameRenderer.needsEnclosingGroup(mode) && group == nil {
                start = end
                continue
            }
            var layer = takeLayer(area)
            drawsNextUnitNormally = mode != .normal
            drawUnits(run[start..<end], group: group, maskBase: maskBase + masks.count, pose: pose, layout: layout,
                      library: library, view: local, into: &layer)
            drawsNextUnitNormally = false
            applyMasks(masks, to: &layer, area: area, pose: pose, library: library, view: local)
            rasterizer.composite(layer, x: area.x, y: area.y, paint: Paint(blendMode: PixelBlendMode(mode)),
                                 into: &target)
            spare.append(layer)
            start = end
        }
    }

    /// The blend mode a unit of a group is composited with: its child group's, or the item's own in the group.
    private static func mode(of item: Pose.Item, child: Int?, pose: Pose) -> BlendMode {
        child.map { pose.filterGroups[$0].blendMode } ?? item.inGroup?.blendMode ?? item.blendMode
    }

    /// Multiplies `layer` (covering `area`) by the coverage of each mask in `masks`.
    private mutating func applyMasks(_ masks: [Int], to layer: inout Bitmap, area: PixelRect, pose: Pose,
                                     library: AtlasLibrary, view local: Affine) {
        var mask = takeLayer(area)
        for maskIndex in masks {
            if pose.masks.indices.contains(maskIndex) {
                for shape in pose.masks[maskIndex] {
                    var plain = shape
                    plain.color = .identity
                    plain.blendMode = .normal
                    plain.inGroup = nil
                    draw(plain, library: library, view: local, into: &mask)
                }
            }
            layer.applyMask(mask)
            mask.clear()
        }
        spare.append(mask)
    }

    /// The largest offscreen picture of a filtered group, in pixels, before the context around the frame is given
    /// up (Flash Player's own limit is 16,777,215 pixels, beyond which it draws no filter at all).
    static let maximumFilterPixels = 1 << 26

    /// Draws filter group `group` (its items `run`): its content into a layer grown by its filters' reach, the
    /// filters in order, then the layer composited with the group's colour transform and blend mode.
    private mutating func drawGroup(_ group: Int, _ run: ArraySlice<Pose.Item>, pose: Pose, layout: FilterLayout,
                                    library: AtlasLibrary, view: Affine, into target: inout Bitmap) {
        let normally = drawsNextUnitNormally
        drawsNextUnitNormally = false
        let content = layout.bounds(of: run, within: group, library: library, view: view)
        var area = content.grown(by: layout.margins[group].union(layout.reach[group]))
        // Content farther outside the target than the filters read cannot reach it.
        let context = target.bounds.grown(by: layout.reach[group])
        area = area.intersection(context)
        if area.width * area.height > FrameRenderer.maximumFilterPixels {
            area = area.intersection(target.bounds)
        }
        guard !area.isEmpty else { return }
        let local = Affine.translation(Double(-area.x), Double(-area.y)).concatenating(view)
        var layer = takeLayer(area)
        drawUnits(run, group: group, maskBase: pose.filterGroups[group].masks.count, pose: pose, layout: layout,
                  library: library, view: local, into: &layer)
        for filter in layout.filters[group] {
            filter.apply(to: &layer, plane: &filterPlane, scratch: &filterScratch)
        }
        let mode = normally ? .normal : pose.filterGroups[group].blendMode
        if FrameRenderer.needsEnclosingGroup(mode) && pose.filterGroups[group].parent == nil { return }
        let paint = FrameRenderer.paint(pose.filterGroups[group].color, mode)
        rasterizer.composite(layer, x: area.x, y: area.y, paint: paint, into: &target)
        spare.append(layer)
    }

    /// A transparent offscreen layer the size of `area`, from the spare ones when there is one.
    private mutating func takeLayer(_ area: PixelRect) -> Bitmap {
        var bitmap = spare.popLast() ?? Bitmap(width: 0, height: 0)
        if bitmap.width != area.width || bitmap.height != area.height {
            bitmap.resize(width: area.width, height: area.height)
        } else {
            bitmap.clear()
        }
        return bitmap
    }

    /// The whole-pixel rectangle, in device space, that `items` can touch (empty when they draw nothing).
    static func deviceBounds(of items: ArraySlice<Pose.Item>, library: AtlasLibrary, view: Affine) -> PixelRect {
        guard let rect = drawnBounds(of: items, library: library, view: view) else {
            return PixelRect(x: 0, y: 0, width: 0, height: 0)
        }
        return wholePixels(rect)
    }

    /// `rect` rounded out to whole pixels with one pixel of margin (for anti-aliased edges), clamped on both sides
    /// (and NaN to the lower limit), so far-away or broken geometry cannot trap.
    static func wholePixels(_ rect: Rect) -> PixelRect {
        let limit = Double(Int32.max / 2)
        func whole(_ value: Double) -> Int { Int(min(limit, max(-limit, value))) }
        let x0 = whole((rect.x - 1).rounded(.down))
        let y0 = whole((rect.y - 1).rounded(.down))
        let x1 = whole((rect.x + rect.width + 1).rounded(.up))
        let y1 = whole((rect.y + rect.height + 1).rounded(.up))
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// The paint of a colour transform and model blend mode.
    private static func paint(_ color: ColorTransform, _ mode: BlendMode) -> Paint {
        Paint(opacity: 1, colorTransform: PixelColorTransform(color), blendMode: PixelBlendMode(mode))
    }

    /// Whether `mode` acts on the picture of an enclosing group, so that it draws nothing without one: Flash's
    /// `alpha` and `erase` need a parent with `layer` (or another reason to be drawn as one picture), and Flash
    /// Player, like Ruffle, leaves them out otherwise (raster.md, "Blend modes").
    static func needsEnclosingGroup(_ mode: BlendMode) -> Bool { mode == .alpha || mode == .erase }

    /// Draws one item: with its colour and blend mode inside its innermost filter group when it has one (the
    /// group's own are applied when the group's picture is composited), else its accumulated ones. `enclosed` says
    /// whether `target` is a group's picture (an `alpha` or `erase` item draws nothing elsewhere).
    private mutating func draw(_ item: Pose.Item, enclosed: Bool = false, library: AtlasLibrary, view: Affine,
                               into target: inout Bitmap) {
        guard let sprite = library.sprite(item.sprite) else { return }
        var mode = item.inGroup?.blendMode ?? item.blendMode
        if drawsNextUnitNormally {
            drawsNextUnitNormally = false
            mode = .normal
        }
        if !enclosed && FrameRenderer.needsEnclosingGroup(mode) { return }
        let paint = FrameRenderer.paint(item.inGroup?.color ?? item.color, mode)
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
            let quad = FrameRenderer.quad(of: item, sprite: sprite, library: library, view: view)
            rasterizer.draw(quad.level == 0 ? image : library.mipmaps[sprite.image][quad.level - 1],
                            region: quad.region, transform: quad.transform, paint: paint, into: &target)
        }
    }

    /// How a sprite item is drawn: from which reduced copy of its atlas (`level` 0: the atlas itself), the region
    /// of that copy, and the map from the region's local space to device pixels. The quad the rasterizer fills is
    /// the region's rectangle through `transform`; ``drawnBounds(of:library:view:)`` measures the same quad, so what
    /// a frame clears, and the offscreen layers masks and filters get, hold every pixel drawn.
    static func quad(of item: Pose.Item, sprite: AtlasLibrary.ResolvedSprite, library: AtlasLibrary, view: Affine)
        -> (level: Int, region: PixelRect, transform: Affine)
    {
        let transform = view.concatenating(Affine(item.transform)).concatenating(sprite.regionToUpright)
        let (level, _) = FrameRenderer.mipmapLevel(for: transform, available: library.mipmaps[sprite.image].count)
        guard level > 0 else { return (0, sprite.region, transform) }
        // The region at the reduced level, rounded out to whole texels, and the map from its local space back to the
        // full-size region's: p = 2^L·q + (x₀·2^L − x). The rounding widens the quad by up to 2^L − 1 atlas pixels
        // on a side, more than a device pixel along an axis scaled more than the average.
        let r = sprite.region, step = 1 << level
        let x0 = r.x >> level, y0 = r.y >> level
        let x1 = (r.x + r.width + step - 1) >> level, y1 = (r.y + r.height + step - 1) >> level
        let scale = Double(step)
        let toFull = Affine(a: scale, b: 0, c: 0, d: scale, tx: Double(x0 * step - r.x), ty: Double(y0 * step - r.y))
        return (level, PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), transform.concatenating(toFull))
    }

    /// The device-space bounds of what `items` draw, or `nil` when they draw nothing: mesh vertices, and the four
    /// corners of the quad each sprite is filled as (``quad(of:sprite:library:view:)``).
    static func drawnBounds(of items: ArraySlice<Pose.Item>, library: AtlasLibrary, view: Affine) -> Rect? {
        Framing.bounds(of: items, library: library, view: view) { item, sprite in
            let quad = FrameRenderer.quad(of: item, sprite: sprite, library: library, view: view)
            return (quad.transform, Double(quad.region.width), Double(quad.region.height))
        }
    }
}
