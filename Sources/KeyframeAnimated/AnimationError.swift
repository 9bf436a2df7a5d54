/// The one error KeyframeAnimated throws: which frame, and what could not be encoded.
public struct AnimationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
