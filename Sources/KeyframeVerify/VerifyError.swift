/// Why a verification could not run at all (per-frame problems are ``FrameCheck`` results, not errors).
public struct VerifyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path the problem is about.
    public var path: String
    /// What went wrong, in a sentence.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
