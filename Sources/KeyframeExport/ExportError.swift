/// Why an export failed, with the document (and clip or node) it belongs to.
public struct ExportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The export or document the failure belongs to, as the user named it (may be empty).
    public var source: String
    /// What went wrong, in plain words, naming the clip, node, sprite or image concerned.
    public var message: String

    public init(source: String = "", message: String) {
        self.source = source
        self.message = message
    }

    public var description: String { source.isEmpty ? message : "\(source): \(message)" }
}
