import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender

/// The frames of the clips both versions have, drawn by each version at the document's frame rate in one shared
/// framing, compared by pixels: which frames differ, and the pairs worth showing side by side.
public struct DiffFrames: Sendable {
    /// One frame drawn by both versions.
    public struct Pair: Sendable {
        /// Frames from the clip's start.
        public var frame: Int
        public var seconds: Double
        public var before: Bitmap
        public var after: Bitmap
        public var difference: BitmapDifference
    }

    /// One clip's comparison.
    public struct ClipFrames: Sendable {
        /// The clip's name in the newer version.
        public var clip: String
        /// Its name in the older version.
        public var beforeClip: String
        /// How many frames were compared.
        public var compared: Int
        /// How many differ beyond the pixel tolerance.
        public var differing: Int
        /// The frames shown: the most different one and others spread over the differing frames, in frame order.
        public var shown: [Pair]
        /// The newer clip's composition and first frame, so a page can place a clip frame on a composition's curves.
        public var composition: String = ""
        public var start: Int = 0
        /// The frames a page can scrub through (every frame up to ``DiffFrames/maximumScrubFrames``, else that many
        /// spread over the clip plus the shown ones), in frame order.
        public var moments: [Moment] = []
        /// The PNG pictures ``moments`` refer to, each distinct picture once.
        public var pictures: [[UInt8]] = []
    }

    /// One scrubbable frame: indices into ``ClipFrames/pictures`` and the figures of its difference.
    public struct Moment: Sendable {
        /// Frames from the clip's start.
        public var frame: Int
        public var seconds: Double
        public var before: Int
        public var after: Int
        /// The overlay picture, or -1 when both versions draw the frame alike (the page then shows the older
        /// picture in grey, which is what the overlay would be).
        public var overlay: Int
        /// Pixels beyond the pixel tolerance (0 for a frame both versions draw alike).
        public var differingPixels: Int
        public var maxDifference: Int
        /// The changed area, when any.
        public var bounds: (x: Int, y: Int, width: Int, height: Int)?
    }

    /// The clips, in the newer document's order.
    public var clips: [ClipFrames]

    /// The longest side of the drawn frames (larger scenes are scaled down to it).
    public static let maximumSide = 480
    /// The most frames compared per clip.
    public static let maximumFrames = 2000
    /// The most frames of a clip a page can scrub through (each is three pictures).
    public static let maximumScrubFrames = 120

    /// Draws and compares every frame of the clips `diff` matched, showing at most `perClip` differing frames of
    /// each; empty when either side's images are not available.
    public init(diff: DocumentDiff, before: DiffSide, after: DiffSide, perClip: Int = 6) {
        clips = []
        guard let sceneA = before.scene, let sceneB = after.scene else { return }
        let tolerance = diff.options.pixelTolerance
        var renderer = FrameRenderer()
        for (nameA, nameB) in diff.matchedClips {
            guard let clipA = before.document.clip(named: nameA), let clipB = after.document.clip(named: nameB) else {
                continue
            }
            let count = min(DiffFrames.maximumFrames,
                            max(MotionComparison.frameCount(clipA.duration), MotionComparison.frameCount(clipB.duration)))
            let plansA = (0..<count).map { FramePlan(number: $0, seconds: 0, layers: [.init(scene: 0, clip: clipA, time: Frames(Double($0)))]) }
            let plansB = (0..<count).map { FramePlan(number: $0, seconds: 0, layers: [.init(scene: 0, clip: clipB, time: Frames(Double($0)))]) }
            guard let framing = DiffFrames.framing(plansA, sceneA, plansB, sceneB) else { continue }
            var pairs: [Pair] = []
            var differing = 0
            let rate = after.document.frameRate.framesPerSecond
            let scrub = DiffFrames.spread(count: count, maximum: DiffFrames.maximumScrubFrames)
            var pictures = PictureSet()
            var moments: [Int: Moment] = [:]
            for index in 0..<count {
                var a = Bitmap(width: framing.width, height: framing.height)
                var b = Bitmap(width: framing.width, height: framing.height)
                renderer.render(plansA[index], scenes: [sceneA], framing: framing, background: .transparent, into: &a)
                renderer.render(plansB[index], scenes: [sceneB], framing: framing, background: .transparent, into: &b)
                let seconds = (Double(index) / rate * 1000).rounded() / 1000
                let difference = BitmapDifference(b, a, tolerance: tolerance)
                if scrub.contains(index) { moments[index] = pictures.moment(index, seconds, a, b, difference) }
                guard let difference, difference.differingPixels > 0 else { continue }
                differing += 1
                pairs.append(Pair(frame: index, seconds: seconds, before: a, after: b, difference: difference))
            }
            let shown = DiffFrames.pick(pairs, count: perClip)
            for pair in shown where moments[pair.frame] == nil {
                moments[pair.frame] = pictures.moment(pair.frame, pair.seconds, pair.before, pair.after, pair.difference)
            }
            clips.append(ClipFrames(clip: nameB, beforeClip: nameA, compared: count, differing: differing, shown: shown,
                                    composition: clipB.composition, start: Int(clipB.start.value.rounded(.down)),
                                    moments: moments.keys.sorted().compactMap { moments[$0] },
                                    pictures: pictures.encoded))
        }
    }

