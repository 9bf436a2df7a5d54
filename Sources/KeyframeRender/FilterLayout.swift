import KeyframeEngine
import KeyframeModel
import KeyframeRaster

/// The filter groups of one pose in device space: each group's device filters and how far they grow its picture.
///
/// A filter grows a picture by its margins (a blur's extent, a glow's, a shadow's offset); filters run in turn, so a
/// group's picture grows by the sum over its filters, and an item's picture by the sum over its group and every
/// group around it.
struct FilterLayout {
    /// Per group, its drawn filters in order.
    private(set) var filters: [[DeviceFilter]] = []
    /// Per group, how far its filters' results reach beyond its content.
    private(set) var margins: [Insets] = []
    /// Per group, how far around each pixel its filters read, summed: the context a group's picture needs.
    private(set) var reach: [Insets] = []
    /// Per group, the margins of the group and of every group around it.
    private var cumulative: [Insets] = []

    init(pose: Pose, view: Affine) {
        for group in pose.filterGroups {
            let drawn = DeviceFilter.filters(group.filters, view: view)
            filters.append(drawn)
            margins.append(drawn.reduce(Insets()) { $0 + $1.margins })
            reach.append(drawn.reduce(Insets()) { $0 + $1.reach })
            let outer = group.parent.flatMap { $0 < cumulative.count ? cumulative[$0] : nil } ?? Insets()
            cumulative.append(outer + margins[margins.count - 1])
        }
    }

    /// How much the picture of an item in group `inner` grows, seen from inside group `outer` (`nil`: the root).
    func growth(inner: Int?, outer: Int?) -> Insets {
        guard let inner, inner < cumulative.count else { return Insets() }
        let base = outer.flatMap { $0 < cumulative.count ? cumulative[$0] : nil } ?? Insets()
        return cumulative[inner] - base
    }

    /// The whole-pixel rectangle, in the space of `view`, that `items` can touch once the filters of the groups
    /// inside `group` have grown them (empty when they draw nothing).
    func bounds(of items: ArraySlice<Pose.Item>, within group: Int?, library: AtlasLibrary, view: Affine)
        -> PixelRect
    {
        if cumulative.isEmpty { return FrameRenderer.deviceBounds(of: items, library: library, view: view) }
        var plain = BoundingBox()
        var result = PixelRect(x: 0, y: 0, width: 0, height: 0)
        for index in items.indices {
            let inner = items[index].inGroup?.group
            if inner == group || inner == nil {
                if let rect = FrameRenderer.drawnBounds(of: items[index...index], library: library, view: view) {
                    plain.add(rect)
                }
                continue
            }
            let rect = FrameRenderer.deviceBounds(of: items[index...index], library: library, view: view)
            result = result.union(rect.grown(by: growth(inner: inner, outer: group)))
        }
        if let rect = plain.rect { result = result.union(FrameRenderer.wholePixels(rect)) }
        return result
    }
}
