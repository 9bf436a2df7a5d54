#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The heat map of a difference: how much each pixel changed, on one fixed scale for every frame and every report,
/// so a change of 5 and a change of 60 never look alike.
extension BitmapDifference {
    /// The colour stops of the scale, by position on a logarithmic axis from a difference of 1 (0) to 255 (1):
    /// indigo, blue, cyan, green, yellow, orange, red.
    static let heatStops: [(position: Double, r: Double, g: Double, b: Double)] = [
        (0.0, 48, 18, 160), (0.25, 20, 110, 230), (0.45, 0, 190, 200), (0.6, 60, 200, 60),
        (0.75, 240, 210, 0), (0.88, 250, 120, 0), (1.0, 200, 0, 0),
    ]

    /// Where a difference of `value` (1–255) sits on the scale: log₂(value) / log₂(255), 0…1.
    public static func heatPosition(_ value: Int) -> Double {
        guard value > 1 else { return 0 }
        return min(1, log2(Double(min(value, 255))) / log2(255))
    }

    /// The colour of a difference of `value` beyond the tolerance (1–255).
    public static func heatColor(_ value: Int) -> RGBAColor {
        let t = heatPosition(value)
        var lower = heatStops[0], upper = heatStops[heatStops.count - 1]
        for (a, b) in zip(heatStops, heatStops.dropFirst()) where t >= a.position && t <= b.position {
            lower = a
            upper = b
            break
        }
        let f = upper.position > lower.position ? (t - lower.position) / (upper.position - lower.position) : 0
        func mix(_ x: Double, _ y: Double) -> UInt8 { UInt8((x + (y - x) * f).rounded()) }
        return RGBAColor(r: mix(lower.r, upper.r), g: mix(lower.g, upper.g), b: mix(lower.b, upper.b))
    }

    /// The colour of pixels that differ only within the tolerance: a pale lavender, visible but quiet.
    public static let withinToleranceColor = RGBAColor(r: 214, g: 214, b: 240)

    /// The heat map: each pixel whose largest channel difference is beyond ``tolerance`` in the colour of that
    /// difference (``heatColor(_:)``, the same scale for every frame), pixels within the tolerance in
    /// ``withinToleranceColor``, and unchanged pixels as the expected frame faded to a pale grey for orientation.
    public func heatMap(actual: Bitmap, expected: Bitmap) -> Bitmap {
        var picture = Bitmap(width: width, height: height)
        guard actual.width == width, actual.height == height, expected.width == width, expected.height == height
        else { return picture }
        let colours = (0...255).map { BitmapDifference.heatColor($0) }
        let quiet = BitmapDifference.withinToleranceColor
        let a = actual.pixels, e = expected.pixels
        picture.pixels.withUnsafeMutableBufferPointer { out in
            var i = 0
            while i < out.count {
                var worst = 0
                for c in 0..<4 { worst = max(worst, abs(Int(a[i + c]) - Int(e[i + c]))) }
                if worst > tolerance {
                    let colour = colours[worst]
                    out[i] = colour.r; out[i + 1] = colour.g; out[i + 2] = colour.b
                } else if worst > 0 {
                    out[i] = quiet.r; out[i + 1] = quiet.g; out[i + 2] = quiet.b
                } else {
                    // The expected pixel's lightness over white, squeezed into 200…250.
                    let alpha = Int(e[i + 3])
                    let luma = (Int(e[i]) * 77 + Int(e[i + 1]) * 150 + Int(e[i + 2]) * 29) >> 8  // premultiplied
                    let faded = UInt8(200 + (luma + 255 - alpha) * 50 / 255)
                    out[i] = faded; out[i + 1] = faded; out[i + 2] = faded
                }
                out[i + 3] = 255
                i += 4
            }
        }
        return picture
    }

    /// The scale as a picture, `width` × `height` pixels: column x shows the colour of the difference at position
    /// x / (width − 1) of the logarithmic axis (1 on the left, 255 on the right).
    public static func heatLegend(width: Int = 256, height: Int = 12) -> Bitmap {
        var picture = Bitmap(width: width, height: height)
        for x in 0..<width {
            let t = width > 1 ? Double(x) / Double(width - 1) : 0
            let value = Int(pow(2, t * log2(255)).rounded())
            let colour = heatColor(max(1, value)).premultiplied
            for y in 0..<height { picture.setPixel(x: x, y: y, colour) }
        }
        return picture
    }
}
