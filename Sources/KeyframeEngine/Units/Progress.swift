/// A dimensionless position along an animation: 0 at its start, 1 at its end.
///
/// `Progress` is used for `fractionComplete`, for the input of a ``TimingCurve`` (time
/// fraction) and for its output (value progress). Values outside `0...1` are legal where a
/// curve overshoots (springs, back-easing béziers).
///
/// ```swift
/// let p: Progress = 0.25
/// TimingCurve.easeInEaseOut.progress(at: p)
/// ```
public struct Progress: Hashable, Comparable, Sendable, Codable {
    /// The fraction, 0 at the start and 1 at the end.
    public var value: Double

    /// Creates a progress from a fraction.
    @inlinable public init(_ value: Double) { self.value = value }

    /// The start, 0.
    public static let start = Progress(0)
    /// The end, 1.
    public static let end = Progress(1)

    /// This progress clamped to `0...1`.
    @inlinable public var clamped: Progress { Progress(Swift.min(1, Swift.max(0, value))) }

    @inlinable public static func < (lhs: Progress, rhs: Progress) -> Bool { lhs.value < rhs.value }
    @inlinable public static func + (lhs: Progress, rhs: Progress) -> Progress { Progress(lhs.value + rhs.value) }
    @inlinable public static func - (lhs: Progress, rhs: Progress) -> Progress { Progress(lhs.value - rhs.value) }
}

extension Progress: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// Creates a progress from a floating-point literal.
    public init(floatLiteral value: Double) { self.value = value }
    /// Creates a progress from an integer literal.
    public init(integerLiteral value: Int) { self.value = Double(value) }
}

extension Progress: CustomStringConvertible {
    /// The fraction as a plain number.
    public var description: String { "\(value)" }
}
