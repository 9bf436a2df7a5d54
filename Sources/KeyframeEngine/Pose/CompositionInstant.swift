import KeyframeModel

/// Where a composition's playhead stands at one moment of a clip: what the timing of the instances nested in it
/// depends on (format.md §4.7).
///
/// The one statement of the nested-time rule: `PoseSampler` samples with it, and the exporters that map nested
/// timelines onto a player's own timing (Core Animation layers, Lottie precomps) derive their keys from it.
public struct CompositionInstant: Sendable, Equatable {
    /// The composition's local frame.
    public var local: Double
    /// Global frames since the instance appeared.
    public var elapsed: Double
    /// Whether `local` advances with time (a loop or a running play-once; not a hold, a reverse or a stopped end).
    public var linear: Bool
    /// The composition's time without wraps or holds: what an instance that keeps its own time ages on.
    public var unwrapped: Double
    /// The range `lo ..< hi` the playhead stays in.
    public var lo: Double, hi: Double

    public init(local: Double, elapsed: Double, linear: Bool, unwrapped: Double, lo: Double, hi: Double) {
        self.local = local
        self.elapsed = elapsed
        self.linear = linear
        self.unwrapped = unwrapped
        self.lo = lo
        self.hi = hi
    }

    /// The instant of `instance`, nested in this composition by a content keyframe that starts at local frame
    /// `spanStart` and holds until `spanEnd` (`nil`: to the composition's end); `length` is the nested composition's
    /// duration in frames.
    public func child(_ instance: CompositionInstance, spanStart: Double, spanEnd: Double?,
                      length: Double) -> CompositionInstant {
        let parentAge = local - spanStart
        // Global frames since the span began: the parent's own progression when it runs linearly with time
        // (measured on its unwrapped time for an instance that keeps its own time across the parent's loops and
        // holds), otherwise the span began when the parent appeared. It keeps its own time only while the playhead
        // cannot leave its keyframe's span: the span covers the whole range the playhead runs in, so a wrap or a
        // stop never makes the instance reappear.
        let covers = spanStart <= lo && (spanEnd.map { hi <= $0 } ?? true)
        let keeps = instance.keepsTime && instance.clock == .independent && covers
        let spanElapsed = linear ? (keeps ? unwrapped - spanStart : parentAge) : elapsed
        let age = instance.clock == .parent ? parentAge : spanElapsed
        let (childLocal, childLinear) = PoseSampler.childFrame(instance, age: age, length: length, parentLinear: linear)
        // The child's own unwrapped time: its first frame plus its age, before wrapping (it matters only while the
        // child runs linearly, i.e. loops or has not reached its end).
        return CompositionInstant(local: childLocal, elapsed: spanElapsed, linear: childLinear,
                                  unwrapped: instance.firstFrame.value + age, lo: 0, hi: length)
    }
}
