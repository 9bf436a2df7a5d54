extension TimingCurve {
    /// UIKit's default spring, `UISpringTimingParameters()`: mass 3, stiffness 1000, damping 500
    /// (damping ratio ≈ 4.56, over-damped), running for its own settling duration.
    public static let systemSpring = TimingCurve.spring(mass: 3, stiffness: 1000, damping: 500)

    /// The curve with a Core Animation, UIKit or CSS name, or `nil` for an unknown name.
    ///
    /// Accepts `linear`, `easeIn`, `easeOut`, `easeInEaseOut` (also `easeInOut`), `default`, the
    /// CSS keywords `ease`, `ease-in`, `ease-out`, `ease-in-out`, and `hold`; case-insensitive.
    ///
    /// ```swift
    /// TimingCurve(named: "easeInOut") == .easeInEaseOut   // true
    /// ```
    public init?(named name: String) {
        switch name.lowercased() {
        case "linear": self = .linear
        case "easein", "ease-in": self = .easeIn
        case "easeout", "ease-out": self = .easeOut
        case "easeineaseout", "easeinout", "ease-in-out": self = .easeInEaseOut
        case "default", "ease": self = .default
        case "hold": self = .hold
        default: return nil
        }
    }
}
