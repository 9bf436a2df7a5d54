import Foundation
import KeyframeJSON
import KeyframeModel

/// Reads and writes layer-tree files: JSON through KeyframeJSON's deterministic writer (on one line, or indented
/// with `pretty`), property lists through Foundation's `PropertyListSerialization` (XML, keys sorted, so the bytes
/// never change from run to run).
public enum CALayerTreeFile {
    /// The two spellings of the same tree.
    public enum Format: String, Sendable, CaseIterable {
        case json
        case plist

        /// The main file's extension.
        public var fileExtension: String { self == .json ? "json" : "plist" }
    }

    /// The file's bytes: for JSON, `JSONWriter.writeCompact(document.json)` and a newline, or with `pretty`
    /// `JSONWriter.write(document.json)`.
    public static func encode(_ document: CALayerTreeDocument, as format: Format,
                              pretty: Bool = false) throws(ExportError) -> [UInt8] {
        switch format {
        case .json:
            return CALayerTreeJSON.encode(document, compact: !pretty)
        case .plist:
            do {
                let data = try PropertyListSerialization.data(fromPropertyList: propertyList(document.json),
                                                              format: .xml, options: 0)
                return [UInt8](data)
            } catch {
                throw ExportError(message: "clip \"\(document.clip)\": cannot write the property list: \(error)")
            }
        }
    }

    /// Reads a file written by ``encode(_:as:)`` (either spelling; a property list starts with `<?xml` or `bplist`).
    public static func decode(_ bytes: [UInt8], source: String = "") throws(ExportError) -> CALayerTreeDocument {
        let value: JSONValue
        let isPlist = bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("bplist".utf8))
        if isPlist {
            do {
                let object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
                value = try json(object)
            } catch let error as ExportError {
                throw ExportError(source: source, message: error.message)
            } catch {
                throw ExportError(source: source, message: "not a property list: \(error)")
            }
        } else {
            do { value = try JSONParser.parse(bytes) } catch {
                throw ExportError(source: source, message: "\(error)")
            }
        }
        do { return try CALayerTreeDocument(json: JSONCursor(value)) } catch {
            throw ExportError(source: source, message: "\(error)")
        }
    }

    /// The strings of `value` (keys and values) that a property list cannot hold as they are (``XMLEscape``): the
    /// property list writes them with U+FFFD in place of each such character.
    public static func unrepresentableInPropertyList(_ value: JSONValue) -> [String] {
        var found: [String] = []
        func walk(_ value: JSONValue) {
            switch value {
            case .string(let string): if !XMLEscape.isRepresentable(string) { found.append(string) }
            case .array(let elements): elements.forEach(walk)
            case .object(let members):
                for (key, member) in members {
                    if !XMLEscape.isRepresentable(key) { found.append(key) }
                    walk(member)
                }
            default: break
            }
        }
        walk(value)
        return found
    }

    /// Foundation property-list objects for a JSON value (dictionaries, arrays, strings, doubles, booleans).
    static func propertyList(_ value: JSONValue) -> Any {
        switch value {
        case .null: return ""
        case .bool(let bool): return NSNumber(value: bool)
        case .number(let number):
            // Whole numbers as <integer> (frame counts, versions, pixel sizes), the rest as <real>.
            if number == number.rounded(), abs(number) < 9.0e15, !(number == 0 && number.sign == .minus) {
                return NSNumber(value: Int(number))
            }
            return NSNumber(value: number)
        case .string(let string): return NSString(string: XMLEscape.representable(string))
        case .array(let elements): return NSArray(array: elements.map(propertyList))
        case .object(let members):
            let dictionary = NSMutableDictionary()
            for (key, member) in members {
                dictionary[NSString(string: XMLEscape.representable(key))] = propertyList(member)
            }
            return dictionary
        }
    }

    static func json(_ object: Any) throws(ExportError) -> JSONValue {
        if let dictionary = object as? [String: Any] {
            var members: JSONObject = [:]
            for (key, member) in dictionary { members[key] = try json(member) }
            return .object(members)
        }
        if let array = object as? [Any] {
            var elements: [JSONValue] = []
            for element in array { elements.append(try json(element)) }
            return .array(elements)
        }
        if let string = object as? String { return .string(string) }
        #if canImport(Darwin)
        if let number = object as? NSNumber {
            if CFGetTypeID(number) == CFBooleanGetTypeID() { return .bool(number.boolValue) }
            return .number(number.doubleValue)
        }
        #else
        // swift-corelibs-foundation reads <true/> and <false/> as Swift booleans and every number as NSNumber.
        if type(of: object) == Bool.self, let bool = object as? Bool { return .bool(bool) }
        if let number = object as? NSNumber { return .number(number.doubleValue) }
        #endif
        throw ExportError(message: "unexpected property-list value \(type(of: object))")
    }
}
