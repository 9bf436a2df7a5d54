/// Core Animation's `CAMediaTiming`: maps parent time to an animation's fraction complete.
///
/// Local time is `(parentTime − beginTime)·speed + timeOffset`. The active time lasts
/// `repeatDuration` if set, else `repeatCount` cycles (at least one; `.infinity` repeats forever),
/// a cycle being `duration`, doubled when `autoreverses` (forward, then backward). Outside the
/// active time ``fillMode`` decides whether the first or last fraction is shown or nothing
/// (`nil`). Feed the fraction to ``KeyframeTrack/value(at:)``.
///
/// ```swift
/// let timing = MediaTiming(duration: 1, repeatCount: 2, autoreverses: true, fillMode: .forwards)
/// timing.fraction(atParentTime: 1.25)   // 0.75 (on the way back)
/// ```
public struct MediaTiming: Hashable, Sendable {
    /// When the animation starts, in parent time.
    public var beginTime: Seconds
    /// The length of one pass, > 0.
    public var duration: Seconds
    /// The local time rate relative to the parent, > 0.
    public var speed: Double
    /// Added to local time (an offset into the animation).
    public var timeOffset: Seconds
    /// Number of cycles (fractional allowed); 0 means one.
    public var repeatCount: Double
    /// Total active time; when > 0 it wins over ``repeatCount``.
    public var repeatDuration: Seconds
    /// Whether each cycle plays forward and then backward.
    public var autoreverses: Bool
    /// What is shown outside the active time.
    public var fillMode: FillMode

    /// Creates timing with Core Animation's defaults for everything not given.
    public init(beginTime: Seconds = .zero, duration: Seconds, speed: Double = 1, timeOffset: Seconds = .zero,
                repeatCount: Double = 0, repeatDuration: Seconds = .zero, autoreverses: Bool = false,
                fillMode: FillMode = .removed) {
        self.beginTime = beginTime
        self.duration = duration
        self.speed = speed
        self.timeOffset = timeOffset
        self.repeatCount = repeatCount
        self.repeatDuration = repeatDuration
        self.autoreverses = autoreverses
        self.fillMode = fillMode
    }

    /// The length of one cycle (doubled when autoreversing).
    public var cycleDuration: Seconds { autoreverses ? duration * 2 : duration }

    /// The active time in local seconds (may be infinite).
    public var activeDuration: Seconds {
        if repeatDuration.value > 0 { return repeatDuration }
        return cycleDuration * (repeatCount > 0 ? repeatCount : 1)
    }

    /// The fraction complete (0…1, before any timing function) at `parentTime`, or `nil` when the
    /// animation has no effect there.
    public func fraction(atParentTime parentTime: Seconds) -> Double? {
        let d = duration.value
        guard d > 0 else { return fillMode == .removed ? nil : 1 }
        let local = (parentTime.value - beginTime.value) * speed + timeOffset.value
        let active = activeDuration.value
        if local < 0 {
            return fillMode == .backwards || fillMode == .both ? 0 : nil
        }
        if local >= active {
            guard fillMode == .forwards || fillMode == .both, active.isFinite else { return nil }
            return fraction(atLocalTime: active, atEnd: true)
        }
        return fraction(atLocalTime: local, atEnd: false)
    }

    private func fraction(atLocalTime time: Double, atEnd: Bool) -> Double {
        let d = duration.value
        let cycle = cycleDuration.value
        var position = time.truncatingRemainder(dividingBy: cycle)
        // The last instant of a whole cycle belongs to that cycle, not to the next one.
        if atEnd && position == 0 && time > 0 { position = cycle }
        if autoreverses && position > d { return 1 - (position - d) / d }
        return min(1, position / d)
    }
}
