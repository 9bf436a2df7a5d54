/// A `CAKeyframeAnimation`-style track: values at key times, evaluated at a fraction of its duration.
///
/// Evaluation follows engine.md §d: the animation-level ``timingFunction`` is applied first,
/// then the segment is found from ``keyTimes`` and the segment's own timing function is
/// applied, then ``calculationMode`` interpolates. Key times that are missing or invalid for
/// the mode (wrong count, not starting at 0 and ending at 1, decreasing, out of range) are
/// replaced by even spacing; paced modes ignore key times and timing functions altogether.
/// Every keyframe value is a vector (one component for scalars).
///
/// ```swift
/// let track = KeyframeTrack(scalars: [0, 10, -5, 20], keyTimes: [0, 0.3, 0.8, 1],
///                           timingFunctions: [.easeOut, .linear, .easeIn])
/// track.scalar(at: 0.5)
/// ```
public struct KeyframeTrack: Hashable, Sendable {
    /// The keyframe values, all with the same number of components.
    public let values: [[Double]]
    /// The key times in `0...1` as given (`nil` = evenly spaced).
    public let keyTimes: [Double]?
    /// Per-segment timing functions; missing entries are linear.
    public let timingFunctions: [TimingCurve]
    /// The animation-level timing function, applied before the segments' own.
    public let timingFunction: TimingCurve?
    /// The interpolation mode.
    public let calculationMode: CalculationMode
    /// Kochanek–Bartels tension per keyframe (missing = 0), cubic modes only.
    public let tensionValues: [Double]
    /// Kochanek–Bartels continuity per keyframe (missing = 0), cubic modes only.
    public let continuityValues: [Double]
    /// Kochanek–Bartels bias per keyframe (missing = 0), cubic modes only.
    public let biasValues: [Double]

    /// The key times actually used for segment lookup.
    public let resolvedKeyTimes: [Double]
    let spline: HermiteSpline?
    let arcLength: ArcLengthTable?

    /// Creates a track of vector values.
    public init(values: [[Double]], keyTimes: [Double]? = nil, timingFunctions: [TimingCurve] = [],
                timingFunction: TimingCurve? = nil, calculationMode: CalculationMode = .linear,
                tensionValues: [Double] = [], continuityValues: [Double] = [], biasValues: [Double] = []) {
        self.values = values
        self.keyTimes = keyTimes
        self.timingFunctions = timingFunctions
        self.timingFunction = timingFunction
        self.calculationMode = calculationMode
        self.tensionValues = tensionValues
        self.continuityValues = continuityValues
        self.biasValues = biasValues
        let n = values.count
        switch calculationMode {
        case .discrete:
            resolvedKeyTimes = Self.valid(keyTimes, count: n + 1) ?? Self.even(n + 1)
        case .linear, .cubic:
            resolvedKeyTimes = Self.valid(keyTimes, count: n) ?? Self.even(n)
        case .paced:
            resolvedKeyTimes = Self.paced(values)
        case .cubicPaced:
            resolvedKeyTimes = Self.even(n)
        }
        if (calculationMode == .cubic || calculationMode == .cubicPaced) && n >= 2 {
            let spline = HermiteSpline(points: values, keyTimes: resolvedKeyTimes, tension: tensionValues,
                                       continuity: continuityValues, bias: biasValues)
            self.spline = spline
            arcLength = calculationMode == .cubicPaced ? ArcLengthTable(spline: spline) : nil
        } else {
            spline = nil
            arcLength = nil
        }
    }

    /// Creates a track of scalar values.
    public init(scalars: [Double], keyTimes: [Double]? = nil, timingFunctions: [TimingCurve] = [],
                timingFunction: TimingCurve? = nil, calculationMode: CalculationMode = .linear,
                tensionValues: [Double] = [], continuityValues: [Double] = [], biasValues: [Double] = []) {
        self.init(values: scalars.map { [$0] }, keyTimes: keyTimes, timingFunctions: timingFunctions,
                  timingFunction: timingFunction, calculationMode: calculationMode, tensionValues: tensionValues,
                  continuityValues: continuityValues, biasValues: biasValues)
    }

    /// The value at `parentTime` under Core Animation media timing, or `nil` when the animation
    /// has no effect then (see ``MediaTiming``).
    public func value(atParentTime parentTime: Seconds, timing: MediaTiming) -> [Double]? {
        timing.fraction(atParentTime: parentTime).map { value(at: $0) }
    }

    /// The first component of ``value(at:)``.
    public func scalar(at fraction: Double) -> Double { value(at: fraction).first ?? 0 }

    /// The value at `fraction` of the animation's duration (0 = start, 1 = end).
    public func value(at fraction: Double) -> [Double] {
        let n = values.count
        guard n > 1 else { return values.first ?? [] }
        let paced = calculationMode == .paced || calculationMode == .cubicPaced
        let f = paced ? min(1, max(0, fraction)) : (timingFunction?.evaluate(fraction) ?? fraction)
        switch calculationMode {
        case .discrete:
            var index = 0
            for i in 0..<n where resolvedKeyTimes[i] <= f { index = i }
            return values[index]
        case .linear, .paced:
            let (i, u) = segment(at: f)
            let eased = paced ? u : easing(segment: i, u)
            return zip(values[i], values[i + 1]).map { $0 + ($1 - $0) * eased }
        case .cubic:
            let (i, u) = segment(at: f)
            return spline.map { $0.point(segment: i, at: easing(segment: i, u)) } ?? values[i]
        case .cubicPaced:
            guard let spline, let arcLength else { return values[0] }
            let (i, u) = arcLength.location(atFraction: f)
            return spline.point(segment: i, at: u)
        }
    }

    private func easing(segment i: Int, _ u: Double) -> Double {
        i < timingFunctions.count ? timingFunctions[i].evaluate(u) : u
    }

    /// The segment holding `f` and the fraction inside it (extrapolated outside `0...1`).
    private func segment(at f: Double) -> (Int, Double) {
        let times = resolvedKeyTimes
        let last = times.count - 2
        var i = 0
        while i < last && times[i + 1] <= f { i += 1 }
        let span = times[i + 1] - times[i]
        return (i, span > 0 ? (f - times[i]) / span : 1)
    }

    static func even(_ count: Int) -> [Double] {
        count < 2 ? [0] : (0..<count).map { Double($0) / Double(count - 1) }
    }

    static func valid(_ times: [Double]?, count: Int) -> [Double]? {
        guard let times, times.count == count, times.first == 0, times.last == 1 else { return nil }
        for (a, b) in zip(times, times.dropFirst()) where !(a <= b) { return nil }
        return times.allSatisfy { (0...1).contains($0) } ? times : nil
    }

    static func paced(_ values: [[Double]]) -> [Double] {
        let distances = zip(values, values.dropFirst()).map { a, b in
            zip(a, b).reduce(0) { $0 + ($1.1 - $1.0) * ($1.1 - $1.0) }.squareRoot()
        }
        let total = distances.reduce(0, +)
        guard total > 0 else { return even(values.count) }
        var times = [0.0]
        var sum = 0.0
        for d in distances { sum += d; times.append(sum / total) }
        times[times.count - 1] = 1
        return times
    }
}
