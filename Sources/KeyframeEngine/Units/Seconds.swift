/// A span or instant of engine time, in seconds.
///
/// The engine never reads a wall clock; every `Seconds` value comes from the caller or from a
/// ``VirtualClock`` that was told to advance. Keeping seconds a distinct type stops a time
/// from being passed where a ``Progress`` is expected.
///
/// ```swift
/// let d: Seconds = 0.6
/// let half = d * 0.5   // 0.3 s
/// ```
public struct Seconds: Hashable, Comparable, Sendable, Codable {
    /// The number of seconds.
    public var value: Double

    /// Creates a time from a number of seconds.
    @inlinable public init(_ value: Double) { self.value = value }

    /// Zero seconds.
    public static let zero = Seconds(0)

    /// Creates a time from milliseconds (the unit Web Animations uses).
    @inlinable public static func milliseconds(_ ms: Double) -> Seconds { Seconds(ms / 1000) }

    /// This time in milliseconds.
    @inlinable public var milliseconds: Double { value * 1000 }

    @inlinable public static func < (lhs: Seconds, rhs: Seconds) -> Bool { lhs.value < rhs.value }
    @inlinable public static func + (lhs: Seconds, rhs: Seconds) -> Seconds { Seconds(lhs.value + rhs.value) }
    @inlinable public static func - (lhs: Seconds, rhs: Seconds) -> Seconds { Seconds(lhs.value - rhs.value) }
    @inlinable public static func += (lhs: inout Seconds, rhs: Seconds) { lhs.value += rhs.value }
    @inlinable public static func -= (lhs: inout Seconds, rhs: Seconds) { lhs.value -= rhs.value }
    @inlinable public static func * (lhs: Seconds, rhs: Double) -> Seconds { Seconds(lhs.value * rhs) }
    @inlinable public static func * (lhs: Double, rhs: Seconds) -> Seconds { Seconds(lhs * rhs.value) }
    @inlinable public static func / (lhs: Seconds, rhs: Double) -> Seconds { Seconds(lhs.value / rhs) }
    /// The ratio of two times (a plain number).
    @inlinable public static func / (lhs: Seconds, rhs: Seconds) -> Double { lhs.value / rhs.value }
}

extension Seconds: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// Creates a time from a floating-point literal in seconds.
    public init(floatLiteral value: Double) { self.value = value }
    /// Creates a time from an integer literal in seconds.
    public init(integerLiteral value: Int) { self.value = Double(value) }
}

extension Seconds: CustomStringConvertible {
    /// The time followed by `s`, e.g. `0.25s`.
    public var description: String { "\(value)s" }
}
