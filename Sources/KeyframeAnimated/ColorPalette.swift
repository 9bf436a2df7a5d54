/// Up to 255 opaque colours chosen for a set of pixels by median cut, and the mapping of colours onto them.
///
/// The colours are counted (each distinct RGB with how many pixels have it, in a fixed order), then the box of
/// colours whose pixel-weighted spread is largest is cut at its weighted median along its longest side, until there
/// are as many boxes as entries or no box holds two colours; each entry is its box's pixel-weighted mean. Pixels map
/// to the nearest entry (squared RGB distance, the lowest index on ties). The result depends only on the pixels, never
/// on the order of equal colours or on threads.
public struct ColorPalette: Sendable {
    /// The entries, as 0xRRGGBB.
    public private(set) var colors: [UInt32]
    private var cache: [UInt32: UInt8] = [:]

    /// Chooses at most `limit` (1…256) colours for the pixels `histogram` counts (0xRRGGBB → pixel count).
    public init(histogram: [UInt32: Int], limit: Int) {
        let limit = max(1, min(256, limit))
        var entries = histogram.map { (color: $0.key, count: $0.value) }.sorted { $0.color < $1.color }
        guard !entries.isEmpty else { colors = [0]; return }
        // Boxes are ranges of `entries`; a cut sorts its range along the axis and splits it.
        var boxes: [Range<Int>] = [0..<entries.count]
        // Each box's longest axis, its spread along it and its pixel count, kept as boxes are cut.
        var stats = [ColorPalette.measure(entries[0..<entries.count])]
        while boxes.count < limit {
            var best = -1, bestScore = 0.0
            for (index, stat) in stats.enumerated() where boxes[index].count > 1 && stat.spread > 0 {
                let score = Double(stat.spread) * Double(stat.weight).squareRoot()
                if score > bestScore { best = index; bestScore = score }
            }
            guard best >= 0 else { break }
            let box = boxes[best]
            let shift = UInt32(16 - 8 * stats[best].axis)
            entries[box].sort { a, b in
                let ca = a.color >> shift & 0xFF, cb = b.color >> shift & 0xFF
                return ca != cb ? ca < cb : a.color < b.color
            }
            let total = stats[best].weight
            var running = 0, cut = box.lowerBound + 1
            for index in box {
                running += entries[index].count
                if running * 2 >= total { cut = index + 1; break }
            }
            cut = min(max(cut, box.lowerBound + 1), box.upperBound - 1)
            boxes[best] = box.lowerBound..<cut
            boxes.insert(cut..<box.upperBound, at: best + 1)
            stats[best] = ColorPalette.measure(entries[boxes[best]])
            stats.insert(ColorPalette.measure(entries[boxes[best + 1]]), at: best + 1)
        }
        colors = boxes.map { box in
            var r = 0, g = 0, b = 0, n = 0
            for entry in entries[box] {
                r += Int(entry.color >> 16 & 0xFF) * entry.count
                g += Int(entry.color >> 8 & 0xFF) * entry.count
                b += Int(entry.color & 0xFF) * entry.count
                n += entry.count
            }
            let half = n / 2
            return UInt32((r + half) / n) << 16 | UInt32((g + half) / n) << 8 | UInt32((b + half) / n)
        }
    }

    /// The axis (0 red, 1 green, 2 blue) along which `entries` spread most, that spread, and their pixel count.
    private static func measure(_ entries: ArraySlice<(color: UInt32, count: Int)>)
        -> (axis: Int, spread: Int, weight: Int)
    {
        var low = [255, 255, 255], high = [0, 0, 0], weight = 0
        for entry in entries {
            weight += entry.count
            for axis in 0..<3 {
                let value = Int(entry.color >> UInt32(16 - 8 * axis) & 0xFF)
                low[axis] = min(low[axis], value); high[axis] = max(high[axis], value)
            }
        }
        var axis = 0
        for candidate in 1..<3 where high[candidate] - low[candidate] > high[axis] - low[axis] { axis = candidate }
        return (axis, high[axis] - low[axis], weight)
    }

    /// The index of the entry nearest to `r`, `g`, `b`.
    public mutating func index(r: Int, g: Int, b: Int) -> UInt8 {
        let key = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
        if let hit = cache[key] { return hit }
        var best = 0, bestDistance = Int.max
        for (index, color) in colors.enumerated() {
            let dr = Int(color >> 16 & 0xFF) - r, dg = Int(color >> 8 & 0xFF) - g, db = Int(color & 0xFF) - b
            let distance = dr * dr + dg * dg + db * db
            if distance < bestDistance { best = index; bestDistance = distance }
        }
        cache[key] = UInt8(best)
        return UInt8(best)
    }

    /// Counts the colours of the pixels of straight RGBA `pixels` (rows of `stride` pixels) inside `rect` whose
    /// alpha is at least `threshold`, into `histogram`.
    public static func count(_ pixels: [UInt8], stride: Int, rect: (x: Int, y: Int, width: Int, height: Int),
                             threshold: UInt8, into histogram: inout [UInt32: Int]) {
        for y in rect.y..<rect.y + rect.height {
            var offset = (y * stride + rect.x) * 4
            for _ in 0..<rect.width {
                if pixels[offset + 3] >= threshold {
                    let key = UInt32(pixels[offset]) << 16 | UInt32(pixels[offset + 1]) << 8 | UInt32(pixels[offset + 2])
                    histogram[key, default: 0] += 1
                }
                offset += 4
            }
        }
    }
}
