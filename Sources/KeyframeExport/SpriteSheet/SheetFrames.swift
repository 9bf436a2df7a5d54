import KeyframeModel
import KeyframeRaster
import KeyframeRender

/// Every frame of the chosen clips rendered as `keyframe render` renders it, trimmed to its visible pixels, with
/// identical trimmed pictures stored once.
struct SheetFrames: Sendable {
    /// One output frame of one clip.
    struct Frame: Sendable {
        /// The clip's name.
        var clip: String
        /// The frame's number in the clip (as in `keyframe render`'s `<clip>-NNNN.png`).
        var number: Int
        /// The frame's duration in milliseconds (one frame at the document's rate).
        var milliseconds: Double
        /// The untrimmed frame's size (the clip's framing).
        var sourceWidth: Int, sourceHeight: Int
        /// Where the trimmed picture sits in the untrimmed frame.
        var trimX: Int, trimY: Int
        /// The picture this frame shows (an index into ``SheetFrames/pictures``).
        var picture: Int
    }

    /// A trimmed picture: its size and RGBA bytes (straight or premultiplied, as the settings ask).
    struct Picture: Sendable, Equatable {
        var width: Int, height: Int
        var pixels: [UInt8]
    }

    /// Frames in clip order, then frame order.
    var frames: [Frame]
    /// The distinct trimmed pictures, in order of first use.
    var pictures: [Picture]

    /// Renders every frame of `clips` in `scene` at the document's rate, framed as `keyframe render` frames them;
    /// at a `scale` other than 1, as `render --size` draws them at that multiple of the frame size (sides rounded).
    static func render(_ clips: [Clip], scene: RenderScene, scale: Double = 1, premultiplied: Bool, jobs: Int?)
        throws(RenderError) -> SheetFrames
    {
        let document = scene.document
        let rate = document.frameRate.framesPerSecond
        var work: [(clip: Clip, plan: FramePlan, framing: Framing)] = []
        for clip in clips {
            let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate, fps: rate, selection: .all)
            var framing = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: nil).framing
            if scale != 1 {
                let size = (width: max(1, Int((Double(framing.width) * scale).rounded())),
                            height: max(1, Int((Double(framing.height) * scale).rounded())))
                framing = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: size).framing
            }
            work += plans.map { (clip, $0, framing) }
        }
        let drawn = ClipWorkers.map(work.count, jobs: jobs) { index -> (picture: Picture, trim: PixelRect) in
            var renderer = FrameRenderer()
            var bitmap = Bitmap(width: 0, height: 0)
            let item = work[index]
            renderer.render(item.plan, scenes: [scene], framing: item.framing, background: .transparent, into: &bitmap)
            return trimmed(bitmap, premultiplied: premultiplied)
        }
        var sheet = SheetFrames(frames: [], pictures: [])
        // Pictures by a digest of their bytes (hashed in bulk), compared in full on a match.
        var seen: [Int: [Int]] = [:]
        for (item, result) in zip(work, drawn) {
            var hasher = Hasher()
            hasher.combine(result.picture.width)
            result.picture.pixels.withUnsafeBytes { hasher.combine(bytes: $0) }
            let digest = hasher.finalize()
            let picture: Int
            if let known = seen[digest]?.first(where: { sheet.pictures[$0] == result.picture }) {
                picture = known
            } else {
                picture = sheet.pictures.count
                seen[digest, default: []].append(picture)
                sheet.pictures.append(result.picture)
            }
            sheet.frames.append(Frame(clip: item.clip.name, number: item.plan.number, milliseconds: 1000 / rate,
                                      sourceWidth: item.framing.width, sourceHeight: item.framing.height,
                                      trimX: result.trim.x, trimY: result.trim.y, picture: picture))
        }
        return sheet
    }

    /// `bitmap` cut to the smallest rectangle holding every pixel with alpha above zero (a transparent frame keeps
    /// its top-left pixel), and that rectangle.
    static func trimmed(_ bitmap: Bitmap, premultiplied: Bool) -> (picture: Picture, trim: PixelRect) {
        var (minX, minY, maxX, maxY) = (bitmap.width, bitmap.height, -1, -1)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<bitmap.height {
                let row = y * bitmap.width * 4
                for x in 0..<bitmap.width where pixels[row + x * 4 + 3] != 0 {
                    minX = min(minX, x); maxX = max(maxX, x)
                    minY = min(minY, y); maxY = max(maxY, y)
                }
            }
        }
        let rect = maxX < 0 ? PixelRect(x: 0, y: 0, width: 1, height: 1)
            : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
        let cut = bitmap.cropped(to: rect)
        let pixels = premultiplied ? cut.pixels : cut.straightRGBA()
        return (Picture(width: cut.width, height: cut.height, pixels: pixels), rect)
    }
}
