import KeyframeEngine
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender

/// The pictures of a clip's filtered nodes, drawn filters and all as `keyframe render` draws them
/// (``PoseBaker``), for the layer tree to show in the filtered nodes' layers (docs/core-animation.md §5).
///
/// Each clip frame's pose is sampled; each outermost filter group (a filtered node's content) is drawn at one
/// device pixel per document pixel, without the node's alpha multiplier (the layers' opacity multiplies it down, as
/// it does for sprites) and without the masks over the node (the tree's mask layers clip it). A picture is placed in
/// the node's own layer by the inverse of the node's world transform at that frame, so it lands on its document
/// pixels whatever the layers above do.
struct CAFilterPictures {
    /// Where a filtered node's picture shows at one clip frame.
    struct Shown: Equatable {
        /// Index into ``pictures``.
        var picture: Int
        /// Picture pixels → the node layer's own space (its sublayers' space).
        var transform: Matrix2D
    }

    /// The distinct pictures.
    private(set) var pictures: [Bitmap] = []
    /// The filtered nodes left out at some frame because their picture would exceed 2²⁶ pixels.
    private(set) var oversized: Set<String> = []
    /// By filtered node (its path in the pose, `composition/node`, `>` into nested compositions), what shows at each
    /// clip frame it draws at (frames missing: nothing).
    private(set) var nodes: [String: [Int: Shown]] = [:]
    /// Draws the filtered nodes of `clip` at each of its `frames` frames, sampled with `sampler` (of the document
    /// itself, nested compositions and filters included) and drawn from `library` (with reduced copies).
    init(clip: Clip, frames: Int, sampler: PoseSampler, library: AtlasLibrary) {
        var baker = PoseBaker(library: library, view: .identity)
        baker.drawsOuterMasks = false
        for frame in 0..<frames {
            let time = min(Double(frame), max(clip.duration.value - 1e-9, 0))
            var pose = sampler.sample(clip: clip, time: Frames(time), collectNodes: true)
            let parts = PoseBaker.filteredParts(of: pose)
            guard !parts.isEmpty else { continue }
            var worlds: [String: Matrix2D] = [:]
            for node in pose.nodes where node.content != .none && worlds[node.path] == nil {
                worlds[node.path] = node.transform
            }
            for part in parts {
                let path = pose.filterGroups[part.group].path
                // The layers' opacity multiplies the alpha down to the picture.
                pose.filterGroups[part.group].color.alphaMultiplier = 1
                let before = baker.oversized
                guard let world = worlds[path], let inverse = CAFilterPictures.inverse(world),
                    let placement = baker.bake(pose, items: part.items)
                else {
                    if baker.oversized > before { oversized.insert(path) }
                    continue
                }
                let toNode = inverse.concatenating(
                    Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: Double(placement.x), ty: Double(placement.y)))
                nodes[path, default: [:]][frame] = Shown(picture: placement.picture, transform: toNode)
            }
        }
        pictures = baker.pictures
    }

    /// The inverse of `m`, or `nil` when it collapses the plane (the node then shows nothing).
    static func inverse(_ m: Matrix2D) -> Matrix2D? {
        let det = m.a * m.d - m.b * m.c
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        let a = m.d / det, b = -m.b / det, c = -m.c / det, d = m.a / det
        return Matrix2D(a: a, b: b, c: c, d: d, tx: -(a * m.tx + c * m.ty), ty: -(b * m.tx + d * m.ty))
    }

    /// Picture `index`'s image id: `<node id>~filter-<width>x<height>-<CRC-32 of its pixels>`, so the same pixels
    /// get the same id (and file) in every clip and run.
    func imageID(_ index: Int, node: String) -> String {
        let picture = pictures[index]
        let crc = String(Deflate.crc32(picture.pixels), radix: 16)
        return "\(node)~filter-\(picture.width)x\(picture.height)-" + String(repeating: "0", count: 8 - crc.count) + crc
    }
}
