/// A parsed JSON value: the common currency between the importers' wire readers and the normalized model's writer.
///
/// Objects keep their members in a dictionary; the order of keys in a source file carries no meaning in any format
/// Keyframe reads, and ``JSONWriter`` always emits keys sorted, so output never depends on dictionary order.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The member named `key` when this is an object, otherwise `nil`.
    @inlinable
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return JSONValue.member(key, of: members) }
        return nil
    }

    /// Objects with at most this many members are searched key by key rather than hashed (most objects of the
    /// formats read are this small, and comparing a few short keys costs less than hashing one).
    public static let scannedObjectSize = 8

    /// `members[key]`, by comparing keys in a small object (the same `==` the dictionary uses).
    @inlinable
    public static func member(_ key: String, of members: [String: JSONValue]) -> JSONValue? {
        guard members.count <= scannedObjectSize else { return members[key] }
        for member in members where member.key == key { return member.value }
        return nil
    }

    /// The object's members, or `nil` when this is not an object.
    @inlinable
    public var objectValue: [String: JSONValue]? {
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
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(elements.count)
        for (key, value) in elements { members[key] = value }
        self = .object(members)
    }
}
