import KeyframeJSON

/// How a node's pixels combine with what is behind them.
///
/// `normal`, `add`, `multiply` and `screen` are rendered; the other Flash modes are kept so no data is lost and
/// reported as diagnostics by importers.
public enum BlendMode: String, Sendable, Hashable, CaseIterable {
    case normal, add, multiply, screen, lighten, darken, difference, subtract, invert, alpha, erase, overlay,
        hardlight, layer
}

extension BlendMode: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        let name = try json.string()
        guard let mode = BlendMode(rawValue: name) else { throw json.error("unknown blend mode \"\(name)\"") }
        self = mode
    }
    public var json: JSONValue { .string(rawValue) }
}
