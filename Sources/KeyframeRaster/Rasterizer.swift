/// Draws anti-aliased polygons, textured sprites and meshes into a ``Bitmap``.
///
/// Coverage is exact: each pixel receives the area of the pixel covered by the shape (computed by
/// signed-area accumulation), so edges are anti-aliased without supersampling. Textured draws sample
/// the atlas bilinearly in 16.16 fixed point and clamp to the atlas region, so neighbouring atlas
/// entries never bleed in. Colour transforms apply to straight colour; blend modes work on
/// premultiplied sRGB values (see ``PixelBlendMode``).
///
/// A rasterizer owns scratch buffers that it reuses across draws and frames; keep one per worker.
/// Copies are independent (copy-on-write), so the value is safe to hand to another task.
///
/// Degenerate input (non-finite or enormous coordinates, singular transforms, empty regions) draws
/// nothing instead of failing.
///
/// ```swift
/// var frame = Bitmap(width: 512, height: 512)
/// var rasterizer = Rasterizer()
/// let placement = Affine.translation(200, 100).concatenating(.rotation(.pi / 6))
/// rasterizer.draw(atlas, region: PixelRect(x: 0, y: 0, width: 64, height: 64),
///                 transform: placement, into: &frame)
/// ```
public struct Rasterizer: Sendable {
    private var scratch = RasterScratch()
    private var triangles: [MeshTriangle] = []
    /// Whether interior spans may use the sources' vector kernels; tests turn it off to compare with the
    /// pixel-by-pixel loop (the output is the same either way).
    package var usesBulkKernels = true

    /// Coordinates beyond this magnitude (in device pixels) make a draw a no-op.
    public static let coordinateLimit: Double = 1e9

    /// Creates a rasterizer with empty scratch buffers.
    public init() {}

    private mutating func uniqueScratch() -> RasterScratch {
        if !isKnownUniquelyReferenced(&scratch) { scratch = RasterScratch() }
        return scratch
    }

    // MARK: - Public drawing

    /// Fills a polygon (non-zero winding) with a solid colour.
    ///
    /// - Parameters:
    ///   - polygon: Vertices in local space, in order; the polygon closes itself.
    ///   - color: Straight colour.
    ///   - transform: Local → device transform.
    ///   - paint: Opacity, colour transform and blend mode.
    ///   - clip: Optional device-space clip, intersected with the target's bounds.
    ///   - target: The bitmap drawn into.
    public mutating func fill(
        polygon: [SIMD2<Double>], color: RGBAColor, transform: Affine = .identity, paint: Paint = Paint(),
        clip: PixelRect? = nil, into target: inout Bitmap
    ) {
        guard polygon.count >= 3, let region = clipRegion(clip, target) else { return }
        let scratch = uniqueScratch()
        guard let bounds = loadEdges(polygon.map(transform.apply), into: scratch) else { return }
        let targetWidth = target.width
        withPixels(of: &target) { dst in
            dispatch(SolidSource(pixel: color.premultipliedPixel), paint: paint, scratch: scratch,
                     region: region, bounds: bounds, target: dst, targetWidth: targetWidth)
        }
    }

    /// Fills a rectangle given in local space with a solid colour.
    public mutating func fill(
        rect x: Double, _ y: Double, _ width: Double, _ height: Double, color: RGBAColor,
        transform: Affine = .identity, paint: Paint = Paint(), clip: PixelRect? = nil, into target: inout Bitmap
    ) {
        fill(
            polygon: [SIMD2(x, y), SIMD2(x + width, y), SIMD2(x + width, y + height), SIMD2(x, y + height)],
            color: color, transform: transform, paint: paint, clip: clip, into: &target)
    }

