/// Exact area coverage of one pixel row by a polygon, by signed-area accumulation.
///
/// Every edge piece inside the row adds, to the cell it crosses, the area of that cell to the right
/// of the piece, and the rest of its height to the next cell. A running sum along the row then gives,
/// for every pixel, the exact area of the pixel covered by the polygon (non-zero winding, clamped to 1).
/// Because contributions add linearly, two polygons that share an edge receive complementary
/// contributions on that edge: their coverages sum to the coverage of their union.
///
/// Geometry left of the clip is folded into the first cell and geometry right of it is dropped, so
/// the work per row is bounded by the clip width whatever the coordinates.
enum CoverageRow {
    /// Computes coverage for the row whose top is `rowTop` into `coverage[lo..<hi]` and returns
    /// `lo..<hi` (empty if the row is untouched). Pixel `i` is device column `clipX + i`.
    /// The accumulator must be zero on entry and is zero again on return.
    @inline(__always)
    static func compute(
        edges: UnsafePointer<Edge>, count: Int, rowTop: Double, clipX: Double, width: Int,
        accumulator acc: UnsafeMutablePointer<Double>, coverage: UnsafeMutablePointer<Float>
    ) -> Range<Int> {
        let w = Double(width)
        let rowBottom = rowTop + 1
        var lowCell = Int.max
        var highCell = Int.min  // highest accumulator index written
        for i in 0..<count {
            let e = edges[i]
            let ya = e.y0 > rowTop ? e.y0 : rowTop
            let yb = e.y1 < rowBottom ? e.y1 : rowBottom
            if !(ya < yb) { continue }
            let xa = (ya == e.y0 ? e.x0 : e.x0 + (ya - e.y0) * e.dxdy) - clipX
            let xb = (yb == e.y1 ? e.x1 : e.x0 + (yb - e.y0) * e.dxdy) - clipX
            let dh = (yb - ya) * e.direction
            var lo = xa < xb ? xa : xb
            var hi = xa < xb ? xb : xa
            if lo >= w {
                // Entirely right of the clip: affects no visible pixel, but the row must be walked
                // to its end because cover from edges on the left persists.
                highCell = max(highCell, width)
                lowCell = min(lowCell, width)
                continue
            }
            if hi <= 0 {
                acc[0] += dh
                lowCell = min(lowCell, 0)
                highCell = max(highCell, 0)
                continue
            }
            if lo >= 0 && hi < w {
                let loCell = Int(lo)
                if loCell == Int(hi) {
                    // Within one cell: the covered area right of the piece is (1 − mid fraction)·dh.
                    let m = (lo + hi) * 0.5 - Double(loCell)
                    acc[loCell] += dh * (1 - m)
                    acc[loCell + 1] += dh * m
                    lowCell = min(lowCell, loCell)
                    highCell = max(highCell, loCell + 1)
                    continue
                }
            }
            let total = hi - lo
            let perUnit = dh / total
            if lo < 0 {
                acc[0] += perUnit * (0 - lo)
                lo = 0
            }
            if hi > w {
                hi = w
                highCell = max(highCell, width)
            }
            var cell = Int(lo)
            lowCell = min(lowCell, cell)
            var start = lo
            while start < hi {
                let cellRight = Double(cell + 1)
                let end = cellRight < hi ? cellRight : hi
                let part = perUnit * (end - start)
                let m = (start + end) * 0.5 - Double(cell)
                acc[cell] += part * (1 - m)
                acc[cell + 1] += part * m
                start = end
                cell += 1
            }
            highCell = max(highCell, cell)
        }
        if lowCell > highCell { return 0..<0 }
        let end = min(highCell, width - 1)
        var sum = 0.0
        if lowCell <= end {
            for x in lowCell...end {
                sum += acc[x]
                acc[x] = 0
                let a = sum < 0 ? -sum : sum
                coverage[x] = Float(a < 1 ? a : 1)
            }
        }
        if end + 1 <= highCell {
            for x in (end + 1)...highCell { acc[x] = 0 }
        }
        return lowCell..<(end + 1)
    }
}
