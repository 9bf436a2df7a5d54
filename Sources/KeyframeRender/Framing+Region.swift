import KeyframeModel
import KeyframeRaster

extension Framing {
    /// A framing pinned down: the document rectangle the picture shows and the picture's size in pixels.
    ///
    /// What an approved (golden) frame set keeps beside its frames, so later renders frame every clip exactly as the
    /// approved frames were framed, whatever the content does: a part moved outward changes only the frames where it
    /// shows, not the framing of every frame.
    public struct Region: Sendable, Hashable {
        /// The document (root) rectangle the picture covers, from its top-left to its bottom-right corner.
        public var bounds: Rect
        /// The picture's width in pixels.
        public var width: Int
        /// The picture's height in pixels.
        public var height: Int

        public init(bounds: Rect, width: Int, height: Int) {
            self.bounds = bounds
            self.width = width
            self.height = height
        }
    }

    /// The region this framing shows: the picture's corners mapped back to document coordinates (the framing is a
    /// uniform scale and a translation).
    public var region: Region {
        let m = rootToDevice
        let scale = m.a != 0 ? m.a : 1
        return Region(bounds: Rect(x: -m.tx / scale, y: -m.ty / scale, width: Double(width) / scale,
                                   height: Double(height) / scale),
                      width: width, height: height)
    }

    /// Frames `region`'s rectangle, at the region's own size or at `size` (scaled to fit and centred).
    ///
    /// - Throws: ``RenderError`` when the size is not positive or larger than ``maximumSide``.
    public init(region: Region, size: (width: Int, height: Int)? = nil) throws(RenderError) {
        let size = size ?? (region.width, region.height)
        guard size.width > 0, size.height > 0, size.width <= Framing.maximumSide, size.height <= Framing.maximumSide,
            region.bounds.width > 0, region.bounds.height > 0, region.bounds.width.isFinite,
            region.bounds.height.isFinite, region.bounds.x.isFinite, region.bounds.y.isFinite
        else {
            throw RenderError(.invalidSetting(
                "the framing \(region.bounds.x),\(region.bounds.y),\(region.bounds.width),\(region.bounds.height) at "
                    + "\(size.width)×\(size.height) pixels is empty or too large (each side 1 to \(Framing.maximumSide))"))
        }
        self.init(scene: region.bounds, size: size)
    }

    /// Frames the document rectangle `bounds` (`--bounds`): at one document pixel per output pixel, rounded out to
    /// whole pixels, or scaled to fit `size` and centred.
    ///
    /// - Throws: ``RenderError`` when the rectangle is empty or not finite, or the picture would be larger than
    ///   ``maximumSide``.
    public static func make(bounds: Rect, size: (width: Int, height: Int)?) throws(RenderError) -> Framing {
        guard bounds.width > 0, bounds.height > 0, bounds.x.isFinite, bounds.y.isFinite, bounds.width.isFinite,
            bounds.height.isFinite
        else {
            throw RenderError(.invalidSetting("the bounds \(bounds.x),\(bounds.y),\(bounds.width),\(bounds.height) are "
                                              + "empty: width and height must be above 0"))
        }
        if let size { return try Framing(region: Region(bounds: bounds, width: size.width, height: size.height)) }
        let framing = Framing(scene: bounds, size: nil)
        guard framing.width <= maximumSide, framing.height <= maximumSide else {
            throw RenderError(.invalidSetting(
                "the bounds frame \(framing.width)×\(framing.height) pixels, more than \(maximumSide) on a side; "
                    + "add a size to scale them down"))
        }
        return framing
    }
}
