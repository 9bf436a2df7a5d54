/// One animation attached to a ``PropertyAnimator``: a target and where it sits on the
/// animator's progress.
///
/// An animation's own progress `q` is a linear function of the animator's presented progress
/// `p`: `q = (p − origin) / (destination − origin)`. Animations present at the start span the
/// whole run (`origin` 0, `destination` 1); an animation added mid-flight starts from the
/// progress at which it was added (plus its delay) and ends where the animator is heading, so
/// every animation stays continuous under pause, reverse, scrub and continue.
public struct Animation: Hashable, Sendable {
    /// The animation's identity within its animator.
    public let id: AnimationID
    /// What the animation drives.
    public let target: AnimationTarget
    /// The animator progress at which the animation starts (its `q = 0`).
    public let origin: Double
    /// The animator progress at which the animation ends (its `q = 1`): 1, or 0 if added while reversed.
    public let destination: Double

    /// Whether `q` is clamped at 0 on the origin side (animations that start later than the run).
    @usableFromInline var clampsOrigin: Bool { origin != 1 - destination }

    /// The animation's own progress when the animator presents progress `p`.
    @inlinable public func progress(forAnimatorProgress p: Double) -> Double {
        let span = destination - origin
        guard span != 0 else { return 1 }
        let q = (p - origin) / span
        return clampsOrigin ? max(0, q) : q
    }

    /// The value presented when the animator presents progress `p`.
    public func value(forAnimatorProgress p: Double) -> AnimatedValue {
        target.value(at: progress(forAnimatorProgress: p))
    }
}
