import KeyframeEngine
import KeyframeModel
import KeyframeRaster
import KeyframeRender

/// Pictures of parts of poses drawn exactly as `keyframe render` draws them, for exporters that cannot describe
/// those parts (a filtered node's picture, a deformed mesh, a blend inside a group) and show a picture instead.
///
/// A part is a contiguous range of a pose's items (``bake(_:items:)``): the items, the filter groups they belong to
/// and the masks over them are drawn with ``FrameRenderer`` in the export's device space (its ``Framing``), into a
/// picture trimmed to the pixels drawn (a filter's reach included) with its whole-pixel offset on the canvas. The
/// range's outermost paint is normal: the blend mode of a filter group the range holds (or of a plain item) is the
/// caller's to apply, its colour transform is in the picture.
///
/// Poses are compared, not pixels: a range whose part of the pose (items, groups, masks, renumbered) equals one
/// baked before reuses that picture without drawing; pictures with the same pixels are then one picture. The
/// result depends only on the poses and the order they are given in.
struct PoseBaker {
    /// Where a baked picture is shown.
    struct Placement: Equatable {
        /// Index into ``pictures``.
        var picture: Int
        /// The picture's top-left corner on the canvas, in device pixels.
        var x: Int
        var y: Int
    }

    let library: AtlasLibrary
    /// Root (document) coordinates → device pixels: the export's framing.
    let view: Affine
    /// The pixels that can be seen (the canvas); `nil`: every pixel drawn is kept.
    let canvas: PixelRect?
    /// Whether a range's outer masks (those over its outermost filter groups) are drawn into its picture; without
    /// them the caller clips the picture (a layer tree's mask layers).
    var drawsOuterMasks = true
    /// The distinct pictures, in the order first baked.
    private(set) var pictures: [Bitmap] = []
    /// How many ranges were drawn (the rest reused a picture of an equal pose part).
    private(set) var drawn = 0
    /// How many ranges were left out because their picture would exceed 2²⁶ pixels (callers warn).
    private(set) var oversized = 0
    private var renderer = FrameRenderer()
    /// Pose parts baked so far, by hash: the part and its placement (`nil`: it draws nothing).
    private var byPart: [Int: [(part: Pose, placement: Placement?)]] = [:]
    /// Pictures by pixels: hash → indices into ``pictures``.
    private var byPixels: [Int: [Int]] = [:]

    /// A baker drawing with `library` (give it reduced copies, ``AtlasLibrary/withMipmaps()``, to draw as `render`
    /// does) into the canvas of `framing`.
    init(library: AtlasLibrary, framing: Framing) {
        self.library = library
        view = framing.rootToDevice
        canvas = PixelRect(x: 0, y: 0, width: framing.width, height: framing.height)
    }

    /// A baker drawing with `library` through `view`, keeping every pixel drawn.
    init(library: AtlasLibrary, view: Affine) {
        self.library = library
        self.view = view
        canvas = nil
    }

    /// The picture of `pose.items[items]` and where it goes on the canvas; `nil` when the range draws nothing on the
    /// canvas.
    mutating func bake(_ pose: Pose, items: Range<Int>) -> Placement? {
        let part = PoseBaker.part(of: pose, items: items, outerMasks: drawsOuterMasks)
        let hash = PoseBaker.hash(part)
        if let known = byPart[hash]?.first(where: { $0.part == part }) { return known.placement }
        let placement = draw(part)
        byPart[hash, default: []].append((part, placement))
        return placement
    }

    /// Draws a pose part into a picture trimmed to its drawn pixels.
    private mutating func draw(_ part: Pose) -> Placement? {
        drawn += 1
        var area = FrameRenderer.inkedBounds(of: part, library: library, view: view)
        if let canvas { area = area.intersection(canvas) }
        // A picture no larger than the render's own offscreen limit for a filtered group.
        guard !area.isEmpty else { return nil }
        guard area.width <= Framing.maximumSide * 4, area.height <= Framing.maximumSide * 4,
            area.width * area.height <= 1 << 26
        else {
            oversized += 1
            return nil
        }
        var local = Framing(scene: Rect(x: 0, y: 0, width: Double(area.width), height: Double(area.height)),
                            size: (area.width, area.height))
        local.rootToDevice = Affine.translation(Double(-area.x), Double(-area.y)).concatenating(view)
        var picture = Bitmap(width: area.width, height: area.height)
        renderer.render(part, library: library, framing: local, background: .transparent, into: &picture)
        guard let used = PoseBaker.drawnRect(of: picture) else { return nil }
        if used != picture.bounds { picture = picture.cropped(to: used) }
        return Placement(picture: store(picture), x: area.x + used.x, y: area.y + used.y)
    }

    /// The index of `picture` in ``pictures``, added unless a picture with the same pixels is there.
    private mutating func store(_ picture: Bitmap) -> Int {
        var hasher = Hasher()
        hasher.combine(picture.width)
        hasher.combine(picture.height)
        picture.pixels.withUnsafeBytes { hasher.combine(bytes: $0) }
        let hash = hasher.finalize()
        if let same = byPixels[hash]?.first(where: { pictures[$0] == picture }) { return same }
        pictures.append(picture)
        byPixels[hash, default: []].append(pictures.count - 1)
        return pictures.count - 1
    }

