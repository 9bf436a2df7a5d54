/// A location inside a JSON document, printed the way users read it: `ANIMATION.TIMELINE.LAYERS[3].Frames[12]`.
///
/// Paths are built lazily from a parent chain, so readers can carry one everywhere at almost no cost and only
/// format it when an error is reported.
public struct JSONPath: Sendable, CustomStringConvertible, Hashable {
    /// One step of a path: a member name or an array index.
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The steps from the document root.
    public private(set) var components: [Component]

    /// The document root (prints as `$`).
    public static let root = JSONPath(components: [])

    /// Creates a path from its components.
    public init(components: [Component]) { self.components = components }

    /// The path of the member `key` of the value at this path.
    public func appending(_ key: String) -> JSONPath {
        var copy = self
        copy.components.append(.key(key))
        return copy
    }

    /// The path of element `index` of the array at this path.
    public func appending(_ index: Int) -> JSONPath {
        var copy = self
        copy.components.append(.index(index))
        return copy
    }

    public var description: String {
        if components.isEmpty { return "$" }
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += key
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }
}
