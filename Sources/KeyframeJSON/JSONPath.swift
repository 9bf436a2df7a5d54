/// A location inside a JSON document, printed the way users read it: `ANIMATION.TIMELINE.LAYERS[3].Frames[12]`.
///
/// Paths are built lazily from a parent chain, so readers can carry one everywhere at almost no cost and only
/// format it when an error is reported: appending a step makes one small node that points at its parent, without
/// copying the steps before it.
public struct JSONPath: Sendable, CustomStringConvertible, Hashable {
    /// One step of a path: a member name or an array index.
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The last step and, through its parents, the ones before it.
    private final class Step: Sendable {
        let parent: Step?
        let component: Component

        init(parent: Step?, component: Component) {
            self.parent = parent
            self.component = component
        }
    }

    private let last: Step?

    /// The steps from the document root.
    public var components: [Component] {
        var result: [Component] = []
        var step = last
        while let current = step {
            result.append(current.component)
            step = current.parent
        }
        return result.reversed()
    }

    /// The document root (prints as `$`).
    public static let root = JSONPath(last: nil)

    private init(last: Step?) { self.last = last }

    /// Creates a path from its components.
    public init(components: [Component]) {
        var step: Step? = nil
        for component in components { step = Step(parent: step, component: component) }
        last = step
    }

    /// The path of the member `key` of the value at this path.
    public func appending(_ key: String) -> JSONPath {
        JSONPath(last: Step(parent: last, component: .key(key)))
    }

    /// The path of element `index` of the array at this path.
    public func appending(_ index: Int) -> JSONPath {
        JSONPath(last: Step(parent: last, component: .index(index)))
    }

    public static func == (a: JSONPath, b: JSONPath) -> Bool { a.last === b.last || a.components == b.components }

    public func hash(into hasher: inout Hasher) { hasher.combine(components) }

    public var description: String {
        let components = self.components
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
