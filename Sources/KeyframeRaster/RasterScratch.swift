/// Reusable per-rasterizer buffers: the area accumulator, a coverage row, a float colour row for
/// meshes, and the edge list. Owned uniquely by one ``Rasterizer`` value (copy-on-write).
final class RasterScratch: @unchecked Sendable {
    /// Signed area/cover cells for one row; always zero between rows. `capacity + 2` entries.
    private(set) var accumulator: UnsafeMutablePointer<Double>
    /// Coverage 0–1 for one row.
    private(set) var coverage: UnsafeMutablePointer<Float>
    /// Premultiplied colour sums, four floats per pixel, for mesh rows; always zero between rows.
    private(set) var colorRow: UnsafeMutablePointer<Float>
    private(set) var capacity: Int

    private(set) var edges: UnsafeMutablePointer<Edge>
    private(set) var edgeCapacity: Int
    /// Touched cell intervals of one row: `edgeCapacity + 1` entries.
    private(set) var intervals: UnsafeMutablePointer<CellInterval>
    /// Output spans of one row: `2 × edgeCapacity + 2` entries.
    private(set) var spans: UnsafeMutablePointer<CoverageSpan>
    var edgeCount = 0

    init() {
        capacity = 0
        accumulator = .allocate(capacity: 2)
        accumulator.initialize(repeating: 0, count: 2)
        coverage = .allocate(capacity: 1)
        colorRow = .allocate(capacity: 4)
        colorRow.initialize(repeating: 0, count: 4)
        edgeCapacity = 8
        edges = .allocate(capacity: 8)
        intervals = .allocate(capacity: 9)
        spans = .allocate(capacity: 18)
    }

    deinit {
        accumulator.deallocate()
        coverage.deallocate()
        colorRow.deallocate()
        edges.deallocate()
        intervals.deallocate()
        spans.deallocate()
    }

    /// Makes the row buffers at least `width` pixels wide.
    func reserve(width: Int) {
        guard width > capacity else { return }
        accumulator.deallocate()
        coverage.deallocate()
        colorRow.deallocate()
        accumulator = .allocate(capacity: width + 2)
        accumulator.initialize(repeating: 0, count: width + 2)
        coverage = .allocate(capacity: width)
        coverage.initialize(repeating: 0, count: width)
        colorRow = .allocate(capacity: width * 4)
        colorRow.initialize(repeating: 0, count: width * 4)
        capacity = width
    }

    /// Empties the edge list and makes room for `count` edges.
    func resetEdges(reserving count: Int) {
        edgeCount = 0
        guard count > edgeCapacity else { return }
        edges.deallocate()
        intervals.deallocate()
        spans.deallocate()
        edgeCapacity = max(count, edgeCapacity * 2)
        edges = .allocate(capacity: edgeCapacity)
        intervals = .allocate(capacity: edgeCapacity + 1)
        spans = .allocate(capacity: 2 * edgeCapacity + 2)
    }

    /// Appends the edge from `p` to `q` unless it is horizontal. Call `resetEdges` with enough room first.
    @inline(__always)
    func addEdge(from p: SIMD2<Double>, to q: SIMD2<Double>) {
        if let e = Edge(from: p, to: q) {
            edges[edgeCount] = e
            edgeCount += 1
        }
    }
}
