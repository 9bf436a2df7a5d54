import KeyframeJSON

/// How animation values are spelled in the file: a bare number or boolean for one-number types, an array otherwise.
enum CAValueCoding {
    static func encode(_ value: [Double], as type: CAKeyframeAnimationSpec.ValueType) -> JSONValue {
        switch type {
        case .number: return .number(value.first ?? 0)
        case .bool: return .bool((value.first ?? 0) != 0)
        case .point, .transform: return .array(value.map { .number($0) })
        }
    }

    static func decode(_ cursor: JSONCursor, as type: CAKeyframeAnimationSpec.ValueType) throws(JSONSchemaError) -> [Double] {
        switch type {
        case .number: return [try cursor.number()]
        case .bool: return [try cursor.bool() ? 1 : 0]
        case .point, .transform:
            var numbers: [Double] = []
            for element in try cursor.array() { numbers.append(try element.number()) }
            guard numbers.count == type.width else {
                throw cursor.error("a \(type.rawValue) value has \(type.width) numbers, found \(numbers.count)")
            }
            return numbers
        }
    }
}