    /// Draws an atlas region as a textured quad.
    ///
    /// The region occupies local space [0, region.width] × [0, region.height]; `transform` maps
    /// that to device pixels. Rotated atlas entries and resolution scales are expressed in
    /// `transform`. The quad is rasterized as one polygon, so it has no internal seam.
    ///
    /// - Parameters:
    ///   - image: The atlas (premultiplied).
    ///   - region: The atlas rectangle to draw; `nil` draws the whole image. Clipped to the image.
    ///   - transform: Local → device transform.
    ///   - paint: Opacity, colour transform and blend mode.
    ///   - clip: Optional device-space clip, intersected with the target's bounds.
    ///   - target: The bitmap drawn into.
    public mutating func draw(
        _ image: Bitmap, region: PixelRect? = nil, transform: Affine, paint: Paint = Paint(),
        clip: PixelRect? = nil, into target: inout Bitmap
    ) {
        let source = (region ?? image.bounds).intersection(image.bounds)
        guard !source.isEmpty, let area = clipRegion(clip, target), transform.isFinite,
            let inverse = transform.inverted()
        else { return }
        let w = Double(source.width)
        let h = Double(source.height)
        let corners = [SIMD2(0, 0), SIMD2(w, 0), SIMD2(w, h), SIMD2(0, h)].map(transform.apply)
        let scratch = uniqueScratch()
        guard let bounds = loadEdges(corners, into: scratch) else { return }
        let toAtlas = Affine.translation(Double(source.x), Double(source.y)).concatenating(inverse)
        let targetWidth = target.width
        let isIntegerTranslation =
            transform.a == 1 && transform.b == 0 && transform.c == 0 && transform.d == 1
            && transform.tx == transform.tx.rounded() && transform.ty == transform.ty.rounded()
        withTexels(of: image) { texels in
            withPixels(of: &target) { dst in
                if isIntegerTranslation {
                    let s = CopySource(
                        texels: texels, stride: image.width,
                        offsetX: source.x - Int(transform.tx), offsetY: source.y - Int(transform.ty))
                    dispatch(s, paint: paint, scratch: scratch, region: area, bounds: bounds,
                             target: dst, targetWidth: targetWidth)
                } else {
                    let s = BilinearSource(texels: texels, stride: image.width, region: source, inverse: toAtlas)
                    dispatch(s, paint: paint, scratch: scratch, region: area, bounds: bounds,
                             target: dst, targetWidth: targetWidth)
                }
            }
        }
    }

