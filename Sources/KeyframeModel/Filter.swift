import KeyframeJSON

/// A bitmap filter from the source (glow, blur, drop shadow, …), kept as data; Keyframe does not render filters.
///
/// `kind` is a normalized name (`glow`, `dropShadow`, `blur`, `bevel`, `adjustColor`, `gradientGlow`,
/// `gradientBevel`, or the source's own name when unknown); `parameters` holds the source's fields unchanged.
public struct Filter: Sendable, Hashable {
    public var kind: String
    public var parameters: JSONValue

    public init(kind: String, parameters: JSONValue) {
        self.kind = kind
        self.parameters = parameters
    }
}

extension Filter: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        self.init(kind: try json.decode("kind"), parameters: try json.member("parameters").value)
    }
    public var json: JSONValue { ["kind": .string(kind), "parameters": parameters] }
}
