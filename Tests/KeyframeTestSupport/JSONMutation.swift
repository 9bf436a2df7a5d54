import Foundation

/// Helpers for mutation tests over Foundation JSON trees (`JSONSerialization` objects): where the numbers and
/// arrays are, and a copy with one place changed.
public enum JSONMutation {
    /// Every path (keys and indices) to a number or an array in `value`, object keys in sorted order.
    /// Booleans count as numbers (Foundation reads both as `NSNumber`); changing one is just another bad value.
    public static func paths(_ value: Any, _ prefix: [Any] = []) -> (numbers: [[Any]], arrays: [[Any]]) {
        var numbers: [[Any]] = [], arrays: [[Any]] = []
        if let object = value as? [String: Any] {
            for key in object.keys.sorted() {
                let child = paths(object[key]!, prefix + [key])
                numbers += child.numbers
                arrays += child.arrays
            }
        } else if let array = value as? [Any] {
            arrays.append(prefix)
            for (index, element) in array.enumerated() {
                let child = paths(element, prefix + [index])
                numbers += child.numbers
                arrays += child.arrays
            }
        } else if value is NSNumber {
            numbers.append(prefix)
        }
        return (numbers, arrays)
    }

    /// `value` with the element at `path` replaced by `transform` of it (`nil` → JSON null).
    public static func replacing(_ value: Any, at path: ArraySlice<Any>, with transform: (Any) -> Any?) -> Any {
        guard let head = path.first else { return transform(value) ?? NSNull() }
        if var object = value as? [String: Any], let key = head as? String {
            object[key] = replacing(object[key]!, at: path.dropFirst(), with: transform)
            return object
        }
        if var array = value as? [Any], let index = head as? Int {
            array[index] = replacing(array[index], at: path.dropFirst(), with: transform)
            return array
        }
        return value
    }
}
