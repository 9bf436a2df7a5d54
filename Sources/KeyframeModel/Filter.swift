import KeyframeJSON

/// A bitmap filter from the source (glow, blur, drop shadow, …).
///
/// `kind` is a normalized name (`glow`, `dropShadow`, `blur`, `bevel`, `adjustColor`, `gradientGlow`,
/// `gradientBevel`, or the source's own name when unknown). For the kinds Keyframe draws (blur, glow, drop shadow,
/// adjust colour) `parameters` holds Flash's parameters under their ActionScript names (``effect``); for the others,
/// the source's fields unchanged.
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
