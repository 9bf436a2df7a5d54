import KeyframeEngine
import KeyframeModel
import KeyframeRaster
import KeyframeRender

/// Measures how far an export's approximation moves a clip's frames from `keyframe render`: each measured frame is
/// drawn twice, as the source defines it and with the approximation applied to its pose, and the two pictures are
/// compared pixel by pixel.
///
/// Exporters use it to put a number on every warning about something a file cannot say exactly (a blend mode drawn
/// normal, a colour left out), so the warning says how far off the file is rather than only that it is.
///
/// ```swift
/// let measure = ApproximationMeasure(poses: poses, library: library, framing: framing)
/// let error = measure.measure { pose in ApproximationMeasure.blendModesNormal(pose, under: "walker/3:body") }
/// ```
struct ApproximationMeasure {
    /// The clip's pose at every frame.
    let poses: [Pose]
    let library: AtlasLibrary
    /// The export's framing: the measurement is in its pixels.
    let framing: Framing
    /// At most this many frames are drawn (spread evenly, first and last included); every frame below it.
    var frameLimit = 24

    /// The frames measured: every frame of short clips, else ``frameLimit`` spread evenly.
    var frames: [Int] {
        guard poses.count > frameLimit else { return Array(poses.indices) }
        return (0..<frameLimit).map { $0 * (poses.count - 1) / max(frameLimit - 1, 1) }
    }

    /// The worst frame's difference between the source's frames and the frames `edit` makes of their poses; `nil`
    /// when the clip has no frames. Frames whose edited pose equals the source's are not drawn.
    func measure(_ edit: (Pose) -> Pose) -> ApproximationError? {
        var renderer = FrameRenderer()
        var exact = Bitmap(width: framing.width, height: framing.height)
        var approximated = Bitmap(width: framing.width, height: framing.height)
        var worst: ApproximationError? = nil
        for index in frames {
            let pose = poses[index]
            let edited = edit(pose)
            var error = ApproximationError(frame: index, pixelsOff: 0, largestDifference: 0, meanDifference: 0)
            if edited != pose {
                renderer.render(pose, library: library, framing: framing, background: .transparent, into: &exact)
                renderer.render(edited, library: library, framing: framing, background: .transparent,
                                into: &approximated)
                if let difference = BitmapDifference(approximated, exact, tolerance: ApproximationError.tolerance) {
                    error.pixelsOff = difference.differingPixels
                    error.largestDifference = difference.maxDifference
                    error.meanDifference = difference.meanDifference
                }
            }
            if worst == nil || error.isWorse(than: worst!) { worst = error }
        }
        return worst
    }

    /// `pose` with every item of the node at `path` (and of the nodes under it) drawn with the normal blend mode: its
    /// own mode, its mode inside its group, and the mode of every group it is drawn in (a blended symbol is drawn as
    /// one picture and blended as a whole).
    static func blendModesNormal(_ pose: Pose, under path: String) -> Pose {
        var pose = pose
        for i in pose.items.indices where shows(pose.items[i].path, under: path) {
            pose.items[i].blendMode = .normal
            pose.items[i].inGroup?.blendMode = .normal
            var group = pose.items[i].inGroup?.group
            while let g = group, pose.filterGroups.indices.contains(g) {
                pose.filterGroups[g].blendMode = .normal
                group = pose.filterGroups[g].parent
            }
        }
        for g in pose.filterGroups.indices where shows(pose.filterGroups[g].path, under: path) {
            pose.filterGroups[g].blendMode = .normal
        }
        return pose
    }

    /// `pose` without the items of the node at `path` and the nodes under it.
    static func without(_ pose: Pose, under path: String) -> Pose {
        var pose = pose
        pose.items.removeAll { shows($0.path, under: path) }
        return pose
    }

    /// Whether `itemPath` (an item's or a group's path) belongs to the node at `path` or a node under it.
    static func shows(_ itemPath: String, under path: String) -> Bool {
        itemPath == path || itemPath.hasPrefix(path + "/")
    }
}
