/// The time-dependent part of a ``PropertyAnimator`` (internal): where the run is and how it moves.
///
/// Everything a tick reads or writes lives here so that a tick is one exclusive access to one
/// stored property (Swift checks exclusivity of class properties at run time, per access).
struct AnimatorPlayhead {
    var state = AnimatingState.inactive
    var isRunning = false
    var hasAnimations = false
    /// Forward time fraction.
    var u = 0.0
    /// Forward presented progress.
    var p = 0.0
    /// Rate override of the schedule (time fraction per second); `nil` = 1 / duration.
    var rate: Double?
    /// A retimed remainder; when set it drives the motion instead of the schedule.
    var segment: AnimatorSegment?
    var reversed = false
    /// Seconds of start delay still to wait.
    var pendingDelay = 0.0
    /// The first animation when it is a plain number, for sampling without touching the array.
    var primary: ScalarFastPath?

    var motion: AnimatorMotion {
        get { segment.map { .segment($0) } ?? .schedule(rate: rate) }
        set {
            switch newValue {
            case .schedule(let newRate): rate = newRate; segment = nil
            case .segment(let newSegment): rate = nil; segment = newSegment
            }
        }
    }

    /// The first animation's value, when it is a number and the animator is not stopped.
    var primaryScalar: Double? {
        guard let primary, state != .stopped else { return nil }
        return primary.value(atProgress: p)
    }

    /// Moves by `dt` seconds if running; returns whether the run reached its end (u and p are then exact).
    mutating func advance(by delta: Double, timing: TimingCurve, duration: Double) -> Bool {
        guard state == .active, isRunning, hasAnimations else { return false }
        var dt = max(0, delta)
        if pendingDelay > 0 {
            let used = min(pendingDelay, dt)
            pendingDelay -= used
            dt -= used
            if pendingDelay > 0 { return false }
        }
        if segment != nil {
            segment?.elapsed += dt
            guard let current = segment else { return false }
            if current.elapsed >= current.duration - PropertyAnimator.timeEpsilon {
                u = current.target
                p = current.target
                return true
            }
            u = current.timeFraction
            p = current.progress
            return false
        }
        let speed = rate ?? (duration > 0 ? 1 / duration : .infinity)
        let step = speed.isFinite ? speed * dt : .infinity
        // Sums of tick lengths carry rounding error; a run within timeEpsilon of its end has ended.
        let slack = speed.isFinite ? speed * PropertyAnimator.timeEpsilon : 0
        if reversed {
            u -= step
            if u <= slack { u = 0; p = timing.evaluate(0, duration: duration); return true }
        } else {
            u += step
            if u >= 1 - slack { u = 1; p = timing.evaluate(1, duration: duration); return true }
        }
        p = timing.evaluate(u, duration: duration)
        return false
    }
}

/// The first animation of an animator when it is a plain number (internal fast path).
struct ScalarFastPath {
    var from: Double, to: Double, origin: Double, span: Double, clamps: Bool

    func value(atProgress p: Double) -> Double {
        let q = span != 0 ? (p - origin) / span : 1
        return from + (to - from) * (clamps ? max(0, q) : q)
    }
}