    /// Draws a textured triangle mesh in one pass, without seams between triangles.
    ///
    /// Triangles are rasterized into a shared row of coverage-weighted colour before blending: a
    /// pixel on an edge shared by two triangles receives both contributions and their coverages sum
    /// to the coverage of the union, so the background never shows through interior edges. The
    /// triangles of one call should not overlap (overlaps add up, as in a mesh).
    ///
    /// - Parameters:
    ///   - image: The atlas (premultiplied).
    ///   - region: Atlas rectangle that samples are clamped to; `nil` means the whole image.
    ///   - vertices: Vertex positions in local space.
    ///   - textureCoordinates: Per vertex, the atlas position in pixels (not normalised).
    ///   - indices: Three vertex indices per triangle; out-of-range triangles are skipped.
    ///   - transform: Local → device transform.
    ///   - paint: Opacity, colour transform and blend mode.
    ///   - clip: Optional device-space clip, intersected with the target's bounds.
    ///   - target: The bitmap drawn into.
    public mutating func drawTriangles(
        _ image: Bitmap, region: PixelRect? = nil, vertices: [SIMD2<Double>], textureCoordinates: [SIMD2<Double>],
        indices: [Int], transform: Affine = .identity, paint: Paint = Paint(), clip: PixelRect? = nil,
        into target: inout Bitmap
    ) {
        let source = (region ?? image.bounds).intersection(image.bounds)
        guard !source.isEmpty, let area = clipRegion(clip, target), transform.isFinite,
            vertices.count == textureCoordinates.count
        else { return }
        let scratch = uniqueScratch()
        let device = vertices.map(transform.apply)
        let triangleCount = indices.count / 3
        scratch.resetEdges(reserving: triangleCount * 3)
        triangles.removeAll(keepingCapacity: true)
        var minY = Double.infinity
        var maxY = -Double.infinity
        for t in 0..<triangleCount {
            let i0 = indices[3 * t]
            let i1 = indices[3 * t + 1]
            let i2 = indices[3 * t + 2]
            guard device.indices.contains(i0), device.indices.contains(i1), device.indices.contains(i2) else {
                continue
            }
            let p = [device[i0], device[i1], device[i2]]
            guard p.allSatisfy(Rasterizer.isUsable),
                let inverse = Rasterizer.triangleMap(
                    from: (p[0], p[1], p[2]),
                    to: (textureCoordinates[i0], textureCoordinates[i1], textureCoordinates[i2]))
            else { continue }
            let first = scratch.edgeCount
            scratch.addEdge(from: p[0], to: p[1])
            scratch.addEdge(from: p[1], to: p[2])
            scratch.addEdge(from: p[2], to: p[0])
            let lo = min(p[0].y, p[1].y, p[2].y)
            let hi = max(p[0].y, p[1].y, p[2].y)
            minY = min(minY, lo)
            maxY = max(maxY, hi)
            triangles.append(
                MeshTriangle(firstEdge: first, edgeCount: scratch.edgeCount - first, minY: lo, maxY: hi,
                             inverse: inverse))
        }
        guard !triangles.isEmpty else { return }
        scratch.reserve(width: area.width)
        let meshTriangles = triangles
        let targetWidth = target.width
        let rows = rowRange(minY: minY, maxY: maxY, region: area)
        withTexels(of: image) { texels in
            withPixels(of: &target) { dst in
                let ct = paint.residualColorTransform.map(ColorTransformKernel.init)
                let opacity = paint.effectiveOpacityWeight
                for y in rows {
                    var lo = Int.max
                    var hi = Int.min
                    let top = Double(y)
                    for tri in meshTriangles where tri.minY < top + 1 && tri.maxY > top {
                        let spanCount = CoverageRow.compute(
                            edges: scratch.edges + tri.firstEdge, count: tri.edgeCount, rowTop: top,
                            clipX: Double(area.x), width: area.width, accumulator: scratch.accumulator,
                            coverage: scratch.coverage, intervals: scratch.intervals, spans: scratch.spans)
                        for k in 0..<spanCount {
                            let span = scratch.spans[k]
                            lo = min(lo, span.start)
                            hi = max(hi, span.end)
                            var sampler = BilinearSource(
                                texels: texels, stride: image.width, region: source, inverse: tri.inverse)
                            sampler.start(x: area.x + span.start, y: y)
                            let row = scratch.colorRow
                            for x in span.start..<span.end {
                                var px = sampler.next()
                                let c = span.isPerPixel ? scratch.coverage[x] : span.constant
                                if c == 0 { continue }
                                if let ct { px = ct.apply(px) }
                                let base = row + 4 * x
                                base[0] += Float(px & 0xFF) * c
                                base[1] += Float((px >> 8) & 0xFF) * c
                                base[2] += Float((px >> 16) & 0xFF) * c
                                base[3] += Float(px >> 24) * c
                            }
                        }
                    }
                    if lo >= hi { continue }
                    let out = dst + y * targetWidth + area.x
                    let row = scratch.colorRow
                    switch paint.blendMode {
                    case .normal: Rasterizer.resolveMeshRow(row, lo, hi, out, opacity, NormalBlender.self)
                    case .add: Rasterizer.resolveMeshRow(row, lo, hi, out, opacity, AddBlender.self)
                    case .multiply: Rasterizer.resolveMeshRow(row, lo, hi, out, opacity, MultiplyBlender.self)
                    case .screen: Rasterizer.resolveMeshRow(row, lo, hi, out, opacity, ScreenBlender.self)
                    case .lighten: Rasterizer.resolveMeshRow(row, lo, hi, out, opacity, LightenBlender.self)
                    case .darken: Rasterizer.resolveMeshRow(row, lo, hi, out, opacity, DarkenBlender.self)
                    case .difference: Rasterizer.resolveMeshRow(row, lo, hi, out, opacity, DifferenceBlender.self)
                    case .subtract: Rasterizer.resolveMeshRow(row, lo, hi, out, opacity, SubtractBlender.self)
                    case .invert: Rasterizer.resolveMeshRow(row, lo, hi, out, opacity, InvertBlender.self)
                    case .overlay: Rasterizer.resolveMeshRow(row, lo, hi, out, opacity, OverlayBlender.self)
                    case .hardlight: Rasterizer.resolveMeshRow(row, lo, hi, out, opacity, HardLightBlender.self)
                    case .alpha: Rasterizer.resolveMeshRow(row, lo, hi, out, opacity, AlphaBlender.self)
                    case .erase: Rasterizer.resolveMeshRow(row, lo, hi, out, opacity, EraseBlender.self)
                    }
                }
            }
        }
    }

