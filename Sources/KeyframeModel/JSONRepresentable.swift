import KeyframeJSON

/// A model value with one canonical JSON form: read from a `JSONCursor` (errors carry the JSON path) and written
/// as a `JSONValue` that `JSONWriter` turns into deterministic text.
public protocol JSONRepresentable: Sendable {
    /// Reads the value at `json`.
    init(json: JSONCursor) throws(JSONSchemaError)
    /// The value's JSON form.
    var json: JSONValue { get }
}

extension Double: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) { self = try json.number() }
    public var json: JSONValue { .number(self) }
}

extension Int: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) { self = try json.integer() }
    public var json: JSONValue { .number(Double(self)) }
}

extension Bool: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) { self = try json.bool() }
    public var json: JSONValue { .bool(self) }
}

extension String: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) { self = try json.string() }
    public var json: JSONValue { .string(self) }
}

extension Frames: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) { self.init(try json.number()) }
    public var json: JSONValue { .number(value) }
}

extension Degrees: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) { self.init(try json.number()) }
    public var json: JSONValue { .number(value) }
}

extension Vector2: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        self.init(x: try json.member("x").number(), y: try json.member("y").number())
    }
    public var json: JSONValue { ["x": .number(x), "y": .number(y)] }
}

extension Size: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        self.init(width: try json.member("width").number(), height: try json.member("height").number())
    }
    public var json: JSONValue { ["width": .number(width), "height": .number(height)] }
}

extension Rect: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        self.init(
            x: try json.member("x").number(), y: try json.member("y").number(),
            width: try json.member("width").number(), height: try json.member("height").number())
    }
    public var json: JSONValue {
        ["x": .number(x), "y": .number(y), "width": .number(width), "height": .number(height)]
    }
}

extension Array: JSONRepresentable where Element: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        var result: [Element] = []
        for element in try json.array() { result.append(try Element(json: element)) }
        self = result
    }
    public var json: JSONValue { .array(map { $0.json }) }
}

extension JSONCursor {
    /// Reads the required member `key` as `T`.
    public func decode<T: JSONRepresentable>(_ key: String, as type: T.Type = T.self) throws(JSONSchemaError) -> T {
        try T(json: member(key))
    }

    /// Reads the member `key` as `T` when present and not null.
    public func decodeIfPresent<T: JSONRepresentable>(_ key: String, as type: T.Type = T.self)
        throws(JSONSchemaError) -> T?
    {
        guard let child = try optionalMember(key) else { return nil }
        return try T(json: child)
    }
}

extension JSONObject {
    /// Sets `key` only when `value` is present, so optional model fields are omitted rather than written as null.
    mutating func setIfPresent<T: JSONRepresentable>(_ key: String, _ value: T?) {
        if let value { self[key] = value.json }
    }
}
