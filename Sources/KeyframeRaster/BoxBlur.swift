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

    /// The box's weights in 32.32 fixed point: the full half-width `n`, the weight of each fully covered sample
    /// (`1/w`) and of the two fractional ends (`f/w`, `f = (w−1)/2 − n`). A sample's value is
    /// `(sum·inner + ends·edge + ½) >> 32`, within 0.03 of a level of the exact `(sum + f·ends)/w` for any width up
    /// to the clamp.
    private static func weights(_ size: Double) -> (n: Int, inner: Int, edge: Int) {
        let r = (size - 1) / 2
        let n = Int(r.rounded(.down))
        let one = 4_294_967_296.0
        return (n, Int((one / size).rounded()), Int(((r - Double(n)) * one / size).rounded()))
    }

    @inline(__always) private static func value(_ sum: Int, _ ends: Int, _ inner: Int, _ edge: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: min(255, (sum &* inner &+ ends &* edge &+ (1 << 31)) >> 32))
    }

    /// One pass along each of `lines` lines of `length` samples (`step` bytes apart, lines `lineStride` apart):
    /// a running sum over the fully weighted window plus the two fractional ends.
    private static func pass(from source: [UInt8], to target: inout [UInt8], lines: Int, length: Int, step: Int,
                             lineStride: Int, channels: Int, size: Double, outside: UInt8) {
        let (n, inner, edge) = weights(size)
        let o = Int(outside)
        // The window of sample 0 (−n…n): what lies outside the line counts as `outside`, so a box far wider than
        // the line costs no more than the line. Samples whose window reaches past an end read through a check; the
        // others (`interior`) read directly.
        let first = max(-n, 0), last = min(n, length - 1)
        let outsideCount = 2 * n + 1 - max(0, last - first + 1)
        let interior = (n + 1)..<max(n + 1, length - n - 1)
        source.withUnsafeBufferPointer { src in
            target.withUnsafeMutableBufferPointer { dst in
                for line in 0..<lines {
                    let base = line * lineStride
                    // An empty line stays empty (most lines of a filtered layer's margins).
                    if o == 0, !(0..<length * step).contains(where: { src[base + $0] != 0 }) {
                        for i in 0..<length * step { dst[base + i] = 0 }
                        continue
                    }
                    if channels == 4 && step == 4 {
                        passRGBA(src.baseAddress! + base, dst.baseAddress! + base, length: length, n: n, inner: inner,
                                 edge: edge, outside: o, first: first, last: last, outsideCount: outsideCount,
                                 interior: interior)
                        continue
                    }
                    for c in 0..<channels {
                        let p = base + c
                        @inline(__always) func sample(_ i: Int) -> Int { Int(src[p + i * step]) }
                        @inline(__always) func at(_ i: Int) -> Int { i < 0 || i >= length ? o : sample(i) }
                        var sum = o &* outsideCount
                        if first <= last { for i in first...last { sum &+= sample(i) } }
                        var x = 0
                        while x < length {
                            if x == interior.lowerBound && !interior.isEmpty {
                                while x < interior.upperBound {
                                    let enter = sample(x + n + 1)
                                    dst[p + x * step] = value(sum, sample(x - n - 1) &+ enter, inner, edge)
                                    sum &+= enter &- sample(x - n)
                                    x += 1
                                }
                                continue
                            }
                            dst[p + x * step] = value(sum, at(x - n - 1) &+ at(x + n + 1), inner, edge)
                            sum &+= at(x + n + 1) &- at(x - n)
                            x += 1
                        }
                    }
                }
            }
        }
    }

    /// One line of interleaved RGBA pixels: the four channels' running sums side by side, one sweep.
    @inline(__always) private static func passRGBA(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>,
                                                   length: Int, n: Int, inner: Int, edge: Int, outside o: Int,
                                                   first: Int, last: Int, outsideCount: Int, interior: Range<Int>) {
        @inline(__always) func at(_ i: Int, _ c: Int) -> Int { i < 0 || i >= length ? o : Int(src[i * 4 + c]) }
        var s0 = o * outsideCount, s1 = s0, s2 = s0, s3 = s0
        if first <= last {
            for i in first...last {
                s0 += Int(src[i * 4]); s1 += Int(src[i * 4 + 1]); s2 += Int(src[i * 4 + 2]); s3 += Int(src[i * 4 + 3])
            }
        }
        var x = 0
        while x < length {
            if x == interior.lowerBound && !interior.isEmpty {
                while x < interior.upperBound {
                    let l = (x - n - 1) * 4, e = (x + n + 1) * 4, g = (x - n) * 4, d = x * 4
                    let e0 = Int(src[e]), e1 = Int(src[e + 1]), e2 = Int(src[e + 2]), e3 = Int(src[e + 3])
                    dst[d] = value(s0, Int(src[l]) + e0, inner, edge)
                    dst[d + 1] = value(s1, Int(src[l + 1]) + e1, inner, edge)
                    dst[d + 2] = value(s2, Int(src[l + 2]) + e2, inner, edge)
                    dst[d + 3] = value(s3, Int(src[l + 3]) + e3, inner, edge)
                    s0 += e0 - Int(src[g]); s1 += e1 - Int(src[g + 1])
                    s2 += e2 - Int(src[g + 2]); s3 += e3 - Int(src[g + 3])
                    x += 1
                }
                continue
            }
            let d = x * 4
            dst[d] = value(s0, at(x - n - 1, 0) + at(x + n + 1, 0), inner, edge)
            dst[d + 1] = value(s1, at(x - n - 1, 1) + at(x + n + 1, 1), inner, edge)
            dst[d + 2] = value(s2, at(x - n - 1, 2) + at(x + n + 1, 2), inner, edge)
            dst[d + 3] = value(s3, at(x - n - 1, 3) + at(x + n + 1, 3), inner, edge)
            s0 += at(x + n + 1, 0) - at(x - n, 0); s1 += at(x + n + 1, 1) - at(x - n, 1)
            s2 += at(x + n + 1, 2) - at(x - n, 2); s3 += at(x + n + 1, 3) - at(x - n, 3)
            x += 1
        }
    }

    /// One pass down the columns, row by row, keeping a running sum per column (cache-friendly); rows outside the
    /// picture read from a row of `outside` values, so the inner loop has no branches.
    private static func columnPass(from source: [UInt8], to target: inout [UInt8], width: Int, height: Int,
                                   channels: Int, size: Double, outside: UInt8) {
        let (n, inner, edge) = weights(size)
        let rowLength = width * channels
        let o = Int(outside)
        // Where the picture has ink: with nothing outside it, the other columns stay empty and only rows within the
        // box's reach of the ink can receive any (a filtered layer is mostly margin).
        var columns = 0..<rowLength, rows = 0..<height
        if o == 0 {
            var c0 = rowLength, c1 = 0, r0 = height, r1 = 0
            source.withUnsafeBufferPointer { src in
                for y in 0..<height {
                    let start = y * rowLength
                    guard let first = (0..<rowLength).first(where: { src[start + $0] != 0 }) else { continue }
                    let last = (0..<rowLength).last(where: { src[start + $0] != 0 })!
                    c0 = min(c0, first)
                    c1 = max(c1, last + 1)
                    r0 = min(r0, y)
                    r1 = y + 1
                }
            }
            guard r0 < r1 else {
                for i in target.indices { target[i] = 0 }
                return
            }
            columns = (c0 / channels * channels)..<min(rowLength, (c1 + channels - 1) / channels * channels)
            rows = max(0, r0 - n - 1)..<min(height, r1 + n + 1)
        }
        var sums = [Int](repeating: 0, count: rowLength)
        let outsideRow = [UInt8](repeating: outside, count: rowLength)
        source.withUnsafeBufferPointer { src in
            outsideRow.withUnsafeBufferPointer { fill in
                target.withUnsafeMutableBufferPointer { dst in
                    sums.withUnsafeMutableBufferPointer { sum in
                        @inline(__always) func row(_ y: Int) -> UnsafePointer<UInt8> {
                            y >= 0 && y < height ? src.baseAddress! + y * rowLength : fill.baseAddress!
                        }
                        // Rows and columns out of reach of the ink stay empty.
                        for y in 0..<height where !rows.contains(y) {
                            for i in 0..<rowLength { dst[y * rowLength + i] = 0 }
                        }
                        for y in rows where columns.count < rowLength {
                            for i in 0..<rowLength where !columns.contains(i) { dst[y * rowLength + i] = 0 }
                        }
                        guard !rows.isEmpty else { return }
                        // The window of the first row y₀: rows y₀−n…y₀+n, those outside the picture counting as
                        // `outside`.
                        let y0 = rows.lowerBound
                        let first = max(y0 - n, 0), last = min(y0 + n, height - 1)
                        let outsideRows = 2 * n + 1 - max(0, last - first + 1)
                        for i in columns { sum[i] = o &* outsideRows }
                        if first <= last {
                            for y in first...last {
                                let r = row(y)
                                for i in columns { sum[i] &+= Int(r[i]) }
                            }
                        }
                        for y in rows {
                            let above = UnsafeRawPointer(row(y - n - 1)), below = UnsafeRawPointer(row(y + n + 1))
                            let leaving = UnsafeRawPointer(row(y - n))
                            let line = UnsafeMutableRawPointer(dst.baseAddress! + y * rowLength)
                            var i = columns.lowerBound
                            while i < columns.upperBound {
                                let b = Int(below.load(fromByteOffset: i, as: UInt8.self))
                                let a = Int(above.load(fromByteOffset: i, as: UInt8.self))
                                line.storeBytes(of: value(sum[i], a &+ b, inner, edge), toByteOffset: i, as: UInt8.self)
                                sum[i] &+= b &- Int(leaving.load(fromByteOffset: i, as: UInt8.self))
                                i += 1
                            }
                        }
                    }
                }
            }
        }
    }
}
