/// A ``CubicBezier`` prepared for evaluating many times: coefficients, end gradients and the 11
/// spline samples computed once (internal; used by the clock's batch lane).
///
/// ``progress(at:)`` performs exactly the arithmetic of ``CubicBezier/progress(at:)`` — the same
/// bracket, the same Newton steps, the same bisection — so the results are bit-identical; it
/// only skips recomputing the samples (on average half the work of a call).
struct CubicBezierSolver {
    let ax: Double, bx: Double, cx: Double
    let ay: Double, by: Double, cy: Double
    let startGradient: Double, endGradient: Double
    /// x(i / 10) for i = 0…10 (index 0 is x(0) = 0).
    let samples: (Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double)

    init(_ curve: CubicBezier) {
        ax = curve.ax; bx = curve.bx; cx = curve.cx
        ay = curve.ay; by = curve.by; cy = curve.cy
        startGradient = curve.startGradient
        endGradient = curve.endGradient
        let n = Double(CubicBezier.sampleCount - 1)
        samples = (0, curve.x(at: 1 / n), curve.x(at: 2 / n), curve.x(at: 3 / n), curve.x(at: 4 / n),
                   curve.x(at: 5 / n), curve.x(at: 6 / n), curve.x(at: 7 / n), curve.x(at: 8 / n),
                   curve.x(at: 9 / n), curve.x(at: 10 / n))
    }

    /// Whether the samples never decrease, which the branch-free bracket search relies on
    /// (true for every curve with `x1`, `x2` in `0...1`; checked rather than assumed).
    var hasRisingSamples: Bool {
        (1..<CubicBezier.sampleCount).allSatisfy { sample($0 - 1) <= sample($0) }
    }

    @inline(__always) func sample(_ i: Int) -> Double {
        withUnsafeBytes(of: samples) { $0.load(fromByteOffset: i &* 8, as: Double.self) }
    }

    /// The eased progress at time fraction `x`; bit-identical to ``CubicBezier/progress(at:)``.
    @inline(__always) func progress(at x: Double) -> Double {
        if x <= 0 { return startGradient * x }
        if x >= 1 { return 1 + endGradient * (x - 1) }
        let t = parameter(forX: x, epsilon: CubicBezier.solverEpsilon)
        return ((ay * t + by) * t + cy) * t
    }

    /// The index (1…10) of the first spline sample at or above `x`, as CubicBezier's linear scan
    /// finds it (10 also when no sample is: the caller checks).
    ///
    /// The samples never decrease (``hasRisingSamples``), so the samples below x are a prefix and
    /// the first one at or above x is 1 + how many of samples 1…9 lie below x, counted without
    /// branches.
    @inline(__always) func firstSample(atOrAbove x: Double) -> Int {
        var i = 1
        i &+= sample(1) < x ? 1 : 0
        i &+= sample(2) < x ? 1 : 0
        i &+= sample(3) < x ? 1 : 0
        i &+= sample(4) < x ? 1 : 0
        i &+= sample(5) < x ? 1 : 0
        i &+= sample(6) < x ? 1 : 0
        i &+= sample(7) < x ? 1 : 0
        i &+= sample(8) < x ? 1 : 0
        i &+= sample(9) < x ? 1 : 0
        return i
    }

    /// The Newton start for `x` in `0 < x < 1` and the bisection bracket around it: the linear
    /// interpolation between the two spline samples around `x`, as ``CubicBezier`` computes it.
    @inline(__always) func bracket(_ x: Double) -> (start: Double, lower: Double, upper: Double) {
        let step = 1 / Double(CubicBezier.sampleCount - 1)
        let i = firstSample(atOrAbove: x)
        let found = sample(i)
        guard x <= found else { return (x, 0, 1) }
        let previous = sample(i - 1)
        let upper = step * Double(i)
        let lower = upper - step
        let span = found - previous
        return (span > 0 ? lower + step * (x - previous) / span : lower, lower, upper)
    }

    @inline(__always) private func parameter(forX x: Double, epsilon: Double) -> Double {
        let a = ax, b = bx, c = cx
        let (start, lower, upper) = bracket(x)
        return CubicBezier.refine(x, start: start, lower: lower, upper: upper, a: a, b: b, c: c, epsilon: epsilon)
    }
}
