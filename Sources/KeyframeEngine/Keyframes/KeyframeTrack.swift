import Foundation

/// A `CAKeyframeAnimation`-style track: values at key times, evaluated at a fraction of its duration.
///
/// Evaluation follows engine.md §d: the animation-level ``timingFunction`` is applied first,
/// then the segment is found from ``keyTimes`` and the segment's own timing function is
/// applied, then ``calculationMode`` interpolates. Key times that are missing or invalid for
/// the mode (wrong count, not starting at 0 and ending at 1, decreasing, out of range) are
/// replaced by even spacing; paced modes ignore key times and timing functions altogether.
/// Every keyframe value is a vector (one component for scalars).
///
/// A track can follow a ``KeyframePath`` instead of values (`CAKeyframeAnimation.path`, which
/// supersedes `values`): the path's vertices are the keyframes for key-time counting, and between
/// two vertices the position moves along the segment's own line or curve. With a path, `linear`
/// and `cubic` both follow the path's geometry, and `paced` and `cubicPaced` both travel it at
/// constant speed by arc length (Core Animation documents no spline through a path's vertices;
/// docs/engine.md, decision 22). ``rotation(at:)`` gives the direction of travel for a
/// ``RotationMode``.
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

    /// The path the track follows instead of values (its vertices are then ``values``).
    public let path: KeyframePath?
    /// Whether and how the layer turns along ``path``.
    public let rotationMode: RotationMode?

    /// The key times actually used for segment lookup.
    public let resolvedKeyTimes: [Double]
    let spline: HermiteSpline?
    let arcLength: ArcLengthTable<HermiteSpline>?
    let pathLength: ArcLengthTable<KeyframePath>?

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
        path = nil
        rotationMode = nil
        pathLength = nil
        let n = values.count
        resolvedKeyTimes = Self.resolved(keyTimes, keyframes: n, mode: calculationMode) {
            calculationMode == .paced ? Self.paced(values) : Self.even(n)
        }
        if (calculationMode == .cubic || calculationMode == .cubicPaced) && n >= 2 {
            let spline = HermiteSpline(points: values, keyTimes: resolvedKeyTimes, tension: tensionValues,
                                       continuity: continuityValues, bias: biasValues)
            self.spline = spline
            arcLength = calculationMode == .cubicPaced ? ArcLengthTable(curve: spline) : nil
        } else {
            spline = nil
            arcLength = nil
        }
    }

    /// Creates a track that moves along `path` (values are `[x, y]`).
    ///
    /// - Parameters:
    ///   - path: the path the value follows.
    ///   - keyTimes: one per vertex (`path.segments.count + 1`; one more for `discrete`), or
    ///     `nil` for even spacing; ignored by the paced modes.
    ///   - timingFunctions: one per segment; missing entries are linear.
    ///   - timingFunction: one curve over the whole track (applied to the time before the segments' own).
    ///   - calculationMode: how values between keys are found (`CAKeyframeAnimation`'s calculation modes).
    ///   - rotationMode: whether ``rotation(at:)`` reports the direction of travel.
    public init(path: KeyframePath, keyTimes: [Double]? = nil, timingFunctions: [TimingCurve] = [],
                timingFunction: TimingCurve? = nil, calculationMode: CalculationMode = .linear,
                rotationMode: RotationMode? = nil) {
        values = path.vertices.map { [$0.x, $0.y] }
        self.keyTimes = keyTimes
        self.timingFunctions = timingFunctions
        self.timingFunction = timingFunction
        self.calculationMode = calculationMode
        tensionValues = []
        continuityValues = []
        biasValues = []
        self.path = path
        self.rotationMode = rotationMode
        spline = nil
        arcLength = nil
        let n = values.count
        let lengths = calculationMode == .paced || calculationMode == .cubicPaced ? ArcLengthTable(curve: path) : nil
        pathLength = lengths
        resolvedKeyTimes = Self.resolved(keyTimes, keyframes: n, mode: calculationMode) {
            guard let lengths, lengths.total > 0 else { return Self.even(n) }
            return lengths.cumulative.map { $0 / lengths.total }
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
        if let path {
            switch pathLocation(at: fraction) {
            case .vertex(let index): return values[index]
            case .along(let segment, let u):
                let point = path.point(segment: segment, at: u)
                return [point.x, point.y]
            }
        }
        let paced = calculationMode == .paced || calculationMode == .cubicPaced
        let f = paced ? min(1, max(0, fraction)) : (timingFunction?.evaluate(fraction) ?? fraction)
        switch calculationMode {
        case .discrete:
            return values[discreteIndex(at: f)]
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

    /// The layer's rotation in radians at `fraction` when the track follows a path with a
    /// ``rotationMode`` and at least one segment; `nil` otherwise (Core Animation leaves rotation
    /// alone then).
    ///
    /// The angle is `atan2(dy, dx)` of the direction of travel at the sampled point (turned by
    /// half a turn for ``RotationMode/autoReverse``, kept in `-π...π`). At a `discrete` vertex it is
    /// the direction leaving the vertex (arriving, at the last one). Where a segment has no
    /// direction (a move, a curve collapsed to a point) the nearest segment with one is used; a
    /// path without any gives 0.
    public func rotation(at fraction: Double) -> Double? {
        guard let path, let rotationMode, !path.segments.isEmpty else { return nil }
        let (segment, u): (Int, Double)
        switch pathLocation(at: fraction) {
        case .vertex(let index):
            (segment, u) = index < path.segments.count ? (index, 0) : (index - 1, 1)
        case .along(let s, let v):
            (segment, u) = (s, v)
        }
        var direction = path.direction(segment: segment, at: u)
        // A segment without a direction borrows the nearest one: backwards first, then forwards.
        var before = segment - 1, after = segment + 1
        while direction == nil && (before >= 0 || after < path.segments.count) {
            if before >= 0 { direction = path.direction(segment: before, at: 1); before -= 1 }
            if direction == nil && after < path.segments.count { direction = path.direction(segment: after, at: 0); after += 1 }
        }
        guard let d = direction else { return 0 }
        return rotationMode == .auto ? atan2(d.y, d.x) : atan2(-d.y, -d.x)
    }

    /// Where a path track is at `fraction`.
    private enum PathLocation {
        case vertex(Int)
        case along(segment: Int, u: Double)
    }

    private func pathLocation(at fraction: Double) -> PathLocation {
        switch calculationMode {
        case .discrete:
            let f = timingFunction?.evaluate(fraction) ?? fraction
            return .vertex(discreteIndex(at: f))
        case .linear, .cubic:
            let (i, u) = segment(at: timingFunction?.evaluate(fraction) ?? fraction)
            return .along(segment: i, u: easing(segment: i, u))
        case .paced, .cubicPaced:
            guard let pathLength else { return .vertex(0) }
            let (i, u) = pathLength.location(atFraction: min(1, max(0, fraction)))
            return .along(segment: i, u: u)
        }
    }

    private func discreteIndex(at f: Double) -> Int {
        var index = 0
        for i in 0..<values.count where resolvedKeyTimes[i] <= f { index = i }
        return index
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

    /// The key times used for `n` keyframes in `mode`: the given ones when valid for the mode (n + 1 for
    /// `discrete`), else even spacing; the paced modes ignore them and use `paced()`.
    static func resolved(_ keyTimes: [Double]?, keyframes n: Int, mode: CalculationMode,
                         paced: () -> [Double]) -> [Double] {
        switch mode {
        case .discrete: return valid(keyTimes, count: n + 1) ?? even(n + 1)
        case .linear, .cubic: return valid(keyTimes, count: n) ?? even(n)
        case .paced, .cubicPaced: return paced()
        }
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
