/// How two bitmaps of the same size differ, pixel by pixel: the figures `keyframe verify` reports and the tests use.
///
/// Channels are compared as stored (premultiplied RGBA8). A pixel *differs* when any of its four channels differs by
/// more than the tolerance.
///
/// ```swift
/// if let difference = BitmapDifference(actual, expected, tolerance: 2), difference.differingPixels > 0 {
///     let picture = difference.image(actual: actual, expected: expected)
/// }
/// ```
public struct BitmapDifference: Sendable, Hashable {
    /// The bitmaps' width.
    public var width: Int
    /// The bitmaps' height.
    public var height: Int
    /// The per-channel tolerance the pixels were counted with.
    public var tolerance: Int
    /// The largest difference of any channel of any pixel (0–255).
    public var maxDifference: Int
    /// The mean absolute difference over every channel of every pixel (0–255).
    public var meanDifference: Double
    /// Pixels with a channel that differs by more than ``tolerance``.
    public var differingPixels: Int
    /// The smallest rectangle holding every differing pixel; `nil` when none differs.
    public var bounds: PixelRect?
    /// The first differing pixel in reading order; `nil` when none differs.
    public var first: (x: Int, y: Int)? {
        firstIndex.map { ($0 % width, $0 / width) }
    }
    private var firstIndex: Int?

    /// The share of pixels that differ (0…1).
    public var differingShare: Double {
        width * height == 0 ? 0 : Double(differingPixels) / Double(width * height)
    }

    /// Measures how `actual` differs from `expected`; `nil` when their sizes differ.
    ///
    /// - Parameters:
    ///   - actual: the picture being checked.
    ///   - expected: the picture it should be.
    ///   - tolerance: the largest per-channel difference that still counts as equal (0–255).
    public init?(_ actual: Bitmap, _ expected: Bitmap, tolerance: Int = 0) {
        guard actual.width == expected.width, actual.height == expected.height else { return nil }
        let width = expected.width
        self.width = width
        height = expected.height
        self.tolerance = tolerance
        var maxDifference = 0, differing = 0, total = 0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        var firstIndex: Int? = nil
        actual.pixels.withUnsafeBufferPointer { a in
            expected.pixels.withUnsafeBufferPointer { e in
                var i = 0
                let count = min(a.count, e.count)
                while i < count {
                    let d0 = abs(Int(a[i]) - Int(e[i])), d1 = abs(Int(a[i + 1]) - Int(e[i + 1]))
                    let d2 = abs(Int(a[i + 2]) - Int(e[i + 2])), d3 = abs(Int(a[i + 3]) - Int(e[i + 3]))
                    total += d0 + d1 + d2 + d3
                    let worst = max(max(d0, d1), max(d2, d3))
                    if worst > maxDifference { maxDifference = worst }
                    if worst > tolerance {
                        let pixel = i >> 2
                        let x = pixel % width, y = pixel / width
                        differing += 1
                        if firstIndex == nil { firstIndex = pixel }
                        minX = min(minX, x); maxX = max(maxX, x)
                        minY = min(minY, y); maxY = max(maxY, y)
                    }
                    i += 4
                }
            }
        }
        self.maxDifference = maxDifference
        self.differingPixels = differing
        self.firstIndex = firstIndex
        self.meanDifference = width * height == 0 ? 0 : Double(total) / Double(width * height * 4)
        self.bounds = differing == 0 ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// A picture of the difference: the expected frame faded to a pale grey, every differing pixel in solid red, and
    /// pixels that differ only within the tolerance in pale orange, so the changed region stands out at a glance.
    public func image(actual: Bitmap, expected: Bitmap) -> Bitmap {
        var picture = Bitmap(width: width, height: height)
        guard actual.width == width, actual.height == height, expected.width == width, expected.height == height
        else { return picture }
        let a = actual.pixels, e = expected.pixels
        picture.pixels.withUnsafeMutableBufferPointer { out in
            var i = 0
            while i < out.count {
                var worst = 0
                for c in 0..<4 { worst = max(worst, abs(Int(a[i + c]) - Int(e[i + c]))) }
                if worst > tolerance {
                    out[i] = 255; out[i + 1] = 0; out[i + 2] = 0
                } else if worst > 0 {
                    out[i] = 255; out[i + 1] = 200; out[i + 2] = 150
                } else {
                    // Luminance of the expected pixel over white, squeezed into 190…250: visible, clearly faded.
                    let alpha = Int(e[i + 3])
                    let luma = (Int(e[i]) * 77 + Int(e[i + 1]) * 150 + Int(e[i + 2]) * 29) >> 8  // premultiplied
                    let overWhite = luma + (255 - alpha)
                    let faded = UInt8(190 + overWhite * 60 / 255)
                    out[i] = faded; out[i + 1] = faded; out[i + 2] = faded
                }
                out[i + 3] = 255
                i += 4
            }
        }
        return picture
    }
}
