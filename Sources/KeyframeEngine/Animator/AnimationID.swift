/// Identifies one animation added to a ``PropertyAnimator``.
public struct AnimationID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The sequence number, unique within its animator.
    public let rawValue: Int

    /// Creates an identifier.
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static func < (lhs: AnimationID, rhs: AnimationID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `#` and the number.
    public var description: String { "#\(rawValue)" }
}
