/// Cubic Bézier curves prepared for evaluating many times (internal; used by the clock's batch lane).
///
/// For each curve the table holds, for both ends of the curve (``BezierEnd``), the power-form coefficients, the
/// acceptance test's bounds and the start numbers of every grid bucket — exactly the values
/// ``CubicBezier/progress(at:)`` computes for the one bucket it needs — so a prepared evaluation in a certified
/// bucket is a lookup and a dozen multiplications (``certifiedProgress(_:_:at:)``), with the bits of
/// ``CubicBezier/progress(at:)``. Preparing a curve costs about 520 direct solves (≈ 50 µs).
///
/// Curves whose x leaves `0...1`, and those with a flat middle (``BezierFlatMiddle``), are not taken
/// (``append(_:)`` returns `nil`).
final class CubicBezierSolver {
    // Constants as computed properties, which fold into the code (a stored `static let` is read through a lazy
    // initializer on every use).

    /// Doubles per curve: the extrapolation gradients, then the two ends.
    static var curveStride: Int { 8 + 2 * endStride }
    /// Doubles per end: a, b, c, ay, by, cy, kx, ky, then eight per bucket (a cache line): the six numbers of
    /// ``BezierEnd/Bucket``, 1 if it is certified (else 0), and padding.
    static var endStride: Int { 8 + 8 * bucketCount }
    /// Buckets per end: the grid's, and one for x = ½.
    static var bucketCount: Int { BezierEnd.gridBuckets + 1 }

    /// The prepared curves, ``curveStride`` doubles each.
    private(set) var table: UnsafeMutablePointer<Double>
    private(set) var count = 0
    private var capacity = 0

    init() {
        table = .allocate(capacity: 1)
    }

    deinit {
        table.deallocate()
    }

    /// Prepares `curve` and returns its number, or `nil` when it is not taken.
    func append(_ curve: CubicBezier) -> Int32? {
        guard curve.isMonotone, BezierFlatMiddle(curve) == nil else { return nil }
        if count == capacity {
            capacity = max(4, capacity * 2)
            let grown = UnsafeMutablePointer<Double>.allocate(capacity: capacity * Self.curveStride)
            grown.moveInitialize(from: table, count: count * Self.curveStride)
            table.deallocate()
            table = grown
        }
        let block = table + count * Self.curveStride
        block.initialize(repeating: 0, count: Self.curveStride)
        block[0] = curve.startGradient
        block[1] = curve.endGradient
        for (side, end) in [BezierEnd.start(of: curve), BezierEnd.end(of: curve)].enumerated() {
            let numbers = block + 8 + side * Self.endStride
            numbers[0] = end.a; numbers[1] = end.b; numbers[2] = end.c
            numbers[3] = end.ay; numbers[4] = end.by; numbers[5] = end.cy
            numbers[6] = end.kx; numbers[7] = end.ky
            for g in 0..<Self.bucketCount {
                let bucket = end.bucket(g)
                let entry = numbers + 8 + 8 * g
                entry[0] = bucket.t0; entry[1] = bucket.d0; entry[2] = bucket.h0
                entry[3] = bucket.c3; entry[4] = bucket.c4; entry[5] = bucket.c5
                entry[6] = bucket.isCertified ? 1 : 0
            }
        }
        count += 1
        return Int32(count - 1)
    }

    /// The eased progress of curve `curve` at time fraction `x`; the bits of ``CubicBezier/progress(at:)``.
    func progress(_ curve: Int, at x: Double) -> Double { Self.progress(table, curve, at: x) }

    /// ``progress(_:at:)`` with the table (the solver's ``table``) passed in, for hot loops.
    static func progress(_ table: UnsafeMutablePointer<Double>, _ curve: Int, at x: Double) -> Double {
        let block = table + curve &* curveStride
        if x <= 0 { return block[0] * x }
        if x >= 1 { return 1 + block[1] * (x - 1) }
        let far = x > 0.5
        let target = far ? 1 - x : x
        let end = block + (8 &+ (far ? endStride : 0))
        let (g, position) = BezierEnd.bucket(holding: target)
        let entry = end + (8 &+ 8 &* g)
        let solver = BezierEnd(a: end[0], b: end[1], c: end[2], ay: end[3], by: end[4], cy: end[5], kx: end[6],
                               ky: end[7])
        let bucket = BezierEnd.Bucket(t0: entry[0], d0: entry[1], h0: entry[2], c3: entry[3], c4: entry[4],
                                      c5: entry[5], isCertified: entry[6] != 0)
        let y = solver.progress(target, position: position, bucket)
        return far ? 1 - y : y
    }

    /// The grid solve where its bucket is certified, for `x` in `0 < x < 1`: the progress, and whether it applies
    /// (otherwise the progress is meaningless and ``progress(_:_:at:)`` must answer). The arithmetic of
    /// ``BezierEnd/progress(_:position:_:)`` in a certified bucket, written out for the batch lane's loop.
    @inline(__always)
    static func certifiedProgress(_ table: UnsafeMutablePointer<Double>, _ curve: Int32, at x: Double)
        -> (progress: Double, applies: Bool)
    {
        let far = x > 0.5
        let target = far ? 1 - x : x
        let (g, position) = BezierEnd.bucket(holding: target)
        let end = table + (Int(curve) &* curveStride &+ 8 &+ (far ? endStride : 0))
        let entry = end + (8 &+ 8 &* g)
        let t = entry[0] + position * (entry[1] + position * (entry[2] + position * (entry[3] + position
            * (entry[4] + position * entry[5]))))
        let y = ((end[3] * t + end[4]) * t + end[5]) * t
        return (far ? 1 - y : y, entry[6] != 0 && x > 0 && x < 1)
    }
}
