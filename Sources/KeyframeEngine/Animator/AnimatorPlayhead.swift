/// The time-dependent part of a ``PropertyAnimator`` (internal): where the run is and how it moves.
struct AnimatorPlayhead {
    /// Forward time fraction.
    var u = 0.0
    /// Forward presented progress.
    var p = 0.0
    var motion = AnimatorMotion.schedule(rate: nil)
    var reversed = false
    /// Seconds of start delay still to wait.
    var pendingDelay = 0.0

    /// Moves by `dt` seconds; returns whether the run reached its end (u and p are then exact).
    mutating func advance(by delta: Double, timing: TimingCurve, duration: Double) -> Bool {
        var dt = max(0, delta)
        if pendingDelay > 0 {
            let used = min(pendingDelay, dt)
            pendingDelay -= used
            dt -= used
            if pendingDelay > 0 { return false }
        }
        switch motion {
        case .schedule(let rate):
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
        case .segment(var segment):
            segment.elapsed += dt
            motion = .segment(segment)
            if segment.elapsed >= segment.duration - PropertyAnimator.timeEpsilon {
                u = segment.target
                p = segment.target
                return true
            }
            u = segment.timeFraction
            p = segment.progress
            return false
        }
    }
}
