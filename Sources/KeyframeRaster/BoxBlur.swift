/// Flash's blur: `passes` passes of a box filter `width` pixels wide across the rows, then `height` pixels tall down
/// the columns, each pass stored in 8 bits.
///
/// The box is centred on the pixel and sub-pixel precise: a box `w` wide covers the interval [−w/2, w/2], and each
/// pixel weighs its overlap with it, divided by `w` (the centre pixel and `n = ⌊(w−1)/2⌋` on each side fully, the next
/// one on each side by the fraction `(w−1)/2 − n`). A box at most 1 wide changes nothing; odd whole widths are plain
/// box filters (as the SWF specification describes Flash Player's). Pixels outside the buffer count as `outside`
/// (0 for pictures; 255 for the inverted alpha of an inner glow).
public struct BoxBlur: Sendable, Equatable {
    /// Box width across the rows, in pixels.
    public var width: Double
    /// Box height down the columns, in pixels.
    public var height: Double
    /// Number of passes.
    public var passes: Int

    public init(width: Double, height: Double, passes: Int) {
        self.width = width
        self.height = height
        self.passes = passes
    }

    /// How many pixels one pass of a box `size` wide reaches beyond the pixel on each side.
    public static func reach(_ size: Double) -> Int {
        guard size.isFinite, size > 1 else { return 0 }
        return Int(((size - 1) / 2).rounded(.up))
    }

    /// How far the blurred picture reaches beyond the original on each side, in pixels.
    public var extent: (x: Int, y: Int) {
        let p = max(0, passes)
        return (BoxBlur.reach(width) * p, BoxBlur.reach(height) * p)
    }

    /// Whether blurring changes anything.
    public var isIdentity: Bool { passes <= 0 || (BoxBlur.reach(width) == 0 && BoxBlur.reach(height) == 0) }

    /// Blurs the premultiplied pixels of `bitmap` (all four channels); `scratch` is working memory, reused.
    public func apply(to bitmap: inout Bitmap, scratch: inout [UInt8]) {
        apply(to: &bitmap.pixels, width: bitmap.width, height: bitmap.height, channels: 4, outside: 0,
              scratch: &scratch)
    }

    /// Blurs `plane`, `width × height` samples of `channels` interleaved bytes each.
    public func apply(to plane: inout [UInt8], width: Int, height: Int, channels: Int, outside: UInt8,
                      scratch: inout [UInt8]) {
        guard !isIdentity, width > 0, height > 0, plane.count >= width * height * channels else { return }
        // The passes swap the two buffers: the same length keeps `plane`'s (a bitmap's pixels stay whole).
        if scratch.count > plane.count {
            scratch.removeLast(scratch.count - plane.count)
        } else if scratch.count < plane.count {
            scratch.append(contentsOf: repeatElement(0, count: plane.count - scratch.count))
        }
        for _ in 0..<passes {
            if BoxBlur.reach(self.width) > 0 {
                BoxBlur.pass(from: plane, to: &scratch, lines: height, length: width, step: channels,
                             lineStride: width * channels, channels: channels, size: self.width, outside: outside)
                swap(&plane, &scratch)
            }
            if BoxBlur.reach(self.height) > 0 {
                BoxBlur.columnPass(from: plane, to: &scratch, width: width, height: height, channels: channels,
                                   size: self.height, outside: outside)
                swap(&plane, &scratch)
            }
        }
    }

    /// The box's weights: the fraction `f` of the outermost pixel on each side, the full half-width `n`, and `1/w`.
    private static func weights(_ size: Double) -> (n: Int, fraction: Double, scale: Double) {
        let r = (size - 1) / 2
        let n = Int(r.rounded(.down))
        return (n, r - Double(n), 1 / size)
    }

    /// One pass along each of `lines` lines of `length` samples (`step` bytes apart, lines `lineStride` apart):
    /// a running sum over the fully weighted window plus the two fractional ends.
    private static func pass(from source: [UInt8], to target: inout [UInt8], lines: Int, length: Int, step: Int,
                             lineStride: Int, channels: Int, size: Double, outside: UInt8) {
        let (n, f, scale) = weights(size)
        let o = Int(outside)
        source.withUnsafeBufferPointer { src in
            target.withUnsafeMutableBufferPointer { dst in
                for line in 0..<lines {
                    let base = line * lineStride
                    for c in 0..<channels {
                        @inline(__always) func at(_ i: Int) -> Int {
                            i < 0 || i >= length ? o : Int(src[base + i * step + c])
                        }
                        // The window of sample 0 (−n…n): what lies outside the line counts as `outside`, so a box far
                        // wider than the line costs no more than the line.
                        let first = max(-n, 0), last = min(n, length - 1)
                        var sum = o * (2 * n + 1 - max(0, last - first + 1))
                        if first <= last { for i in first...last { sum += at(i) } }
                        for x in 0..<length {
                            let ends = at(x - n - 1) + at(x + n + 1)
                            let value = (Double(sum) + f * Double(ends)) * scale
                            dst[base + x * step + c] = UInt8(min(255, Int(value + 0.5)))
                            sum += at(x + n + 1) - at(x - n)
                        }
                    }
                }
            }
        }
    }

    /// One pass down the columns, row by row, keeping a running sum per column (cache-friendly).
    private static func columnPass(from source: [UInt8], to target: inout [UInt8], width: Int, height: Int,
                                   channels: Int, size: Double, outside: UInt8) {
        let (n, f, scale) = weights(size)
        let rowLength = width * channels
        let o = Int(outside)
        var sums = [Int](repeating: 0, count: rowLength)
        source.withUnsafeBufferPointer { src in
            target.withUnsafeMutableBufferPointer { dst in
                sums.withUnsafeMutableBufferPointer { sum in
                    // The window of row 0: rows −n…n, those outside the picture counting as `outside`.
                    let first = max(-n, 0), last = min(n, height - 1)
                    let outsideRows = 2 * n + 1 - max(0, last - first + 1)
                    for i in 0..<rowLength { sum[i] = o * outsideRows }
                    if first <= last {
                        for row in first...last {
                            let start = row * rowLength
                            for i in 0..<rowLength { sum[i] += Int(src[start + i]) }
                        }
                    }
                    for y in 0..<height {
                        let above = y - n - 1, below = y + n + 1, leaving = y - n
                        let aboveStart = above >= 0 && above < height ? above * rowLength : -1
                        let belowStart = below >= 0 && below < height ? below * rowLength : -1
                        let leavingStart = leaving >= 0 && leaving < height ? leaving * rowLength : -1
                        let out = y * rowLength
                        for i in 0..<rowLength {
                            let a = aboveStart < 0 ? o : Int(src[aboveStart + i])
                            let b = belowStart < 0 ? o : Int(src[belowStart + i])
                            let value = (Double(sum[i]) + f * Double(a + b)) * scale
                            dst[out + i] = UInt8(min(255, Int(value + 0.5)))
                            sum[i] += b - (leavingStart < 0 ? o : Int(src[leavingStart + i]))
                        }
                    }
                }
            }
        }
    }
}
