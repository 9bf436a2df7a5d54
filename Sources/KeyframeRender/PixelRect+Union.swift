import KeyframeRaster

extension PixelRect {
    /// The smallest rectangle holding both (an empty rectangle adds nothing).
    func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = Swift.min(x, other.x), y0 = Swift.min(y, other.y)
        return PixelRect(x: x0, y: y0, width: Swift.max(maxX, other.maxX) - x0,
                         height: Swift.max(maxY, other.maxY) - y0)
    }
}

extension Bitmap {
    /// Fills the pixels of `rect` (clipped to the bitmap) with `color`, premultiplied.
    mutating func clear(_ rect: PixelRect, to color: RGBAColor) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        let p = color.premultiplied
        // Pixels are stored r, g, b, a in memory; as a little- or big-endian word, build it from bytes.
        let word = [p.r, p.g, p.b, p.a].withUnsafeBytes { $0.load(as: UInt32.self) }
        let stride = width
        pixels.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            for y in r.y..<r.maxY {
                let start = y * stride + r.x
                UnsafeMutableBufferPointer(rebasing: words[start..<start + r.width]).update(repeating: word)
            }
        }
    }
}