    /// Composites a layer bitmap onto the target with its top-left corner at (`x`, `y`).
    ///
    /// Use this for groups and masks: draw the group into an offscreen bitmap (optionally
    /// ``Bitmap/applyMask(_:offsetX:offsetY:)``), then composite it with the group's opacity,
    /// colour transform and blend mode.
    public mutating func composite(
        _ layer: Bitmap, x: Int, y: Int, paint: Paint = Paint(), clip: PixelRect? = nil, into target: inout Bitmap
    ) {
        guard let area = clipRegion(clip, target) else { return }
        let placed = PixelRect(x: x, y: y, width: layer.width, height: layer.height).intersection(area)
        guard !placed.isEmpty else { return }
        let opacity = paint.effectiveOpacityWeight
        guard opacity > 0 else { return }
        let targetWidth = target.width
        withTexels(of: layer) { texels in
            withPixels(of: &target) { dst in
                let source = CopySource(texels: texels, stride: layer.width, offsetX: -x, offsetY: -y)
                if let ct = paint.residualColorTransform {
                    Rasterizer.compositeRows(
                        ColorTransformedSource(inner: source, kernel: ColorTransformKernel(ct)), placed, dst,
                        targetWidth, opacity, paint.blendMode)
                } else {
                    Rasterizer.compositeRows(source, placed, dst, targetWidth, opacity, paint.blendMode)
                }
            }
        }
    }

    /// The exact coverage (0–1) of every pixel of a `width` × `height` grid by a polygon, row by row.
    ///
    /// This is the coverage every draw uses; it is exposed for tests and hit testing.
    public mutating func coverage(of polygon: [SIMD2<Double>], width: Int, height: Int) -> [Float] {
        var result = [Float](repeating: 0, count: max(0, width) * max(0, height))
        guard width > 0, height > 0, polygon.count >= 3 else { return result }
        let scratch = uniqueScratch()
        guard let bounds = loadEdges(polygon, into: scratch) else { return result }
        scratch.reserve(width: width)
        for y in rowRange(minY: bounds.lowerBound, maxY: bounds.upperBound, region: PixelRect(
            x: 0, y: 0, width: width, height: height))
        {
            let spanCount = CoverageRow.compute(
                edges: scratch.edges, count: scratch.edgeCount, rowTop: Double(y), clipX: 0, width: width,
                accumulator: scratch.accumulator, coverage: scratch.coverage, intervals: scratch.intervals,
                spans: scratch.spans)
            for k in 0..<spanCount {
                let span = scratch.spans[k]
                for x in span.start..<span.end {
                    result[y * width + x] = span.isPerPixel ? scratch.coverage[x] : span.constant
                }
            }
        }
        return result
    }

    // MARK: - Internals

    static func isUsable(_ p: SIMD2<Double>) -> Bool {
        p.x.isFinite && p.y.isFinite && abs(p.x) <= coordinateLimit && abs(p.y) <= coordinateLimit
    }

    private func clipRegion(_ clip: PixelRect?, _ target: Bitmap) -> PixelRect? {
        let r = clip.map { $0.intersection(target.bounds) } ?? target.bounds
        return r.isEmpty ? nil : r
    }

    private func rowRange(minY: Double, maxY: Double, region: PixelRect) -> Range<Int> {
        let lo = max(region.y, Int(minY.rounded(.down)))
        let hi = min(region.maxY, Int(maxY.rounded(.up)))
        return lo < hi ? lo..<hi : region.y..<region.y
    }

    /// Loads the closed polygon's edges; returns its vertical extent, or `nil` if unusable.
    private func loadEdges(_ points: [SIMD2<Double>], into scratch: RasterScratch) -> ClosedRange<Double>? {
        guard points.count >= 3, points.allSatisfy(Rasterizer.isUsable) else { return nil }
        scratch.resetEdges(reserving: points.count)
        var minY = Double.infinity
        var maxY = -Double.infinity
        for i in points.indices {
            let p = points[i]
            scratch.addEdge(from: p, to: points[(i + 1) % points.count])
            minY = min(minY, p.y)
            maxY = max(maxY, p.y)
        }
        return scratch.edgeCount >= 2 ? minY...maxY : nil
    }

    /// Picks the colour-transform and blend specialisations, then runs the row loop.
    private func dispatch<S: SpanSource>(
        _ source: S, paint: Paint, scratch: RasterScratch, region: PixelRect, bounds: ClosedRange<Double>,
        target: UnsafeMutablePointer<UInt32>, targetWidth: Int
    ) {
        let opacity = paint.effectiveOpacityWeight
        guard opacity > 0 else { return }
        let rows = rowRange(minY: bounds.lowerBound, maxY: bounds.upperBound, region: region)
        scratch.reserve(width: region.width)
        if let ct = paint.residualColorTransform {
            let s = ColorTransformedSource(inner: source, kernel: ColorTransformKernel(ct))
            Rasterizer.rasterize(s, paint.blendMode, scratch, region, rows, target, targetWidth, opacity, usesBulkKernels)
        } else {
            Rasterizer.rasterize(source, paint.blendMode, scratch, region, rows, target, targetWidth, opacity, usesBulkKernels)
        }
    }

