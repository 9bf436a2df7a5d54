/// How a running animator's progress moves with time (internal).
///
/// `schedule` follows the animator's own curve: the forward time fraction `u` advances at a
/// constant rate and the presented progress is `curve(u)`. `segment` is a retimed remainder
/// (after `continue` with new timing, or a linear scrub on a curve that cannot be inverted): it
/// moves the progress from where it was to the end of the run along its own curve and time.
enum AnimatorMotion: Hashable, Sendable {
    /// Follow the original curve; `rate` in time fraction per second overrides `1 / duration`.
    case schedule(rate: Double?)
    /// Follow a retimed segment.
    case segment(AnimatorSegment)
}

/// A retimed remainder of a run (internal): from progress `fromProgress` to `target` over `duration`.
struct AnimatorSegment: Hashable, Sendable {
    /// Presented progress when the segment began.
    var fromProgress: Double
    /// Forward time fraction when the segment began.
    var fromFraction: Double
    /// Where the segment ends: 1 (forward) or 0 (reversed); also the final time fraction.
    var target: Double
    /// The segment's curve, from 0 to 1 over the segment.
    var curve: TimingCurve
    /// The segment's length in seconds.
    var duration: Double
    /// Seconds spent in the segment so far.
    var elapsed: Double

    /// The fraction of the segment done.
    var fraction: Double { duration > 0 ? min(1, elapsed / duration) : 1 }

    /// The presented progress now.
    var progress: Double {
        fromProgress + (target - fromProgress) * curve.evaluate(fraction, duration: duration)
    }

    /// The forward time fraction now (moves linearly through the segment).
    var timeFraction: Double { fromFraction + (target - fromFraction) * fraction }
}
