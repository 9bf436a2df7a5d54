/// The error every engine operation throws; an operation that throws has changed nothing.
///
/// It names the operation, the state the animator was in, and why the call was refused:
///
/// ```swift
/// do { try animator.start() } catch {
///     print(error)   // "start is illegal while stopped: a stopped animator only accepts finish(at:)"
/// }
/// ```
public struct AnimatorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of refusal this is.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// The operation is not allowed in the animator's current state (UIKit would raise).
        case illegalState
        /// An argument was out of range (negative delay, delay factor outside 0...1, …).
        case invalidArgument
    }

    /// What kind of refusal this is.
    public let kind: Kind
    /// The refused operation.
    public let operation: AnimatorOperation
    /// The animator's state when the call was refused.
    public let state: AnimatingState
    /// Whether the animator was running when the call was refused.
    public let isRunning: Bool
    /// A human-readable reason.
    public let reason: String

    /// Creates an error.
    public init(_ kind: Kind, _ operation: AnimatorOperation, state: AnimatingState, isRunning: Bool,
                reason: String) {
        self.kind = kind
        self.operation = operation
        self.state = state
        self.isRunning = isRunning
        self.reason = reason
    }

    /// A one-line description naming operation, state and reason.
    public var description: String {
        let where_ = state == .active ? (isRunning ? "active (running)" : "active (paused)") : state.rawValue
        switch kind {
        case .illegalState: return "\(operation.rawValue) is illegal while \(where_): \(reason)"
        case .invalidArgument: return "invalid argument to \(operation.rawValue) while \(where_): \(reason)"
        }
    }
}