    private static func rasterize<S: SpanSource>(
        _ source: S, _ mode: PixelBlendMode, _ scratch: RasterScratch, _ region: PixelRect, _ rows: Range<Int>,
        _ target: UnsafeMutablePointer<UInt32>, _ targetWidth: Int, _ opacity: UInt32, _ bulk: Bool
    ) {
        switch mode {
        case .normal: rows_(source, NormalBlender.self, scratch, region, rows, target, targetWidth, opacity, bulk)
        case .add: rows_(source, AddBlender.self, scratch, region, rows, target, targetWidth, opacity, bulk)
        case .multiply: rows_(source, MultiplyBlender.self, scratch, region, rows, target, targetWidth, opacity, bulk)
        case .screen: rows_(source, ScreenBlender.self, scratch, region, rows, target, targetWidth, opacity, bulk)
        case .lighten: rows_(source, LightenBlender.self, scratch, region, rows, target, targetWidth, opacity, bulk)
        case .darken: rows_(source, DarkenBlender.self, scratch, region, rows, target, targetWidth, opacity, bulk)
        case .difference: rows_(source, DifferenceBlender.self,
            scratch, region, rows, target, targetWidth, opacity, bulk)
        case .subtract: rows_(source, SubtractBlender.self, scratch, region, rows, target, targetWidth, opacity, bulk)
        case .invert: rows_(source, InvertBlender.self, scratch, region, rows, target, targetWidth, opacity, bulk)
        case .overlay: rows_(source, OverlayBlender.self, scratch, region, rows, target, targetWidth, opacity, bulk)
        case .hardlight: rows_(source, HardLightBlender.self, scratch, region, rows, target, targetWidth, opacity, bulk)
        case .alpha: rows_(source, AlphaBlender.self, scratch, region, rows, target, targetWidth, opacity, bulk)
        case .erase: rows_(source, EraseBlender.self, scratch, region, rows, target, targetWidth, opacity, bulk)
        }
    }

    /// The polygon row loop, specialised per source and blender.
    private static func rows_<S: SpanSource, B: PixelBlender>(
        _ source: S, _ blender: B.Type, _ scratch: RasterScratch, _ region: PixelRect, _ rows: Range<Int>,
        _ target: UnsafeMutablePointer<UInt32>, _ targetWidth: Int, _ opacity: UInt32, _ bulk: Bool
    ) {
        var source = source
        let edges = UnsafePointer(scratch.edges)
        let edgeCount = scratch.edgeCount
        let acc = scratch.accumulator
        let cov = scratch.coverage
        let intervals = scratch.intervals
        let spans = scratch.spans
        let scale = Float(opacity)
        let clipX = Double(region.x)
        for y in rows {
            let spanCount = CoverageRow.compute(
                edges: edges, count: edgeCount, rowTop: Double(y), clipX: clipX, width: region.width,
                accumulator: acc, coverage: cov, intervals: intervals, spans: spans)
            let row = target + y * targetWidth + region.x
            for k in 0..<spanCount {
                let span = spans[k]
                source.start(x: region.x + span.start, y: y)
                if span.isPerPixel {
                    SpanPainter.paint(
                        &source, B.self, destination: row + span.start, coverage: cov + span.start,
                        count: span.end - span.start, opacity: opacity)
                } else {
                    let weight = UInt32(span.constant * scale + 0.5)
                    if weight == 0 { continue }
                    SpanPainter.paintCovered(
                        &source, B.self, destination: row + span.start, count: span.end - span.start,
                        opacity: min(weight, 256), bulk: bulk)
                }
            }
        }
    }

    private static func resolveMeshRow<B: PixelBlender>(
        _ row: UnsafeMutablePointer<Float>, _ lo: Int, _ hi: Int, _ out: UnsafeMutablePointer<UInt32>,
        _ opacity: UInt32, _ blender: B.Type
    ) {
        @inline(__always) func channel(_ v: Float, _ limit: UInt32) -> UInt32 {
            let r = v + 0.5
            return r <= 0 ? 0 : min(UInt32(r), limit)
        }
        for x in lo..<hi {
            let base = row + 4 * x
            let a = channel(base[3], 255)
            let px = channel(base[0], a) | channel(base[1], a) << 8 | channel(base[2], a) << 16 | a << 24
            base[0] = 0
            base[1] = 0
            base[2] = 0
            base[3] = 0
            let s = opacity >= 256 ? px : PixelMath.scale(px, opacity)
            if s == 0 { continue }
            out[x] = B.blend(s, out[x])
        }
    }

