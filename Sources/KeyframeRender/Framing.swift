import KeyframeEngine
import KeyframeModel
import KeyframeRaster

/// How the scene is framed in the output: which rectangle of document space becomes the picture, and its size.
public struct Framing: Sendable, Equatable {
    /// What to frame.
    public enum Fit: String, Sendable, CaseIterable {
        /// The document's stage rectangle.
        case stage
        /// The union of everything the clip shows over all its rendered frames.
        case content
    }

    /// The output width in pixels.
    public var width: Int
    /// The output height in pixels.
    public var height: Int
    /// Root (document) coordinates → output pixels.
    public var rootToDevice: Affine

    /// Frames document rectangle `scene` in an output of `size` pixels (scaled to fit and centred), or at its own
    /// size when `size` is `nil` (one document pixel per output pixel, the rectangle rounded out to whole pixels).
    ///
    /// With `upscale` false a scene smaller than `size` keeps one document pixel per output pixel and is centred;
    /// only larger scenes are scaled (down) to fit.
    public init(scene: Rect, size: (width: Int, height: Int)?, upscale: Bool = true) {
        if let size {
            let w = Double(size.width), h = Double(size.height)
            var scale = scene.width > 0 && scene.height > 0 ? min(w / scene.width, h / scene.height) : 1
            if !upscale { scale = min(scale, 1) }
            let tx = (w - scene.width * scale) / 2 - scene.x * scale
            let ty = (h - scene.height * scale) / 2 - scene.y * scale
            self.width = size.width
            self.height = size.height
            self.rootToDevice = Affine(a: scale, b: 0, c: 0, d: scale, tx: tx, ty: ty)
        } else {
            let minX = (scene.x).rounded(.down), minY = (scene.y).rounded(.down)
            let maxX = (scene.x + scene.width).rounded(.up), maxY = (scene.y + scene.height).rounded(.up)
            // Saturating: an absurd stage must reach the size check below, not trap here.
            self.width = max(1, Int(saturatingRounded: maxX - minX))
            self.height = max(1, Int(saturatingRounded: maxY - minY))
            self.rootToDevice = .translation(-minX, -minY)
        }
    }

    /// The largest frame this renderer produces on either side.
    public static let maximumSide = 16384

    /// The bounds, in root coordinates, of everything `pose` draws, grown by the filters of the groups the items are
    /// in (their reach at one device pixel per document pixel); `nil` when it draws nothing.
    public static func bounds(of pose: Pose, library: AtlasLibrary) -> Rect? {
        guard !pose.filterGroups.isEmpty else { return bounds(of: pose.items[...], library: library, view: .identity) }
        let layout = FilterLayout(pose: pose, view: .identity)
        var box = BoundingBox()
        for index in pose.items.indices {
            guard let rect = bounds(of: pose.items[index...index], library: library, view: .identity) else { continue }
            let grow = layout.growth(inner: pose.items[index].inGroup?.group, outer: nil)
            box.add(Rect(x: rect.x - Double(grow.left), y: rect.y - Double(grow.top),
                         width: rect.width + Double(grow.left + grow.right),
                         height: rect.height + Double(grow.top + grow.bottom)))
        }
        return box.rect
    }

    /// The bounds of everything `items` draw, mapped through `view` (root → wherever), or `nil` when they draw
    /// nothing: mesh vertices, and the four corners of each sprite's picture.
    static func bounds(of items: ArraySlice<Pose.Item>, library: AtlasLibrary, view: Affine) -> Rect? {
        bounds(of: items, library: library, view: view) { item, sprite in
            (view.concatenating(Affine(item.transform)), sprite.size.width, sprite.size.height)
        }
    }

    /// The bounds of `items` mapped through `view`: mesh vertices, and for each sprite the four corners of the
    /// rectangle `quad` gives (its size, and the map from it to where the bounds are taken).
    static func bounds(of items: ArraySlice<Pose.Item>, library: AtlasLibrary, view: Affine,
                       quad: (Pose.Item, AtlasLibrary.ResolvedSprite) -> (transform: Affine, width: Double, height: Double))
        -> Rect?
    {
        var box = BoundingBox()
        for item in items {
            if let mesh = item.mesh {
                for p in mesh.positions {
                    let d = view.apply(SIMD2(p.x, p.y))
                    box.add(d.x, d.y)
                }
            } else if let sprite = library.sprite(item.sprite) {
                let (m, w, h) = quad(item, sprite)
                for (x, y) in [(0.0, 0.0), (w, 0), (w, h), (0, h)] {
                    let d = m.apply(SIMD2(x, y))
                    box.add(d.x, d.y)
                }
            }
        }
        return box.rect
    }
}

