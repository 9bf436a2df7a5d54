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
            let k = UInt32(coverage[i] * scale + 0.5)
            // Uncovered pixels are not read: their texels can lie outside the image (ASan found one past the end).
            if k == 0 {
                source.skip()
                continue
            }
            let px = source.next()
            let s = k >= 256 ? px : PixelMath.scale(px, k)
            if s == 0 { continue }  // a transparent source changes nothing in any mode
            destination[i] = B.blend(s, destination[i])
        }
    }

    /// Paints `count` fully covered pixels with a 0–256 opacity weight.
    ///
    /// `bulk` lets the source's vector kernel (``SpanSource/paintInterior(_:destination:count:opacity:)``)
    /// paint interior runs, and splits a span whose ends need clamping into clamped ends and an interior
    /// middle. Either way every pixel is what the pixel-by-pixel loop gives; tests turn it off to compare.
    @inline(__always)
    static func paintCovered<S: SpanSource, B: PixelBlender>(
        _ source: inout S, _ blender: B.Type, destination: UnsafeMutablePointer<UInt32>,
        count: Int, opacity: UInt32, bulk: Bool = true
    ) {
        if source.isInterior(count: count) {
            paintInterior(&source, B.self, destination: destination, count: count, opacity: opacity, bulk: bulk)
            return
        }
        // Sprites drawn at or above their size put the first and last pixel centres of a span within
        // half a texel of the region's edge, so most spans need clamping only at their ends.
        if bulk && count >= minimumSplitSpan {
            let run = source.interiorRange(count: count)
            if run.count >= minimumInteriorRun {
                paintClamped(&source, B.self, destination: destination, count: run.lowerBound, opacity: opacity)
                let middle = destination + run.lowerBound
                if source.isInterior(count: run.count) {
                    paintInterior(&source, B.self, destination: middle, count: run.count, opacity: opacity, bulk: true)
                } else {
                    paintClamped(&source, B.self, destination: middle, count: run.count, opacity: opacity)
                }
                paintClamped(
                    &source, B.self, destination: destination + run.upperBound, count: count - run.upperBound,
                    opacity: opacity)
                return
            }
        }
        paintClamped(&source, B.self, destination: destination, count: count, opacity: opacity)
    }

    /// Spans shorter than this are not split into clamped ends and an interior middle.
    static let minimumSplitSpan = 16
    /// Interior middles shorter than this are not worth splitting off.
    static let minimumInteriorRun = 8

    /// `count` fully covered pixels whose samples need no clamping (``SpanSource/isInterior(count:)`` holds).
    @inline(__always)
    private static func paintInterior<S: SpanSource, B: PixelBlender>(
        _ source: inout S, _ blender: B.Type, destination: UnsafeMutablePointer<UInt32>,
        count: Int, opacity: UInt32, bulk: Bool
    ) {
        let done = bulk ? source.paintInterior(B.self, destination: destination, count: count, opacity: opacity) : 0
        if opacity >= 256 {
            for i in done..<count {
                let s = source.nextInterior()
                if s == 0 { continue }
                destination[i] = B.blend(s, destination[i])
            }
        } else {
            for i in done..<count {
                let s = PixelMath.scale(source.nextInterior(), opacity)
                if s == 0 { continue }
                destination[i] = B.blend(s, destination[i])
            }
        }
    }

    /// `count` fully covered pixels, clamping every sample.
    @inline(__always)
    private static func paintClamped<S: SpanSource, B: PixelBlender>(
        _ source: inout S, _ blender: B.Type, destination: UnsafeMutablePointer<UInt32>,
        count: Int, opacity: UInt32
    ) {
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
