/// Exact area coverage of one pixel row by a polygon, by signed-area accumulation.
///
/// Every edge piece inside the row adds, to the cell it crosses, the area of that cell to the right
/// of the piece, and the rest of its height to the next cell. A running sum along the row then gives,
/// for every pixel, the exact area of the pixel covered by the polygon (non-zero winding, clamped to 1).
/// Because contributions add linearly, two polygons that share an edge receive complementary
/// contributions on that edge: their coverages sum to the coverage of their union.
///
/// Geometry left of the clip is folded into the first cell and geometry right of it is dropped, so
/// the work per row is bounded by the clip width whatever the coordinates. Only cells that edges touch
/// are walked one by one; between them the running sum is constant, so the inside of a shape comes
/// out as constant-coverage spans that the painters fill without per-pixel coverage work.
enum CoverageRow {
    /// Computes the coverage of the row whose top is `rowTop` as spans (relative to the clip's left
    /// edge, pixel `i` is device column `clipX + i`) and returns how many were written to `spans`.
    ///
    /// Per-pixel values go to `coverage`. The accumulator must be zero on entry and is zero again on
    /// return. `intervals` needs room for `count + 1` entries and `spans` for `2 × count + 2`.
    @inline(__always)
    static func compute(
        edges: UnsafePointer<Edge>, count: Int, rowTop: Double, clipX: Double, width: Int,
        accumulator acc: UnsafeMutablePointer<Double>, coverage: UnsafeMutablePointer<Float>,
        intervals: UnsafeMutablePointer<CellInterval>, spans: UnsafeMutablePointer<CoverageSpan>
    ) -> Int {
        let w = Double(width)
        let rowBottom = rowTop + 1
        var intervalCount = 0
        @inline(__always) func touch(_ a: Int, _ b: Int) {
            intervals[intervalCount] = CellInterval(first: a, last: b)
            intervalCount += 1
        }
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
            if lo >= w { continue }  // right of the clip: no visible effect
            if hi <= 0 {
                acc[0] += dh
                touch(0, 0)
                continue
            }
            if lo >= 0 && hi < w {
                let loCell = Int(lo)
                if loCell == Int(hi) {
                    // Within one cell: the covered area right of the piece is (1 − mid fraction)·dh.
                    let m = (lo + hi) * 0.5 - Double(loCell)
                    acc[loCell] += dh * (1 - m)
                    acc[loCell + 1] += dh * m
                    touch(loCell, loCell + 1)
                    continue
                }
            }
            let perUnit = dh / (hi - lo)
            if lo < 0 {
                acc[0] += perUnit * (0 - lo)
                lo = 0
            }
            if hi > w { hi = w }
            var cell = Int(lo)
            let first = cell
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
            touch(first, cell)
        }
        if intervalCount == 0 { return 0 }
        // Insertion sort: a handful of intervals per row.
        if intervalCount > 1 {
            for i in 1..<intervalCount {
                let v = intervals[i]
                var j = i - 1
                while j >= 0 && intervals[j].first > v.first {
                    intervals[j + 1] = intervals[j]
                    j -= 1
                }
                intervals[j + 1] = v
            }
        }
        var spanCount = 0
        var sum = 0.0
        var i = 0
        while i < intervalCount {
            let first = intervals[i].first
            var last = intervals[i].last
            i += 1
            while i < intervalCount && intervals[i].first <= last + 1 {
                last = max(last, intervals[i].last)
                i += 1
            }
            // Walk the touched cells one by one.
            let visibleEnd = min(last, width - 1)
            if first <= visibleEnd {
                for x in first...visibleEnd {
                    sum += acc[x]
                    acc[x] = 0
                    let a = sum < 0 ? -sum : sum
                    coverage[x] = Float(a < 1 ? a : 1)
                }
                spans[spanCount] = CoverageSpan(start: first, end: visibleEnd + 1, constant: -1)
                spanCount += 1
            }
            if visibleEnd + 1 <= last {
                for x in (visibleEnd + 1)...last { acc[x] = 0 }
            }
            // Up to the next touched cell the sum is constant.
            let gapStart = last + 1
            let gapEnd = i < intervalCount ? min(intervals[i].first, width) : width
            if gapStart < gapEnd {
                let a = sum < 0 ? -sum : sum
                if a > 1e-9 {
                    spans[spanCount] = CoverageSpan(start: gapStart, end: gapEnd, constant: Float(a < 1 ? a : 1))
                    spanCount += 1
                }
            }
        }
        return spanCount
    }
}

/// Accumulator cells `first...last` touched by one edge piece.
struct CellInterval {
    var first: Int
    var last: Int
}
