/// Produces premultiplied pixels for consecutive device pixels of one row.
protocol SpanSource {
    /// Positions the source at device pixel (`x`, `y`).
    mutating func start(x: Int, y: Int)
    /// The pixel at the current position; then advances one pixel to the right.
    mutating func next() -> UInt32
    /// Advances one pixel without reading it: a pixel with no coverage, whose texel may lie outside the atlas.
    mutating func skip()
    /// Whether the next `count` pixels can come from ``nextInterior()`` (no clamping needed).
    func isInterior(count: Int) -> Bool
    /// Like ``next()``, valid only while ``isInterior(count:)`` said so.
    mutating func nextInterior() -> UInt32
    /// The pixels among the next `count` that can come from ``nextInterior()``, as one range; an estimate
    /// that ``isInterior(count:)`` must confirm once the source stands at its start. Empty if unknown.
    func interiorRange(count: Int) -> Range<Int>
    /// Paints a leading part of `count` fully covered pixels in bulk, valid only while
    /// ``isInterior(count:)`` said so, with the result of ``nextInterior()`` and `B` pixel by pixel;
    /// returns how many pixels it painted and advanced over (0 when the source has no bulk kernel).
    mutating func paintInterior<B: PixelBlender>(
        _ blender: B.Type, destination: UnsafeMutablePointer<UInt32>, count: Int, opacity: UInt32
    ) -> Int
    /// Writes a leading part of the next `count` values of ``nextInterior()`` to `buffer` in bulk and
    /// advances over them, valid only while ``isInterior(count:)`` said so; returns how many (0 when the
    /// source has no bulk sampler).
    mutating func sampleInterior(into buffer: UnsafeMutablePointer<UInt32>, count: Int) -> Int
}

extension SpanSource {
    @inline(__always) mutating func skip() { _ = next() }
    @inline(__always) func isInterior(count: Int) -> Bool { false }
    @inline(__always) mutating func nextInterior() -> UInt32 { next() }
    @inline(__always) func interiorRange(count: Int) -> Range<Int> { 0..<0 }
    @inline(__always) mutating func paintInterior<B: PixelBlender>(
        _ blender: B.Type, destination: UnsafeMutablePointer<UInt32>, count: Int, opacity: UInt32
    ) -> Int { 0 }
    @inline(__always) mutating func sampleInterior(into buffer: UnsafeMutablePointer<UInt32>, count: Int) -> Int { 0 }
}

/// A constant premultiplied colour.
struct SolidSource: SpanSource {
    var pixel: UInt32
    @inline(__always) mutating func start(x: Int, y: Int) {}
    @inline(__always) mutating func next() -> UInt32 { pixel }
}

/// Bilinear samples of an atlas region under an inverse affine map, in 16.16 fixed point.
///
/// Samples are clamped to the region (edge texels repeat), so neighbouring atlas entries never bleed in.
struct BilinearSource: SpanSource {
    let texels: UnsafePointer<UInt32>
    let stride: Int
    let inverse: Affine
    let minS: Int, maxS: Int, minT: Int, maxT: Int
    let lastX: Int, lastY: Int
    let ds: Int, dt: Int
    var s = 0
    var t = 0

    /// `inverse` maps device points to atlas pixel coordinates; `region` is the sampled atlas rectangle.
    init(texels: UnsafePointer<UInt32>, stride: Int, region: PixelRect, inverse: Affine) {
        self.texels = texels
        self.stride = stride
        self.inverse = inverse
        minS = region.x << 16
        maxS = (region.maxX - 1) << 16
        minT = region.y << 16
        maxT = (region.maxY - 1) << 16
        lastX = region.maxX - 1
        lastY = region.maxY - 1
        ds = BilinearSource.fixed(inverse.a)
        dt = BilinearSource.fixed(inverse.b)
    }

    /// Converts to 16.16, saturating far outside any sane range (NaN gives 0) so the conversion cannot trap.
    @inline(__always)
    static func fixed(_ v: Double) -> Int {
        let limit = 1099511627776.0  // 2^40
        let clamped = v < -limit ? -limit : (v > limit ? limit : (v.isNaN ? 0 : v))
        return Int((clamped * 65536).rounded())
    }

    @inline(__always)
    mutating func start(x: Int, y: Int) {
        let cx = Double(x) + 0.5
        let cy = Double(y) + 0.5
        // Texel centres sit at half-integers, hence the −0.5.
        s = BilinearSource.fixed(inverse.a * cx + inverse.c * cy + inverse.tx - 0.5)
        t = BilinearSource.fixed(inverse.b * cx + inverse.d * cy + inverse.ty - 0.5)
    }

    @inline(__always)
    mutating func next() -> UInt32 {
        let sc = s < minS ? minS : (s > maxS ? maxS : s)
        let tc = t < minT ? minT : (t > maxT ? maxT : t)
        s &+= ds
        t &+= dt
        let x0 = sc >> 16
        let y0 = tc >> 16
        let dx = x0 < lastX ? 1 : 0
        let row0 = texels + y0 * stride + x0
        let row1 = y0 < lastY ? row0 + stride : row0
        return PixelMath.bilinear(
            row0[0], row0[dx], row1[0], row1[dx], UInt32(truncatingIfNeeded: (sc >> 8) & 0xFF),
            UInt32(truncatingIfNeeded: (tc >> 8) & 0xFF))
    }

