extension CubicBezierSolver {
    /// The vector the batch solver works on: four lanes (two SSE registers), so that two chains of
    /// dependent multiplies and divisions are in flight at once.
    typealias BatchVector = SIMD4<Double>
    typealias BatchMask = SIMDMask<SIMD4<Int64>>

    /// The first half of ``bracket(_:)`` for the batch path: the samples around `x` and the lower
    /// end of their interval, so that the Newton start `lower + step · (x − previous) / span`
    /// (or `lower` when `span` is not positive) can be computed a vector of lanes at a time.
    ///
    /// For an `x` above the last sample, the scalar start is `x` itself: returned as
    /// `lower = x`, `span = 0`.
    @inline(__always)
    func bracketParts(_ x: Double) -> (lower: Double, previous: Double, span: Double) {
        let step = 1 / Double(CubicBezier.sampleCount - 1)
        let i = firstSample(atOrAbove: x)
        let found = sample(i)
        guard x <= found else { return (x, 0, 0) }
        let previous = sample(i - 1)
        return (step * Double(i) - step, previous, found - previous)
    }

    /// The Newton start from ``bracketParts(_:)``, a vector of lanes at a time; the scalar expression of
    /// ``bracket(_:)`` in each lane.
    @inline(__always)
    static func start(x: BatchVector, lower: BatchVector, previous: BatchVector,
                      span: BatchVector) -> BatchVector {
        let step = BatchVector(repeating: 1 / Double(CubicBezier.sampleCount - 1))
        var start = lower
        start.replace(with: lower + step * (x - previous) / span, where: span .> 0)
        return start
    }

    /// Solves `x(t) = x` by Newton's method for a vector of lanes at once, each with its own
    /// coefficients, and returns `y(t)` with the lanes that converged.
    ///
    /// Every lane follows the scalar iteration of ``progress(at:)`` exactly: the same start, the
    /// same operations in the same order, the same tests. A lane the scalar solver would leave
    /// early (converged) keeps the `t` it had at that point while the others go on. Lanes the
    /// scalar solver would send on to bisection (a flat slope, or no convergence in four steps)
    /// come back unsolved, as do lanes with `x` outside `0 < x < 1`: the caller solves them
    /// with ``progress(at:)``. Running the lanes together removes the unpredictable branch on the
    /// iteration count and overlaps their chains of multiplies and divisions, which is where the
    /// scalar solver spends its time.
    ///
    /// A linear curve is `a = b = 0`, `c = 1` with `ay = by = 0`, `cy = 1` and start `x`: it
    /// converges at once and returns `x` unchanged.
    @inline(__always)
    static func newton(x: BatchVector, start: BatchVector,
                       a: BatchVector, b: BatchVector, c: BatchVector,
                       ay: BatchVector, by: BatchVector, cy: BatchVector)
        -> (progress: BatchVector, solved: BatchMask) {
        let epsilon = BatchVector(repeating: CubicBezier.solverEpsilon)
        let threeA = 3 * a, twoB = 2 * b
        var t = start
        // Outside 0 < x < 1 the scalar solver extends the curve linearly: not a lane's job.
        var open = (x .> 0) .& (x .< 1)
        var solved = BatchMask(repeating: false)
        for _ in 0..<CubicBezier.maxNewtonIterations {
            let error = ((a * t + b) * t + c) * t - x
            // |error| < ε, written without abs; false for NaN, like the scalar test.
            let converged = open .& (error .< epsilon) .& (error .> -epsilon)
            solved .|= converged
            open .&= .!converged
            if !any(open) { break }
            let slope = (threeA * t + twoB) * t + c
            // A flat slope ends the scalar Newton loop without convergence (then bisection).
            open .&= .!((slope .< epsilon) .& (slope .> -epsilon))
            t.replace(with: t - error / slope, where: open)
        }
        return (((ay * t + by) * t + cy) * t, solved)
    }
}
