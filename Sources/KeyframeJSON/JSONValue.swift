/// A parsed JSON value: the common currency between the importers' wire readers and the normalized model's writer.
///
/// Objects keep their members in the order they were written (``JSONObject``); that order carries no meaning in any
/// format Keyframe reads, objects compare equal whatever their order, and ``JSONWriter`` always emits keys sorted.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The member named `key` when this is an object, otherwise `nil`.
    @inlinable
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The object's members, or `nil` when this is not an object.
    @inlinable
    public var objectValue: JSONObject? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The array's elements, or `nil` when this is not an array.
    @inlinable
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The number, or `nil` when this is not a number.
    @inlinable
    public var doubleValue: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The string, or `nil` when this is not a string.
    @inlinable
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The Boolean, or `nil` when this is not a Boolean.
    @inlinable
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// A short name of the value's JSON type, for error messages ("object", "array", "number", …).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(dictionaryLiteralElements: elements))
    }
}
