/// One end of a monotone cubic Bézier timing curve, as the solver inverts it (internal).
///
/// ``CubicBezier`` solves `x(t) = x` from the nearer end of the curve: from its start for `x ≤ ½`, and for
/// `x > ½` on the curve mirrored through (½, ½) (control points `(1 − x2, 1 − y2)`, `(1 − x1, 1 − y1)`) at
/// `1 − x`, which is exact. Seen from either end the power form `((a·t + b)·t + c)·t` keeps its relative precision
/// down to `t → 0`, also where the curve is vertical or flat at that end, so a root found there is as precise as the
/// input allows.
///
/// **When a value is taken.** A parameter `t` is accepted when its residual `r = x(t) − x` proves it close enough:
/// x is monotone and `|x''| ≤ kx`, so if `2·kx·|r| < x'(t)²` the root lies within `2|r|/x'(t)` of `t` (x′ cannot fall
/// to zero in between), and `|y'| ≤ ky` puts `y(t)` within `2·ky·|r|/x'(t)` of the exact value; that must be at most
/// ``tolerance`` (1e-11, a hundredth of the 1e-9 guaranteed: the rest covers the rounding of `r`, which the power
/// form from the nearer end keeps to a few units in the last place of `x`).
///
/// Two solves, the same arithmetic whether their numbers are computed on the spot (``CubicBezier/progress(at:)``)
/// or read from a table prepared once (``CubicBezierSolver``):
/// - the **grid solve** (``progress(_:position:_:)``), what every evaluation tries first: x in `0…½` is cut into
///   256 equal buckets; the direct solves at a bucket's two ends and the first and second derivatives of `t(x)` there
///   give a quintic Hermite start for any `x` inside it (a few multiplications, no division). Where a bound of the
///   interpolant's error proves it within the tolerance over the whole bucket (``Bucket/isCertified``: almost every
///   bucket of the usual curves), `y` of the start is the answer; elsewhere the start is taken if its residual passes
///   the test above, and the direct solve answers when it does not (near a vertical or flat end).
/// - the **direct solve** (``parameter(for:)``): the end's parameter range `0…1` is cut into 64 equal cells; the cell
///   holding the root is the last one whose first sample `x(j/64)` lies below `x` (binary search); the start is the
///   cubic Hermite interpolant of the inverse `t(x)` over the cell, from the samples at its ends and their slopes
///   (clamped to 0…3, which keeps it monotone and inside the cell, also where the slope vanishes); then Newton steps,
///   each kept inside the cell, until the test passes; if six steps do not get there (a start far from a root at a
///   vertical end), bisection of the cell to adjacent doubles, which brackets the root.
///
/// ``CubicBezierSolver`` tabulates the grid, so a prepared curve in a certified bucket costs a lookup and a dozen
/// multiplications.
struct BezierEnd {
    /// x(t) = ((a·t + b)·t + c)·t from this end.
    let a: Double, b: Double, c: Double
    /// y(t) = ((ay·t + by)·t + cy)·t from this end.
    let ay: Double, by: Double, cy: Double
    /// Bounds of |x''| and |y'| over the curve (the acceptance test's constants).
    let kx: Double, ky: Double

    // Constants as computed properties, which fold into the code (a stored `static let` is read through a lazy
    // initializer on every use).

    /// Cells per end.
    static var cellCount: Int { 64 }
    /// The width of a cell in t.
    static var cellWidth: Double { 1.0 / 64 }
    /// How far from the exact curve an accepted value may be, before rounding (the guarantee is 1e-9).
    static var tolerance: Double { 1e-11 }
    /// Newton steps before the cell is bisected instead.
    static var newtonSteps: Int { 6 }
    /// Grid buckets over x in `0…½` (bucket `g` is `g / 512 ..< (g + 1) / 512`; one more for x = ½).
    static var gridBuckets: Int { 256 }
    /// The width of a grid bucket in x.
    static var gridWidth: Double { 1.0 / 512 }

