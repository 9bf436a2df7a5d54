/// Rectangles found in raw 8-bit RGBA pixel buffers (rows tightly packed, four bytes a pixel, straight or
/// premultiplied): what the preview's patches and the animated PNG's frames store.
extension PixelRect {
    /// The smallest rectangle holding every pixel whose four bytes differ between `a` and `b`; `nil` when none does
    /// (or the buffers do not hold `width` × `height` pixels).
    public static func changes(between a: [UInt8], and b: [UInt8], width: Int, height: Int) -> PixelRect? {
        guard width > 0, height > 0, a.count == width * height * 4, b.count == a.count else { return nil }
        return a.withUnsafeBytes { ra in
            b.withUnsafeBytes { rb in
                let pa = ra.bindMemory(to: UInt32.self), pb = rb.bindMemory(to: UInt32.self)
                return scan(width: width, height: height) { pa[$0] != pb[$0] }
            }
        }
    }

    /// The smallest rectangle holding every pixel whose alpha (its fourth byte) is not zero; `nil` when all are
    /// transparent.
    public static func nonTransparent(in pixels: [UInt8], width: Int, height: Int) -> PixelRect? {
        guard width > 0, height > 0, pixels.count == width * height * 4 else { return nil }
        // The fourth byte of each pixel is the top byte of a little-endian word.
        let alpha = UInt32(littleEndian: 0xFF00_0000)
        return pixels.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            return scan(width: width, height: height) { words[$0] & alpha != 0 }
        }
    }

    /// The bounds of the pixels (by index) for which `marked` holds, scanning each row from both ends.
    private static func scan(width: Int, height: Int, _ marked: (Int) -> Bool) -> PixelRect? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<height {
            let row = y * width
            var x = 0
            while x < width, !marked(row + x) { x += 1 }
            guard x < width else { continue }
            var last = width - 1
            while !marked(row + last) { last -= 1 }
            minX = min(minX, x); maxX = max(maxX, last)
            minY = min(minY, y); maxY = y
        }
        guard maxX >= 0 else { return nil }
        return PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}