/// A growing axis-aligned box of finite points.
package struct BoundingBox {
    private(set) var minX = Double.infinity, minY = Double.infinity
    private(set) var maxX = -Double.infinity, maxY = -Double.infinity

    package init() {}

    package mutating func add(_ x: Double, _ y: Double) {
        guard x.isFinite, y.isFinite else { return }
        minX = min(minX, x); minY = min(minY, y)
        maxX = max(maxX, x); maxY = max(maxY, y)
    }

    package mutating func add(_ rect: Rect) {
        add(rect.x, rect.y)
        add(rect.x + rect.width, rect.y + rect.height)
    }

    package var rect: Rect? {
        guard minX <= maxX, minY <= maxY else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

extension Framing {
    /// Frames `plans`: the first scene's stage (when `fit` is `.stage` and the document has one) or the union of
    /// everything the plans draw; `fit` in the result says which was used.
    ///
    /// - Throws: ``RenderError`` when the requested size is not positive or too large.
    public static func make(plans: [FramePlan], scenes: [RenderScene], fit: Fit, size: (width: Int, height: Int)?,
                            upscale: Bool = true) throws(RenderError) -> (framing: Framing, fit: Fit)
    {
        try make(scenes: scenes, fit: fit, size: size, upscale: upscale) { add in
            for plan in plans {
                for layer in plan.layers where scenes.indices.contains(layer.scene) {
                    add(layer.pose(in: scenes[layer.scene]), scenes[layer.scene].library)
                }
            }
        }
    }

    /// ``make(plans:scenes:fit:size:upscale:)`` for one clip of `scene` whose frames' poses the caller has sampled
    /// already (`poses`: one per plan, as `FramePlan.Layer.pose(in:)` gives them), so that they are not sampled
    /// twice.
    public static func make(poses: [Pose], scene: RenderScene, fit: Fit, size: (width: Int, height: Int)?,
                            upscale: Bool = true) throws(RenderError) -> (framing: Framing, fit: Fit)
    {
        try make(scenes: [scene], fit: fit, size: size, upscale: upscale) { add in
            for pose in poses { add(pose, scene.library) }
        }
    }

    /// The framing of the stage, or of the bounds of every pose `visit` hands to its callback.
    private static func make(scenes: [RenderScene], fit: Fit, size: (width: Int, height: Int)?, upscale: Bool,
                             visit: ((Pose, AtlasLibrary) -> Void) -> Void) throws(RenderError)
        -> (framing: Framing, fit: Fit)
    {
        if let size {
            guard size.width > 0, size.height > 0, size.width <= maximumSide, size.height <= maximumSide else {
                throw RenderError(.invalidSetting(
                    "--size \(size.width)x\(size.height): each side must be between 1 and \(maximumSide) pixels"))
            }
        }
        if fit == .stage, let stage = scenes.first?.document.stage, stage.width > 0, stage.height > 0 {
            return (try checked(Framing(scene: stage, size: size, upscale: upscale)), .stage)
        }
        var box = BoundingBox()
        visit { pose, library in
            if let rect = bounds(of: pose, library: library) { box.add(rect) }
        }
        let scene = box.rect ?? Rect(x: 0, y: 0, width: 1, height: 1)
        return (try checked(Framing(scene: scene, size: size, upscale: upscale)), .content)
    }

    private static func checked(_ framing: Framing) throws(RenderError) -> Framing {
        guard framing.width <= maximumSide, framing.height <= maximumSide else {
            throw RenderError(.invalidSetting(
                "the framed scene is \(framing.width)×\(framing.height) pixels, more than \(maximumSide) on a side; "
                    + "use --size WxH to scale it down"))
        }
        return framing
    }
}
