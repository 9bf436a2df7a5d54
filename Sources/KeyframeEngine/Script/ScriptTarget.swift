import KeyframeJSON

/// What a script animator animates: a plain number, or the playhead of a clip of a converted document.
///
/// JSON: `{"from": 0, "to": 100}` or `{"clip": "walk", "document": "../animate-walker"}`; the
/// document path is kept as written and resolved by the ``ScriptRunner``'s resolver.
public enum ScriptTarget: Hashable, Sendable {
    /// A number going from `from` to `to` (extrapolated when the curve overshoots).
    case value(from: Double, to: Double)
    /// The clip `name` of the document at `document` (as written in the script).
    case clip(name: String, document: String)

    /// Reads a target object.
    public init(json: JSONCursor) throws(JSONSchemaError) {
        _ = try json.object()
        if json.has("clip") || json.has("document") {
            let name = try json.member("clip").string()
            let document = try json.member("document").string()
            guard !name.isEmpty else { throw json.error(at: "clip", "the clip name is empty") }
            guard !document.isEmpty else { throw json.error(at: "document", "the document path is empty") }
            self = .clip(name: name, document: document)
        } else if json.has("from") || json.has("to") {
            self = .value(from: try json.member("from").number(), to: try json.member("to").number())
        } else {
            throw json.error(#"expected a value target {"from": …, "to": …} or a clip target {"clip": …, "document": …}"#)
        }
    }

    /// A short human description (`0 → 100`, `clip walk of ../animate-walker`).
    public var summary: String {
        switch self {
        case .value(let from, let to): return "\(JSONWriter.format(from)) → \(JSONWriter.format(to))"
        case .clip(let name, let document): return "clip \(name) of \(document)"
        }
    }
}
