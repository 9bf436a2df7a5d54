import Foundation

/// A damped harmonic oscillator moving a unit distance, described physically.
///
/// Progress is `1 − x(t)` where `m·x'' + c·x' + k·x = 0`, `x(0) = 1` and `x'(0) = −v0`: an
/// `initialVelocity` of 1 covers the whole distance in one second, positive values move toward
/// the target. Under-, critically and over-damped systems are all solved in closed form.
///
/// ```swift
/// let spring = Spring(mass: 1, stiffness: 100, damping: 10)
/// spring.settlingDuration          // ≈ 1.4727 s, the value UIKit reports
/// spring.progress(at: 0.2)         // value progress 0.2 s after release
/// ```
public struct Spring: Hashable, Sendable {
    /// The mass attached to the spring, > 0.
    public var mass: Double
    /// The spring constant k, > 0.
    public var stiffness: Double
    /// The damping coefficient c, ≥ 0.
    public var damping: Double
    /// The initial velocity in distances per second; positive moves toward the target.
    public var initialVelocity: Double

    /// The residual displacement below which a spring counts as settled.
    ///
    /// Fitted so that mass 1, stiffness 100, damping 10 settle in UIKit's 1.4727003346780927 s
    /// (engine.md §c.4).
    public static let settlingThreshold = 7.3205e-4

    /// Creates a spring from its physical parameters (Core Animation / UIKit naming).
    public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.initialVelocity = initialVelocity
    }

    /// Creates a spring the way SwiftUI's `Spring(response:dampingRatio:)` does, with mass 1.
    ///
    /// - Parameters:
    ///   - response: the undamped period in seconds.
    ///   - dampingRatio: ζ; 1 is critical damping.
    ///   - initialVelocity: distances per second toward the target.
    public init(response: Double, dampingRatio: Double, initialVelocity: Double = 0) {
        let omega = 2 * Double.pi / response
        self.init(mass: 1, stiffness: omega * omega, damping: 4 * Double.pi * dampingRatio / response,
                  initialVelocity: initialVelocity)
    }

    /// Creates a spring the way SwiftUI's `Spring(duration:bounce:)` does.
    ///
    /// The perceptual duration is the response; `bounce` in `-1...1` maps to a damping ratio of
    /// `1 − bounce` when non-negative and `1 / (1 + bounce)` when negative.
    public init(duration: Double, bounce: Double, initialVelocity: Double = 0) {
        let ratio = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        self.init(response: duration, dampingRatio: ratio, initialVelocity: initialVelocity)
    }

    /// The undamped angular frequency ω0 = √(k/m).
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

    /// The damping ratio ζ = c / (2√(k·m)).
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// The remaining displacement from the target at `time` seconds (1 at release).
    public func displacement(at time: Double) -> Double {
        let omega0 = naturalFrequency
        let zeta = dampingRatio
        let v0 = initialVelocity
        if zeta < 1 {
            let omegaD = omega0 * (1 - zeta * zeta).squareRoot()
            let envelope = exp(-zeta * omega0 * time)
            return envelope * (cos(omegaD * time) + (zeta * omega0 - v0) / omegaD * sin(omegaD * time))
        } else if zeta == 1 {
            return (1 + (omega0 - v0) * time) * exp(-omega0 * time)
        } else {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -omega0 * (zeta - root)
            let r2 = -omega0 * (zeta + root)
            let c2 = (-v0 - r1) / (r2 - r1)
            let c1 = 1 - c2
            return c1 * exp(r1 * time) + c2 * exp(r2 * time)
        }
    }

    /// The value progress at `time` seconds after release: `1 − displacement`.
    public func progress(at time: Double) -> Double { 1 - displacement(at: time) }

    /// The time after which the spring stays within ``settlingThreshold`` of the target.
    ///
    /// Under-damped: the envelope `A·e^(−ζω0 t)` reaches the threshold. Critically and
    /// over-damped: the last time `|x(t)|` is at least the threshold, found numerically.
    /// Undamped springs never settle (`.infinity`).
    public var settlingDuration: Double {
        let omega0 = naturalFrequency
        let zeta = dampingRatio
        guard omega0 > 0, omega0.isFinite, zeta > 0 else { return .infinity }
        let epsilon = Self.settlingThreshold
        if zeta < 1 {
            let omegaD = omega0 * (1 - zeta * zeta).squareRoot()
            let b = (zeta * omega0 - initialVelocity) / omegaD
            let amplitude = (1 + b * b).squareRoot()
            return max(0, log(amplitude / epsilon) / (zeta * omega0))
        }
        // Find a time beyond which |x| is certainly below the threshold (an upper bound of the
        // displacement decays monotonically there), then scan back for the last crossing.
        var upper = 1 / omega0
        while boundOfDisplacement(after: upper) >= epsilon && upper < 1e6 { upper *= 2 }
        let steps = 2048
        let dt = upper / Double(steps)
        var index = steps
        while index > 0 && abs(displacement(at: Double(index) * dt)) < epsilon { index -= 1 }
        if index == steps { return upper }
        var lo = Double(index) * dt, hi = Double(index + 1) * dt
        for _ in 0..<80 {
            let mid = (lo + hi) / 2
            if abs(displacement(at: mid)) >= epsilon { lo = mid } else { hi = mid }
        }
        return hi
    }

    /// An upper bound of |x(s)| for all s ≥ t (critical and over-damped cases, t ≥ 1/ω0).
    private func boundOfDisplacement(after time: Double) -> Double {
        let omega0 = naturalFrequency
        let zeta = dampingRatio
        let v0 = initialVelocity
        if zeta == 1 {
            return (1 + abs(omega0 - v0) * time) * exp(-omega0 * time)
        }
        let root = (zeta * zeta - 1).squareRoot()
        let r1 = -omega0 * (zeta - root)
        let r2 = -omega0 * (zeta + root)
        let c2 = (-v0 - r1) / (r2 - r1)
        return (abs(1 - c2) + abs(c2)) * exp(r1 * time)
    }
}
