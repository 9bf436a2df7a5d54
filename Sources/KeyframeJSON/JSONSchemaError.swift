/// Well-formed JSON whose shape is wrong: a missing key or a value of the wrong type, with the JSON path to it.
public struct JSONSchemaError: Error, Sendable, CustomStringConvertible, Equatable {
    /// Where the problem is, e.g. `ANIMATION.TIMELINE.LAYERS[3].Frames[12].elements[0]`.
    public var path: JSONPath
    /// What is wrong there.
    public var message: String

    public init(path: JSONPath, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