    private static func compositeRows<S: SpanSource>(
        _ source: S, _ placed: PixelRect, _ dst: UnsafeMutablePointer<UInt32>, _ targetWidth: Int,
        _ opacity: UInt32, _ mode: PixelBlendMode
    ) {
        switch mode {
        case .normal: compositeRows(source, NormalBlender.self, placed, dst, targetWidth, opacity)
        case .add: compositeRows(source, AddBlender.self, placed, dst, targetWidth, opacity)
        case .multiply: compositeRows(source, MultiplyBlender.self, placed, dst, targetWidth, opacity)
        case .screen: compositeRows(source, ScreenBlender.self, placed, dst, targetWidth, opacity)
        case .lighten: compositeRows(source, LightenBlender.self, placed, dst, targetWidth, opacity)
        case .darken: compositeRows(source, DarkenBlender.self, placed, dst, targetWidth, opacity)
        case .difference: compositeRows(source, DifferenceBlender.self, placed, dst, targetWidth, opacity)
        case .subtract: compositeRows(source, SubtractBlender.self, placed, dst, targetWidth, opacity)
        case .invert: compositeRows(source, InvertBlender.self, placed, dst, targetWidth, opacity)
        case .overlay: compositeRows(source, OverlayBlender.self, placed, dst, targetWidth, opacity)
        case .hardlight: compositeRows(source, HardLightBlender.self, placed, dst, targetWidth, opacity)
        case .alpha: compositeRows(source, AlphaBlender.self, placed, dst, targetWidth, opacity)
        case .erase: compositeRows(source, EraseBlender.self, placed, dst, targetWidth, opacity)
        }
    }

    private static func compositeRows<S: SpanSource, B: PixelBlender>(
        _ source: S, _ blender: B.Type, _ placed: PixelRect, _ dst: UnsafeMutablePointer<UInt32>,
        _ targetWidth: Int, _ opacity: UInt32
    ) {
        var source = source
        for y in placed.y..<placed.maxY {
            source.start(x: placed.x, y: y)
            SpanPainter.paintCovered(
                &source, B.self, destination: dst + y * targetWidth + placed.x, count: placed.width,
                opacity: opacity)
        }
    }

    /// The affine map taking device triangle `p` onto atlas triangle `t`; `nil` if `p` is degenerate.
    static func triangleMap(
        from p: (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>), to t: (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>)
    ) -> Affine? {
        // Local frame of the device triangle → device, then local frame → atlas.
        let deviceFrame = Affine(
            a: p.1.x - p.0.x, b: p.1.y - p.0.y, c: p.2.x - p.0.x, d: p.2.y - p.0.y, tx: p.0.x, ty: p.0.y)
        let atlasFrame = Affine(
            a: t.1.x - t.0.x, b: t.1.y - t.0.y, c: t.2.x - t.0.x, d: t.2.y - t.0.y, tx: t.0.x, ty: t.0.y)
        guard atlasFrame.isFinite, let toLocal = deviceFrame.inverted() else { return nil }
        return atlasFrame.concatenating(toLocal)
    }
}

/// Runs `body` with the bitmap's pixels as packed 32-bit words.
@inline(__always)
func withPixels<R>(of bitmap: inout Bitmap, _ body: (UnsafeMutablePointer<UInt32>) -> R) -> R {
    bitmap.pixels.withUnsafeMutableBufferPointer { bytes in
        bytes.withMemoryRebound(to: UInt32.self) { words in
            // An empty bitmap never reaches a draw (its clip region is empty).
            body(words.baseAddress ?? UnsafeMutablePointer(bitPattern: 16)!)
        }
    }
}

/// Runs `body` with the bitmap's pixels as read-only packed 32-bit words.
@inline(__always)
func withTexels<R>(of bitmap: Bitmap, _ body: (UnsafePointer<UInt32>) -> R) -> R {
    bitmap.pixels.withUnsafeBufferPointer { bytes in
        bytes.withMemoryRebound(to: UInt32.self) { words in
            body(words.baseAddress ?? UnsafePointer(bitPattern: 16)!)
        }
    }
}
