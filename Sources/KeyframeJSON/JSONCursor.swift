/// A JSON value together with its path, with typed accessors that throw ``JSONSchemaError`` naming that path.
///
/// Importers and the model's reader walk documents through cursors, so every schema error says exactly where it
/// is without threading paths by hand:
///
/// ```swift
/// let layers = try root.member("TIMELINE").member("LAYERS").array()
/// let name = try layers[3].member("Layer_name").string()   // error path: TIMELINE.LAYERS[3].Layer_name
/// ```
public struct JSONCursor: Sendable {
    /// The value under the cursor.
    public let value: JSONValue
    /// Where the value sits in its document.
    public let path: JSONPath
    /// Where lenient reads are recorded (``lenientNumber()``, ``noteLenient(_:readAs:)``); every cursor reached from
    /// this one shares it. `nil`: not recorded.
    public let lenientReads: JSONLenientReads?

    public init(_ value: JSONValue, path: JSONPath = .root, lenientReads: JSONLenientReads? = nil) {
        self.value = value
        self.path = path
        self.lenientReads = lenientReads
    }

    /// A cursor at `value`, found at `path` of the same document (sharing this cursor's ``lenientReads``).
    public func cursor(_ value: JSONValue, at path: JSONPath) -> JSONCursor {
        JSONCursor(value, path: path, lenientReads: lenientReads)
    }

    /// An error at this cursor's path.
    public func error(_ message: String) -> JSONSchemaError { JSONSchemaError(path: path, message: message) }

    /// An error at the member `key` of this cursor's value.
    public func error(at key: String, _ message: String) -> JSONSchemaError {
        JSONSchemaError(path: path.appending(key), message: message)
    }

    /// The object's members, or an error when the value is not an object.
    public func object() throws(JSONSchemaError) -> JSONObject {
        guard case .object(let members) = value else { throw error("expected an object, found \(value.typeName)") }
        return members
    }

    /// Whether the value is an object that has `key`.
    public func has(_ key: String) -> Bool { value[key] != nil }

    /// The required member `key`.
    public func member(_ key: String) throws(JSONSchemaError) -> JSONCursor {
        let members = try object()
        guard let child = members[key] else { throw error("missing required key \"\(key)\"") }
        return cursor(child, at: path.appending(key))
    }

    /// The member `key` when present and not null.
    public func optionalMember(_ key: String) throws(JSONSchemaError) -> JSONCursor? {
        let members = try object()
        guard let child = members[key], child != .null else { return nil }
        return cursor(child, at: path.appending(key))
    }

    /// The first of `keys` that is present (e.g. the long and the short spelling of one Animate key).
    public func member(anyOf keys: [String]) throws(JSONSchemaError) -> JSONCursor {
        if let found = try optionalMember(anyOf: keys) { return found }
        let names = keys.map { "\"\($0)\"" }.joined(separator: " or ")
        throw error("missing required key \(names)")
    }

    /// The first of `keys` that is present and not null.
    public func optionalMember(anyOf keys: [String]) throws(JSONSchemaError) -> JSONCursor? {
        let members = try object()
        for key in keys {
            if let child = members[key], child != .null {
                return cursor(child, at: path.appending(key))
            }
        }
        return nil
    }

    /// The elements of an array, each as a cursor.
    public func array() throws(JSONSchemaError) -> [JSONCursor] {
        guard case .array(let elements) = value else { throw error("expected an array, found \(value.typeName)") }
        var cursors: [JSONCursor] = []
        cursors.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            cursors.append(cursor(element, at: path.appending(index)))
        }
        return cursors
    }

    /// The elements of an array of finite numbers, read without a cursor per element (meshes and curves hold
    /// thousands); an element that is not one is an error at its index, as ``number()`` words it.
    public func numbers() throws(JSONSchemaError) -> [Double] {
        guard case .array(let elements) = value else { throw error("expected an array, found \(value.typeName)") }
        var result: [Double] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            if case .number(let number) = element, number.isFinite {
                result.append(number)
            } else {
                result.append(try cursor(element, at: path.appending(index)).number())
            }
        }
        return result
    }

    /// A finite number.
    public func number() throws(JSONSchemaError) -> Double {
        guard case .number(let number) = value else { throw error("expected a number, found \(value.typeName)") }
        guard number.isFinite else { throw error("the number is out of range") }
        return number
    }

    /// A number that may also be written as a numeric string (`"24.0"`), as some exporters do. A string is
    /// recorded in ``lenientReads`` (code `number-as-string`), so that the importer reports it.
    public func lenientNumber() throws(JSONSchemaError) -> Double {
        if case .string(let text) = value, let number = Double(text), number.isFinite {
            noteLenient("number-as-string", readAs: JSONCursor.javaScriptText(of: number))
            return number
        }
        return try number()
    }

    /// A number that the format itself writes as text (Animate's spritemap `meta.resolution`, `"1"`), or as a
    /// number: not a lenient read.
    public func numberOrNumericText() throws(JSONSchemaError) -> Double {
        if case .string(let text) = value, let number = Double(text), number.isFinite { return number }
        return try number()
    }

    /// Records that the value here was read leniently as `readAs` (`code` as in ``JSONLenientReads/Entry``), for a
    /// reader whose leniency is its own (a Boolean written as text).
    public func noteLenient(_ code: String, readAs: String) {
        guard let lenientReads else { return }
        let found: String
        switch value {
        case .string(let text): found = "\"\(text)\""
        case .number(let number): found = JSONCursor.javaScriptText(of: number)
        case .bool(let flag): found = flag ? "true" : "false"
        default: found = value.typeName
        }
        lenientReads.record(JSONLenientReads.Entry(code: code, found: found, readAs: readAs, path: path))
    }

    /// An integer; fractional numbers are rejected.
    public func integer() throws(JSONSchemaError) -> Int {
        let number = try number()
        guard number == number.rounded(), abs(number) <= 9_007_199_254_740_992 else {
            throw error("expected an integer, found \(number)")
        }
        return Int(number)
    }

    /// A string.
    public func string() throws(JSONSchemaError) -> String {
        guard case .string(let string) = value else { throw error("expected a string, found \(value.typeName)") }
        return string
    }

    /// A Boolean.
    public func bool() throws(JSONSchemaError) -> Bool {
        guard case .bool(let bool) = value else { throw error("expected a boolean, found \(value.typeName)") }
        return bool
    }
}