    /// The ranges of items that draw as one filtered picture: the items of every outermost group that has filters
    /// (consecutive in the pose), with the group's index. Groups without filters (a symbol blended as one picture)
    /// are pictures only inside a filtered group; outside one their items are drawn as they are.
    static func filteredParts(of pose: Pose) -> [(items: Range<Int>, group: Int)] {
        func outermost(_ item: Pose.Item) -> Int? {
            var current = item.inGroup?.group
            var found: Int? = nil
            var steps = 0
            while let index = current, pose.filterGroups.indices.contains(index), steps <= pose.filterGroups.count {
                if !pose.filterGroups[index].filters.isEmpty { found = index }
                current = pose.filterGroups[index].parent
                steps += 1
            }
            return found
        }
        var parts: [(items: Range<Int>, group: Int)] = []
        var index = 0
        while index < pose.items.count {
            guard let group = outermost(pose.items[index]) else {
                index += 1
                continue
            }
            var end = index + 1
            while end < pose.items.count && outermost(pose.items[end]) == group { end += 1 }
            parts.append((index..<end, group))
            index = end
        }
        return parts
    }

    /// The smallest rectangle holding every pixel of `bitmap` that is not fully transparent, or `nil`.
    static func drawnRect(of bitmap: Bitmap) -> PixelRect? {
        var minX = bitmap.width, minY = bitmap.height, maxX = -1, maxY = -1
        bitmap.pixels.withUnsafeBufferPointer { p in
            for y in 0..<bitmap.height {
                let row = y * bitmap.width * 4
                var x = 0
                while x < bitmap.width {
                    if p[row + x * 4 + 3] != 0 {
                        // Pixels are premultiplied: a pixel with colour has alpha.
                        minY = min(minY, y)
                        maxY = y
                        minX = min(minX, x)
                        var last = bitmap.width - 1
                        while last > x && p[row + last * 4 + 3] == 0 { last -= 1 }
                        maxX = max(maxX, last)
                        break
                    }
                    x += 1
                }
            }
        }
        guard maxX >= 0 else { return nil }
        return PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// The pose holding only `pose.items[items]`, the filter groups they are in (and the groups around those that
    /// the range also holds) and the masks over them, renumbered in order, with the range's outermost blend modes
    /// normal (and, without `outerMasks`, without the masks over its outermost groups). Two ranges draw the same
    /// picture when their parts are equal.
    static func part(of pose: Pose, items: Range<Int>, outerMasks: Bool = true) -> Pose {
        let range = items.clamped(to: pose.items.indices)
        // The groups the range's items are in, with every enclosing group (outer before inner, as in the pose).
        var groups = Set<Int>()
        for item in pose.items[range] {
            var current = item.inGroup?.group
            while let index = current, pose.filterGroups.indices.contains(index), groups.insert(index).inserted {
                current = pose.filterGroups[index].parent
            }
        }
        let groupOrder = groups.sorted()
        let groupIndex = Dictionary(uniqueKeysWithValues: groupOrder.enumerated().map { ($1, $0) })
        var outer = Set<Int>()
        if !outerMasks {
            for index in groupOrder where pose.filterGroups[index].parent.flatMap({ groupIndex[$0] }) == nil {
                outer.formUnion(pose.filterGroups[index].masks)
            }
        }
        var maskOrder: [Int] = []
        var maskIndex: [Int: Int] = [:]
        func mask(_ old: Int) -> Int? {
            guard pose.masks.indices.contains(old), !outer.contains(old) else { return nil }
            if let known = maskIndex[old] { return known }
            maskIndex[old] = maskOrder.count
            maskOrder.append(old)
            return maskOrder.count - 1
        }
        var part = Pose()
        for old in groupOrder {
            var group = pose.filterGroups[old]
            group.masks = group.masks.compactMap(mask)
            group.parent = group.parent.flatMap { groupIndex[$0] }
            // The outermost paint is the caller's: the picture is drawn over transparency with normal compositing.
            if group.parent == nil { group.blendMode = .normal }
            part.filterGroups.append(group)
        }
        for old in range {
            var item = pose.items[old]
            item.masks = item.masks.compactMap(mask)
            if let member = item.inGroup, let index = groupIndex[member.group] {
                item.inGroup?.group = index
            } else {
                item.inGroup = nil
                item.blendMode = .normal
            }
            part.items.append(item)
        }
        part.masks = maskOrder.map { old in
            pose.masks[old].map { shape in
                var shape = shape
                shape.inGroup = nil
                shape.masks = []
                return shape
            }
        }
        return part
    }

    /// A hash of what a part draws (equality is decided on the whole part).
    static func hash(_ part: Pose) -> Int {
        var hasher = Hasher()
        hasher.combine(part.items.count)
        hasher.combine(part.filterGroups.count)
        hasher.combine(part.masks.count)
        for item in part.items {
            hasher.combine(item.sprite)
            hasher.combine(item.transform)
            hasher.combine(item.color)
            hasher.combine(item.inGroup?.group ?? -1)
            hasher.combine(item.mesh?.positions.count ?? -1)
        }
        for mask in part.masks {
            for shape in mask {
                hasher.combine(shape.sprite)
                hasher.combine(shape.transform)
            }
        }
        return hasher.finalize()
    }
}
