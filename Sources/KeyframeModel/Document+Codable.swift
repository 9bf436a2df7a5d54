import KeyframeJSON

/// `Codable` conformance for users who prefer `JSONEncoder`/`JSONDecoder`: it goes through the same JSON form as
/// ``Document/jsonBytes()``, so both paths agree on every field.
extension Document: Codable {
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        let bytes = JSONWriter.writeCompact(value)
        try self.init(jsonBytes: bytes)
    }

    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}
