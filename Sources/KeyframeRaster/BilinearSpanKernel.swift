/// The vector kernel of the hottest span: bilinear samples of an interior run blended `.normal`.
///
/// Four pixels per iteration, with exactly the integer arithmetic of ``PixelMath/bilinear(_:_:_:_:_:_:)``,
/// ``PixelMath/scale(_:_:)`` and ``NormalBlender/blend(_:_:)``, so results are bit-identical to the scalar
/// loop. A packed pixel viewed as eight `UInt16` lanes per vector holds the scalar code's two 16-bit
/// lanes (`0x00FF00FF` mask) side by side, so one 16-bit multiply does what the scalar code does with a
/// 32-bit multiply on two lanes; every lane sum stays below 2¹⁶ exactly as in the scalar code.
/// Per-pixel weights are kept duplicated in both halves of each 32-bit lane.
extension BilinearSource {
    /// Paints the leading `count & ~3` pixels of an interior run (``isInterior(count:)`` must hold for
    /// `count`) with normal blending and a 0–256 `opacity` weight; returns how many pixels it painted.
    ///
    /// The scalar loop skips transparent sources and returns opaque ones unchanged; both are what the
    /// blend formula yields anyway (`D·256/256 = D`, `D·0 = 0`), so the vector loop just blends.
    @inline(__always)
    mutating func paintInteriorNormal(destination: UnsafeMutablePointer<UInt32>, count: Int, opacity: UInt32) -> Int {
        let groups = count >> 2
        if groups == 0 { return 0 }
        if opacity >= 256 {
            paintGroups(destination: destination, groups: groups, opacity: 256, scaled: false)
        } else {
            paintGroups(destination: destination, groups: groups, opacity: opacity, scaled: true)
        }
        return groups << 2
    }

    @inline(__always)
    private mutating func paintGroups(
        destination: UnsafeMutablePointer<UInt32>, groups: Int, opacity: UInt32, scaled: Bool
    ) {
        typealias V16 = GroupSampler.V16
        typealias V32 = GroupSampler.V32
        let low = V16(repeating: 0x00FF)
        let high = V16(repeating: 0xFF00)
        let rounding = V16(repeating: 0x0080)
        let alphaWhole = V32(repeating: 256)
        let alpha16 = V16(repeating: UInt16(truncatingIfNeeded: opacity))
        var sampler = GroupSampler(self)
        var out = destination
        for _ in 0..<groups {
            var source = sampler.next()
            if scaled {
                let srb = ((source & low) &* alpha16 &+ rounding) &>> 8
                let sga = ((source &>> 8) &* alpha16 &+ rounding) & high
                source = srb | sga
            }

            let src = GroupSampler.v32(source)
            let sa = src &>> 24
            let k = alphaWhole &- sa &- (sa &>> 7)
            let k16 = GroupSampler.v16(k | (k &<< 16))
            let d = GroupSampler.v16(UnsafeRawPointer(out).loadUnaligned(as: V32.self))
            let drb = ((d & low) &* k16 &+ rounding) &>> 8
            let dga = ((d &>> 8) &* k16 &+ rounding) & high
            UnsafeMutableRawPointer(out).storeBytes(of: src &+ GroupSampler.v32(drb | dga), as: V32.self)
            out += 4
        }
        s = sampler.s
        t = sampler.t
    }

    /// Writes the next `count & ~3` interior samples (``nextInterior()``'s values, before opacity) to
    /// `buffer` and advances over them, four pixels per iteration with the arithmetic of ``paintGroups``;
    /// returns how many it wrote. For the paints without a fused kernel (other blend modes, colour
    /// transforms), which then finish each pixel as the scalar loop does.
    @inline(__always)
    mutating func sampleInterior(into buffer: UnsafeMutablePointer<UInt32>, count: Int) -> Int {
        let groups = count >> 2
        if groups == 0 { return 0 }
        var sampler = GroupSampler(self)
        var out = buffer
        for _ in 0..<groups {
            UnsafeMutableRawPointer(out).storeBytes(of: GroupSampler.v32(sampler.next()), as: GroupSampler.V32.self)
            out += 4
        }
        s = sampler.s
        t = sampler.t
        return groups << 2
    }
}

/// Bilinear samples of an interior run, four pixels per ``next()``, with exactly the integer arithmetic
/// of ``PixelMath/bilinear(_:_:_:_:_:_:)``: a packed pixel viewed as eight `UInt16` lanes holds the
/// scalar code's two 16-bit lanes (`0x00FF00FF` mask) side by side, and per-pixel weights are kept
/// duplicated in both halves of each 32-bit lane.
struct GroupSampler {
    typealias V16 = SIMD8<UInt16>
    typealias V32 = SIMD4<UInt32>
    @inline(__always) static func v16(_ v: V32) -> V16 { unsafeBitCast(v, to: V16.self) }
    @inline(__always) static func v32(_ v: V16) -> V32 { unsafeBitCast(v, to: V32.self) }