    /// `maximum` frame indices spread evenly over `0..<count` (all of them when there are few enough).
    static func spread(count: Int, maximum: Int) -> Set<Int> {
        guard count > maximum else { return Set(0..<count) }
        return Set((0..<maximum).map { $0 * (count - 1) / max(1, maximum - 1) })
    }

    /// The pictures of a clip's moments, encoded once each.
    private struct PictureSet {
        var encoded: [[UInt8]] = []
        var index: [[UInt8]: Int] = [:]
        var encoder = PNGEncoder(options: .fast)

        mutating func add(_ bitmap: Bitmap) -> Int {
            let bytes = (try? encoder.encode(bitmap)) ?? []
            if let known = index[bytes] { return known }
            encoded.append(bytes)
            index[bytes] = encoded.count - 1
            return encoded.count - 1
        }

        mutating func moment(_ frame: Int, _ seconds: Double, _ a: Bitmap, _ b: Bitmap, _ d: BitmapDifference?)
            -> Moment
        {
            let box = d?.bounds.map { (x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
            let before = add(a), after = add(b)
            let alike = (d?.differingPixels ?? 0) == 0 && before == after
            return Moment(frame: frame, seconds: seconds, before: before, after: after,
                          overlay: alike ? -1 : add(DiffFrames.overlay(a, b)), differingPixels: d?.differingPixels ?? 0,
                          maxDifference: d?.maxDifference ?? 0, bounds: box)
        }
    }

    /// The most different pair and others spread evenly over `pairs`, at most `count`, in frame order.
    static func pick(_ pairs: [Pair], count: Int) -> [Pair] {
        guard pairs.count > count, count > 0 else { return pairs }
        var chosen: Set<Int> = []
        if let worst = pairs.indices.max(by: { pairs[$0].difference.differingPixels < pairs[$1].difference.differingPixels }) {
            chosen.insert(worst)
        }
        var k = 0
        while chosen.count < count, k < count {
            chosen.insert(k * (pairs.count - 1) / max(1, count - 1))
            k += 1
        }
        return chosen.sorted().prefix(count).map { pairs[$0] }
    }

    /// One framing for both versions: the union of everything either draws, scaled down to ``maximumSide``.
    static func framing(_ plansA: [FramePlan], _ sceneA: RenderScene, _ plansB: [FramePlan], _ sceneB: RenderScene)
        -> Framing?
    {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (plans, scene) in [(plansA, sceneA), (plansB, sceneB)] {
            for plan in plans {
                for layer in plan.layers {
                    guard let rect = Framing.bounds(of: layer.pose(in: scene), library: scene.library) else { continue }
                    minX = min(minX, rect.x); minY = min(minY, rect.y)
                    maxX = max(maxX, rect.x + rect.width); maxY = max(maxY, rect.y + rect.height)
                }
            }
        }
        guard minX.isFinite, minY.isFinite, maxX > minX, maxY > minY else { return nil }
        let width = maxX - minX, height = maxY - minY
        let scale = min(1, Double(maximumSide) / max(width, height))
        let size = (width: max(1, Int((width * scale).rounded(.up))), height: max(1, Int((height * scale).rounded(.up))))
        return Framing(scene: Rect(x: minX, y: minY, width: width, height: height), size: size, upscale: false)
    }

    /// Both frames in one picture: the newer version's lightness in red, the older one's in green and blue, over
    /// white — what both draw alike is grey, what only the older one draws is red (green and blue darkened), only
    /// the newer one cyan.
    public static func overlay(_ before: Bitmap, _ after: Bitmap) -> Bitmap {
        var picture = Bitmap(width: after.width, height: after.height)
        guard before.width == after.width, before.height == after.height else { return picture }
        func lightness(_ p: [UInt8], _ i: Int) -> Int {
            let luma = (Int(p[i]) * 77 + Int(p[i + 1]) * 150 + Int(p[i + 2]) * 29) >> 8  // premultiplied
            return luma + (255 - Int(p[i + 3]))  // over white
        }
        let a = before.pixels, b = after.pixels
        picture.pixels.withUnsafeMutableBufferPointer { out in
            var i = 0
            while i < out.count {
                let la = UInt8(clamping: lightness(a, i)), lb = UInt8(clamping: lightness(b, i))
                out[i] = lb
                out[i + 1] = la
                out[i + 2] = la
                out[i + 3] = 255
                i += 4
            }
        }
        return picture
    }
}
