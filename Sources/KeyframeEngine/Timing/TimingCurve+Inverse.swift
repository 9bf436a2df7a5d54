extension TimingCurve {
    /// Whether the curve can be re-entered from a value progress by solving for its time.
    ///
    /// Springs, steps and holds map many times to one progress, so a linear scrub on them is
    /// resumed by restarting the curve from the scrubbed value instead (engine.md §a.4).
    public var isInvertible: Bool {
        switch self {
        case .linear, .cubic, .quadraticEase: return true
        case .spring, .steps, .hold: return false
        }
    }

    /// The time fraction in `0...1` whose progress is `progress`, choosing the solution nearest
    /// to `reference` when the curve reaches that progress more than once.
    ///
    /// Returns `nil` for curves that are not ``isInvertible``. If the curve never reaches
    /// `progress`, returns the time where it comes closest.
    public func time(forProgress progress: Double, near reference: Double) -> Double? {
        switch self {
        case .linear:
            return min(1, max(0, progress))
        case .spring, .steps, .hold:
            return nil
        case .cubic, .quadraticEase:
            return Self.solve(progress, near: reference) { evaluate($0) }
        }
    }

    /// Finds the roots of `f(u) = target` on `0...1` by scanning and bisection.
    static func solve(_ target: Double, near reference: Double, _ f: (Double) -> Double) -> Double {
        let intervals = 256
        var best: Double?
        var closest = (u: 0.0, miss: Double.infinity)
        func consider(_ u: Double) {
            if let current = best, abs(current - reference) <= abs(u - reference) { return }
            best = u
        }
        var previousU = 0.0
        var previous = f(0) - target
        if previous == 0 { consider(0) }
        for i in 1...intervals {
            let u = Double(i) / Double(intervals)
            let value = f(u) - target
            if abs(value) < closest.miss { closest = (u, abs(value)) }
            if value == 0 {
                consider(u)
            } else if previous != 0 && (previous < 0) != (value < 0) {
                var lo = previousU, hi = u, flo = previous
                for _ in 0..<80 {
                    let mid = (lo + hi) / 2
                    let fm = f(mid) - target
                    if fm == 0 { lo = mid; hi = mid; break }
                    if (fm < 0) == (flo < 0) { lo = mid; flo = fm } else { hi = mid }
                }
                consider((lo + hi) / 2)
            }
            previousU = u
            previous = value
        }
        return best ?? closest.u
    }
}
