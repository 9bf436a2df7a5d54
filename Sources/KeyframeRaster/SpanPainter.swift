/// The inner loops: blend a source into a destination row, weighted by coverage and opacity.
enum SpanPainter {
    /// Paints `count` pixels; `coverage` holds 0–1 per pixel, `opacity` is a 0–256 weight.
    @inline(__always)
    static func paint<S: SpanSource, B: PixelBlender>(
        _ source: inout S, _ blender: B.Type, destination: UnsafeMutablePointer<UInt32>,
        coverage: UnsafePointer<Float>, count: Int, opacity: UInt32
    ) {
        let scale = Float(opacity)
        for i in 0..<count {
            let px = source.next()
            let k = UInt32(coverage[i] * scale + 0.5)
            if k == 0 { continue }
            let s = k >= 256 ? px : PixelMath.scale(px, k)
            if s == 0 { continue }  // a transparent source changes nothing in any mode
            destination[i] = B.blend(s, destination[i])
        }
    }

    /// Paints `count` fully covered pixels with a 0–256 opacity weight.
    @inline(__always)
    static func paintCovered<S: SpanSource, B: PixelBlender>(
        _ source: inout S, _ blender: B.Type, destination: UnsafeMutablePointer<UInt32>,
        count: Int, opacity: UInt32
    ) {
        if source.isInterior(count: count) {
            if opacity >= 256 {
                for i in 0..<count {
                    let s = source.nextInterior()
                    if s == 0 { continue }
                    destination[i] = B.blend(s, destination[i])
                }
            } else {
                for i in 0..<count {
                    let s = PixelMath.scale(source.nextInterior(), opacity)
                    if s == 0 { continue }
                    destination[i] = B.blend(s, destination[i])
                }
            }
            return
        }
        if opacity >= 256 {
            for i in 0..<count {
                let s = source.next()
                if s == 0 { continue }
                destination[i] = B.blend(s, destination[i])
            }
        } else {
            for i in 0..<count {
                let s = PixelMath.scale(source.next(), opacity)
                if s == 0 { continue }
                destination[i] = B.blend(s, destination[i])
            }
        }
    }
}