    @inline(__always)
    func isInterior(count: Int) -> Bool {
        let n = count - 1
        // Positions move linearly, so the first and last sample bound all of them, unless the last
        // overflows (only for absurd scales, which then take the clamped path).
        let (sStep, sOver) = ds.multipliedReportingOverflow(by: n)
        let (tStep, tOver) = dt.multipliedReportingOverflow(by: n)
        let (s1, sOver1) = s.addingReportingOverflow(sStep)
        let (t1, tOver1) = t.addingReportingOverflow(tStep)
        if sOver || tOver || sOver1 || tOver1 { return false }
        return s >= minS && s < maxS && s1 >= minS && s1 < maxS && t >= minT && t < maxT && t1 >= minT && t1 < maxT
    }

    func interiorRange(count: Int) -> Range<Int> {
        var lo = 0
        var hi = count
        BilinearSource.narrow(&lo, &hi, position: s, step: ds, min: minS, max: maxS)
        BilinearSource.narrow(&lo, &hi, position: t, step: dt, min: minT, max: maxT)
        return lo < hi ? lo..<hi : 0..<0
    }

    /// Narrows `lo..<hi` to the `i` with `min ≤ position + i·step < max`.
    private static func narrow(_ lo: inout Int, _ hi: inout Int, position p: Int, step d: Int, min: Int, max: Int) {
        // Positions and steps are 16.16 values saturated near 2⁵⁶, so these differences cannot overflow.
        if d == 0 {
            if p < min || p >= max { hi = lo }
        } else if d > 0 {
            lo = Swift.max(lo, ceilDiv(min - p, d))
            hi = Swift.min(hi, floorDiv(max - 1 - p, d) + 1)
        } else {
            lo = Swift.max(lo, ceilDiv(p - (max - 1), -d))
            hi = Swift.min(hi, floorDiv(p - min, -d) + 1)
        }
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && a < 0) ? q - 1 : q
    }

    private static func ceilDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && a > 0) ? q + 1 : q
    }

    @inline(__always)
    mutating func nextInterior() -> UInt32 {
        let sc = s
        let tc = t
        s &+= ds
        t &+= dt
        let row0 = texels + (tc >> 16) * stride + (sc >> 16)
        let row1 = row0 + stride
        return PixelMath.bilinear(
            row0[0], row0[1], row1[0], row1[1], UInt32(truncatingIfNeeded: (sc >> 8) & 0xFF),
            UInt32(truncatingIfNeeded: (tc >> 8) & 0xFF))
    }

    @inline(__always)
    mutating func paintInterior<B: PixelBlender>(
        _ blender: B.Type, destination: UnsafeMutablePointer<UInt32>, count: Int, opacity: UInt32
    ) -> Int {
        guard B.self == NormalBlender.self else {
            return SampledSpanPainter.paint(&self, B.self, destination: destination, count: count, opacity: opacity,
                                            transform: { $0 })
        }
        return paintInteriorNormal(destination: destination, count: count, opacity: opacity)
    }
}

/// Texels copied one to one: the atlas region drawn at an integer offset with no scaling.
struct CopySource: SpanSource {
    let texels: UnsafePointer<UInt32>
    let stride: Int
    /// Atlas minus device coordinates.
    let offsetX: Int, offsetY: Int
    var cursor: UnsafePointer<UInt32>

    init(texels: UnsafePointer<UInt32>, stride: Int, offsetX: Int, offsetY: Int) {
        self.texels = texels
        self.stride = stride
        self.offsetX = offsetX
        self.offsetY = offsetY
        cursor = texels
    }

    @inline(__always) mutating func start(x: Int, y: Int) {
        cursor = texels + (y + offsetY) * stride + (x + offsetX)
    }

    @inline(__always) mutating func next() -> UInt32 {
        let v = cursor.pointee
        cursor += 1
        return v
    }

    /// A zero-coverage pixel at a span's end lies past the region — at the atlas's last row, past its storage.
    @inline(__always) mutating func skip() { cursor += 1 }
}

/// Applies a Flash colour transform to another source's pixels, on straight colour.
struct ColorTransformedSource<Inner: SpanSource>: SpanSource {
    var inner: Inner
    let kernel: ColorTransformKernel

    @inline(__always) mutating func start(x: Int, y: Int) { inner.start(x: x, y: y) }
    @inline(__always) mutating func next() -> UInt32 { kernel.apply(inner.next()) }
    @inline(__always) mutating func skip() { inner.skip() }
    @inline(__always) func isInterior(count: Int) -> Bool { inner.isInterior(count: count) }
    @inline(__always) mutating func nextInterior() -> UInt32 { kernel.apply(inner.nextInterior()) }

    /// The inner source's bulk samples, transformed pixel by pixel (same order as the scalar loop).
    @inline(__always) mutating func paintInterior<B: PixelBlender>(
        _ blender: B.Type, destination: UnsafeMutablePointer<UInt32>, count: Int, opacity: UInt32
    ) -> Int {
        let kernel = self.kernel
        return SampledSpanPainter.paint(&inner, B.self, destination: destination, count: count, opacity: opacity,
                                        transform: { kernel.apply($0) })
    }
}
