import KeyframeJSON

/// How a node's pixels combine with what is behind them.
///
/// Flash's fourteen modes, all rendered (raster.md, "Blend modes"); `layer`, `alpha` and `erase` act through the
/// group a blended node's content forms. Exporters report the modes their format lacks.
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