    let texels: UnsafePointer<UInt32>
    let stride: Int
    let ds: Int, dt: Int
    /// The source's 16.16 position, advanced four pixels per ``next()``.
    private(set) var s: Int, t: Int
    // Only bits 8–15 of each position feed the weights, so 16-bit lanes that wrap are exact.
    private var sv: V16, tv: V16
    private let sStep: V16, tStep: V16

    @inline(__always)
    init(_ source: BilinearSource) {
        texels = source.texels
        stride = source.stride
        ds = source.ds
        dt = source.dt
        s = source.s
        t = source.t
        let ds1 = UInt16(truncatingIfNeeded: ds)
        let dt1 = UInt16(truncatingIfNeeded: dt)
        let lane = V16(0, 0, 1, 1, 2, 2, 3, 3)
        sv = V16(repeating: UInt16(truncatingIfNeeded: s)) &+ lane &* V16(repeating: ds1)
        tv = V16(repeating: UInt16(truncatingIfNeeded: t)) &+ lane &* V16(repeating: dt1)
        sStep = V16(repeating: ds1 &* 4)
        tStep = V16(repeating: dt1 &* 4)
    }

    /// The next four samples (premultiplied, packed as in the atlas).
    @inline(__always)
    mutating func next() -> V16 {
        @inline(__always) func pair(_ p: UnsafePointer<UInt32>) -> SIMD2<UInt32> {
            UnsafeRawPointer(p).loadUnaligned(as: SIMD2<UInt32>.self)
        }
        let low = V16(repeating: 0x00FF)
        let high = V16(repeating: 0xFF00)
        let rounding = V16(repeating: 0x0080)
        let whole = V16(repeating: 256)
        let a0 = texels + ((t >> 16) &* stride &+ (s >> 16))
        let a1 = texels + (((t &+ dt) >> 16) &* stride &+ ((s &+ ds) >> 16))
        let a2 = texels + (((t &+ 2 &* dt) >> 16) &* stride &+ ((s &+ 2 &* ds) >> 16))
        let a3 = texels + (((t &+ 3 &* dt) >> 16) &* stride &+ ((s &+ 3 &* ds) >> 16))
        s &+= 4 &* ds
        t &+= 4 &* dt
        let top = SIMD8<UInt32>(
            lowHalf: V32(lowHalf: pair(a0), highHalf: pair(a1)),
            highHalf: V32(lowHalf: pair(a2), highHalf: pair(a3)))
        let bottom = SIMD8<UInt32>(
            lowHalf: V32(lowHalf: pair(a0 + stride), highHalf: pair(a1 + stride)),
            highHalf: V32(lowHalf: pair(a2 + stride), highHalf: pair(a3 + stride)))
        let p00 = GroupSampler.v16(top.evenHalf)
        let p10 = GroupSampler.v16(top.oddHalf)
        let p01 = GroupSampler.v16(bottom.evenHalf)
        let p11 = GroupSampler.v16(bottom.oddHalf)

        let fx = sv &>> 8
        let fy = tv &>> 8
        sv &+= sStep
        tv &+= tStep
        let w11 = (fx &* fy &+ rounding) &>> 8
        let w10 = fx &- w11
        let w01 = fy &- w11
        let w00 = whole &- fx &- fy &+ w11

        let rb = (p00 & low) &* w00 &+ (p10 & low) &* w10 &+ (p01 & low) &* w01 &+ (p11 & low) &* w11 &+ rounding
        let ga = (p00 &>> 8) &* w00 &+ (p10 &>> 8) &* w10 &+ (p01 &>> 8) &* w01 &+ (p11 &>> 8) &* w11 &+ rounding
        return (rb &>> 8) | (ga & high)
    }
}

/// Bulk interior painting for the paints without a fused kernel: samples come from
/// ``SpanSource/sampleInterior(into:count:)`` in chunks, then each pixel is finished exactly as
/// ``SpanPainter``'s scalar loop does (`transform`, opacity, skip transparent, blend).
enum SampledSpanPainter {
    static let chunk = 64

    @inline(__always)
    static func paint<S: SpanSource, B: PixelBlender>(
        _ source: inout S, _ blender: B.Type, destination: UnsafeMutablePointer<UInt32>, count: Int,
        opacity: UInt32, transform: (UInt32) -> UInt32
    ) -> Int {
        var done = 0
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: chunk) { buffer in
            guard let samples = buffer.baseAddress else { return }
            while count - done >= 4 {
                let n = source.sampleInterior(into: samples, count: min(chunk, count - done))
                if n == 0 { break }
                let out = destination + done
                if opacity >= 256 {
                    for i in 0..<n {
                        let s = transform(samples[i])
                        if s == 0 { continue }
                        out[i] = B.blend(s, out[i])
                    }
                } else {
                    for i in 0..<n {
                        let s = PixelMath.scale(transform(samples[i]), opacity)
                        if s == 0 { continue }
                        out[i] = B.blend(s, out[i])
                    }
                }
                done += n
            }
        }
        return done
    }
}