    /// The end of the curve with inner control points `(x1, y1)`, `(x2, y2)` that starts at (0, 0); pass the mirrored
    /// points for the other end.
    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        c = 3 * x1
        b = 3 * (x2 - x1) - c
        a = 1 - c - b
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
        // |x''| is largest at an end of 0…1 (x'' is linear); |y'| is at most 3 × the largest difference of
        // consecutive y control points (the hull of its Bernstein coefficients). Mirroring keeps both.
        kx = max(abs(2 * b), abs(6 * a + 2 * b))
        ky = Self.valueSlopeBound(y1, y2)
    }

    /// An end from its numbers as ``CubicBezierSolver`` stores them.
    init(a: Double, b: Double, c: Double, ay: Double, by: Double, cy: Double, kx: Double, ky: Double) {
        self.a = a; self.b = b; self.c = c
        self.ay = ay; self.by = by; self.cy = cy
        self.kx = kx; self.ky = ky
    }

    /// The start of `curve` (for `x ≤ ½`).
    static func start(of curve: CubicBezier) -> BezierEnd { BezierEnd(curve.x1, curve.y1, curve.x2, curve.y2) }

    /// The end of `curve` seen backwards (for `x > ½`, solved at `1 − x`).
    static func end(of curve: CubicBezier) -> BezierEnd {
        BezierEnd(1 - curve.x2, 1 - curve.y2, 1 - curve.x1, 1 - curve.y1)
    }

    /// An upper bound of |dy/dt| over the curve: 3 × the largest step between its y control points.
    static func valueSlopeBound(_ y1: Double, _ y2: Double) -> Double {
        3 * max(abs(y1), abs(y2 - y1), abs(1 - y2))
    }

    @inline(__always) func x(_ t: Double) -> Double { ((a * t + b) * t + c) * t }
    @inline(__always) func slope(_ t: Double) -> Double { (3 * a * t + 2 * b) * t + c }
    @inline(__always) func y(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }

    /// The sample at the start of cell `j` (`j` in 0…64).
    @inline(__always) func sample(_ j: Int) -> Double { x(Double(j) * Self.cellWidth) }

    /// The cell holding the root of `x(t) = target` (`target` in `0 < target ≤ ½`): the last `j` in 0…63 with
    /// `sample(j) < target`, by binary search over computed samples.
    func cell(holding target: Double) -> Int {
        var j = 0
        var span = Self.cellCount / 2
        while span > 0 {
            if target > sample(j + span) { j += span }
            span /= 2
        }
        return j
    }

    /// What the start and the Newton steps need of cell `j`.
    struct Cell {
        /// The sample at the cell's start.
        var low: Double
        /// 1 / (the cell's width in x).
        var inverseWidth: Double
        /// The slopes of the inverse at the cell's two ends, in the cell's unit square, clamped to 0…3.
        var startSlope: Double, endSlope: Double
    }

    /// Cell `j`'s numbers (computed; ``CubicBezierSolver`` tabulates the same values).
    @inline(__always) func cellNumbers(_ j: Int) -> Cell {
        Self.cellNumbers(low: sample(j), high: sample(j + 1), lowSlope: slope(Double(j) * Self.cellWidth),
                         highSlope: slope(Double(j + 1) * Self.cellWidth))
    }

    /// A cell's numbers from the samples and the slopes of x at its ends.
    @inline(__always)
    static func cellNumbers(low: Double, high: Double, lowSlope: Double, highSlope: Double) -> Cell {
        let width = high - low
        return Cell(low: low, inverseWidth: 1 / width, startSlope: clampSlope(width / (cellWidth * lowSlope)),
                    endSlope: clampSlope(width / (cellWidth * highSlope)))
    }

    /// A Hermite slope kept in 0…3 (3 where x is flat: the inverse is vertical there).
    @inline(__always) static func clampSlope(_ m: Double) -> Double {
        let low = m >= 0 ? m : 0
        return low < 3 ? low : 3
    }

    /// The Hermite start in cell `j` for `target`.
    @inline(__always)
    static func start(_ target: Double, cell j: Int, _ cell: Cell) -> Double {
        let s = (target - cell.low) * cell.inverseWidth
        let r = 1 - s
        let tau = s * s * (3 - 2 * s) + s * r * (cell.startSlope * r - cell.endSlope * s)
        return (Double(j) + tau) * cellWidth
    }

    /// Whether `t`, with residual `residual = x(t) − target` and slope `slope = x'(t)`, has a value within
    /// ``tolerance`` of the exact curve (type comment). False for a NaN.
    @inline(__always)
    func accepts(residual: Double, slope: Double) -> Bool {
        let r = abs(residual)
        return 2 * kx * r < slope * slope && 2 * ky * r <= Self.tolerance * slope
    }

    /// The root of `x(t) = target` (`0 < target ≤ ½`, or a little above ½ for the grid's last bucket) by the direct
    /// solve: cell, Hermite start, Newton steps, bisection.
    func parameter(for target: Double) -> Double {
        let j = cell(holding: target)
        let lower = Double(j) * Self.cellWidth, upper = Double(j + 1) * Self.cellWidth
        var t = Self.start(target, cell: j, cellNumbers(j))
        for _ in 0...Self.newtonSteps {
            let residual = x(t) - target, slope = slope(t)
            if accepts(residual: residual, slope: slope) { return t }
            var next = t - residual / slope
            next = next >= lower ? next : lower
            t = next < upper ? next : upper
        }
        // x(lower) < target ≤ x(upper): halve the cell until no double lies between the ends.
        var low = lower, high = upper
        while true {
            let middle = (low + high) / 2
            if middle <= low || middle >= high { break }
            if x(middle) < target { low = middle } else { high = middle }
        }
        return target - x(low) <= x(high) - target ? low : high
    }

    /// The root of `x(t) = target` to about the last bit: the direct solve's (accurate to the tolerance, ~1e-12 in
    /// t), then one more Newton step (the error squares), for the grid, whose starts must be much better than that.
    func polished(_ target: Double) -> Double {
        let t = parameter(for: target)
        let slope = slope(t)
        return slope > 0 ? t - (x(t) - target) / slope : t
    }

    /// A grid bucket's start, in powers of the position `σ` in the bucket (0…1): the quintic Hermite interpolant of
    /// `t(x)` between the bucket's ends (value, first and second derivative at each),
    /// `t ≈ t0 + σ·(d0 + σ·(h0 + σ·(c3 + σ·(c4 + σ·c5))))`.
    struct Bucket {
        var t0: Double, d0: Double, h0: Double, c3: Double, c4: Double, c5: Double
        /// Whether the interpolant is proven within the tolerance (in y) all over the bucket.
        var isCertified: Bool
    }

    /// Bucket `g`'s start numbers from the direct solves at its ends (``CubicBezierSolver`` tabulates the same
    /// values). Where the slope vanishes (a vertical inverse) they are not finite, and the grid solve fails.
    func bucket(_ g: Int) -> Bucket {
        let t0 = g == 0 ? 0 : polished(Double(g) * Self.gridWidth)
        let t1 = polished(Double(g + 1) * Self.gridWidth)
        // In σ: dt/dσ = w / x'(t) and d²t/dσ² = −w² · x''(t) / x'(t)³, with w the bucket's width in x.
        let w = Self.gridWidth
        let slope0 = slope(t0), slope1 = slope(t1)
        let d0 = w / slope0, d1 = w / slope1
        let s0 = -w * w * curvature(t0) / (slope0 * slope0 * slope0)
        let s1 = -w * w * curvature(t1) / (slope1 * slope1 * slope1)
        let rise = t1 - t0
        return Bucket(t0: t0, d0: d0, h0: s0 / 2,
                      c3: 10 * rise - 6 * d0 - 4 * d1 - (3 * s0 - s1) / 2,
                      c4: -15 * rise + 8 * d0 + 7 * d1 + (3 * s0 - 2 * s1) / 2,
                      c5: 6 * rise - 3 * (d0 + d1) - (s0 - s1) / 2,
                      isCertified: interpolationError(from: t0, to: t1) * ky <= Self.tolerance)
    }

    /// A bound of how far the quintic Hermite interpolant of `t(x)` over a bucket spanning `t0…t1` can be from
    /// `t(x)`, in t (infinite where x′ may vanish).
    ///
    /// The interpolant's error is `t⁽⁶⁾(ξ)/6! · (x − x0)³(x − x1)³`, at most `max|t⁽⁶⁾| · w⁶ / 46080`. For the inverse
    /// of a cubic (x⁗ = 0), `t⁽⁶⁾ = −35·x″·(8·x′²·x‴² − 36·x′·x″²·x‴ + 27·x″⁴) / x′¹¹`, bounded with x′'s least and
    /// largest values over `t0…t1` (x′ is quadratic), |x″|'s largest (x″ is linear) and |x‴| = 6|a|. A margin of
    /// 1e-13 covers the rounding of the bucket's numbers and of the evaluation.
    func interpolationError(from t0: Double, to t1: Double) -> Double {
        let slope0 = slope(t0), slope1 = slope(t1)
        var least = min(slope0, slope1), largest = max(slope0, slope1)
        if a != 0 {
            let vertex = -b / (3 * a)
            if vertex > t0 && vertex < t1 {
                least = min(least, slope(vertex))
                largest = max(largest, slope(vertex))
            }
        }
        guard least > 0 else { return .infinity }
        let m2 = max(abs(curvature(t0)), abs(curvature(t1))), m3 = abs(6 * a)
        let numerator = 35 * m2 * (8 * largest * largest * m3 * m3 + 36 * largest * m2 * m2 * m3 + 27 * m2 * m2 * m2 * m2)
        var denominator = least
        for _ in 1..<11 { denominator *= least }
        let w = Self.gridWidth
        let w6 = w * w * w * w * w * w
        return numerator / denominator * w6 / 46080 + 1e-13
    }

    /// x''(t).
    @inline(__always) func curvature(_ t: Double) -> Double { 6 * a * t + 2 * b }

    /// 1.5 · 2⁵²: adding it to a double of magnitude below 2⁵¹ rounds it to an integer held in the low bits.
    static var roundingShift: Double { 6755399441055744.0 }

    /// The bucket holding `target` (in `0 < target ≤ ½`) and the position in it (0…1).
    ///
    /// The bucket is `target × 512 − ½` rounded to the nearest integer (ties to even): the bucket whose interval
    /// holds `target` (at a boundary either neighbour, at position 1 or 0). Rounding by adding ``roundingShift``
    /// needs no conversion to `Int` (with its range checks) in the batch lane's loop.
    @inline(__always) static func bucket(holding target: Double) -> (g: Int, position: Double) {
        let scaled = target * Double(2 * gridBuckets)
        let rounded = (scaled - 0.5) + roundingShift
        let g = Int(truncatingIfNeeded: Int64(bitPattern: rounded.bitPattern)
                    &- Int64(bitPattern: roundingShift.bitPattern))
        return (g, scaled - (rounded - roundingShift))
    }

    /// The grid solve's start.
    @inline(__always) static func gridStart(_ position: Double, _ bucket: Bucket) -> Double {
        bucket.t0 + position * (bucket.d0 + position * (bucket.h0 + position * (bucket.c3 + position
            * (bucket.c4 + position * bucket.c5))))
    }

    /// y at the root of `x(t) = target` (`0 < target ≤ ½`): the grid solve's start in a certified bucket, or where
    /// it passes the test (``accepts(residual:slope:)``), else the direct solve. `bucket` holds the numbers of the
    /// bucket holding `target`, `position` the place in it.
    @inline(__always)
    func progress(_ target: Double, position: Double, _ bucket: Bucket) -> Double {
        let t = Self.gridStart(position, bucket)
        if bucket.isCertified || accepts(residual: x(t) - target, slope: slope(t)) { return y(t) }
        return y(parameter(for: target))
    }
}
