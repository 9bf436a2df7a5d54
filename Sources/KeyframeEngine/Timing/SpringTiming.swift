/// A spring used as a timing curve, with its settling duration computed once.
///
/// Two flavours exist, matching UIKit: a spring given by damping ratio is **stretched** to the
/// animator's duration (its settling time is mapped onto the duration), while a spring given
/// physically keeps its **own** settling duration and the animator's duration is ignored.
public struct SpringTiming: Hashable, Sendable {
    /// The physical spring. For a stretched spring it is a unit reference (mass 1, ω0 = 1)
    /// whose `initialVelocity` is in distances per second of the *animator's* time.
    public let spring: Spring
    /// Whether the spring is stretched to the animator's duration.
    public let isStretched: Bool
    /// Settling time of `spring` in its own seconds (zero-velocity for stretched springs).
    public let settlingDuration: Double

    /// Smallest damping ratio a stretched spring accepts; smaller values never settle.
    public static let minimumDampingRatio = 0.01

    /// Creates a spring stretched to the animator's duration (UIKit `dampingRatio:` initialisers).
    public init(dampingRatio: Double, initialVelocity: Double = 0) {
        let zeta = max(Self.minimumDampingRatio, dampingRatio)
        spring = Spring(mass: 1, stiffness: 1, damping: 2 * zeta, initialVelocity: initialVelocity)
        isStretched = true
        var reference = spring
        reference.initialVelocity = 0
        settlingDuration = reference.settlingDuration
    }

    /// Creates a spring that runs for its own settling duration.
    public init(spring: Spring) {
        self.spring = spring
        isStretched = false
        settlingDuration = spring.settlingDuration
    }

    /// The value progress at time fraction `fraction` of an animation lasting `duration` seconds.
    func progress(at fraction: Double, duration: Double) -> Double {
        if fraction <= 0 { return 0 }
        if fraction >= 1 { return 1 }
        if isStretched {
            var reference = spring
            // Velocity is given per second of animator time; the reference spring runs
            // settlingDuration / duration times faster.
            reference.initialVelocity = duration > 0 ? spring.initialVelocity * duration / settlingDuration : 0
            return reference.progress(at: fraction * settlingDuration)
        }
        return spring.progress(at: fraction * settlingDuration)
    }

    /// The same spring with a different initial velocity.
    func withInitialVelocity(_ velocity: Double) -> SpringTiming {
        var copy = spring
        copy.initialVelocity = velocity
        return isStretched
            ? SpringTiming(stretched: copy, settlingDuration: settlingDuration)
            : SpringTiming(spring: copy)
    }

    private init(stretched spring: Spring, settlingDuration: Double) {
        self.spring = spring
        self.isStretched = true
        self.settlingDuration = settlingDuration
    }
}
