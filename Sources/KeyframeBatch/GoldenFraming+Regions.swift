import KeyframeModel
import KeyframeRender
import KeyframeVerify

extension GoldenFraming {
    /// The kept framings as the renderer pins them (``RenderSession/pinnedFramings``).
    public var regions: [String: Framing.Region] {
        clips.mapValues { entry in
            Framing.Region(bounds: Rect(x: entry.x, y: entry.y, width: entry.width, height: entry.height),
                           width: entry.pixelWidth, height: entry.pixelHeight)
        }
    }

    /// Keeps `framing` as the framing of the clip (or script) `name`.
    public mutating func keep(_ framing: Framing, for name: String) {
        let region = framing.region
        clips[name] = Entry(x: region.bounds.x, y: region.bounds.y, width: region.bounds.width,
                            height: region.bounds.height, pixelWidth: region.width, pixelHeight: region.height)
    }
}
