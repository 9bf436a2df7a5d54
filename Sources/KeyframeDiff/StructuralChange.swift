/// A change in what a document contains: a clip, composition, node or sprite added, removed, renamed or changed
/// (a clip's range, a composition's length, a node's parent, a sprite's picture), or a document setting.
public struct StructuralChange: Sendable, Hashable {
    /// What changed.
    public enum Subject: String, Sendable, Hashable, CaseIterable {
        case document, clip, composition, node, sprite
    }

    /// How it changed.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case added, removed, renamed, changed
    }

    public var subject: Subject
    public var kind: Kind
    /// The name in the newer version (in the older one for a removal).
    public var name: String
    /// The name in the older version, for a rename.
    public var oldName: String?
    /// Where it is: the composition of a node, `nil` otherwise.
    public var context: String?
    /// What changed, in words (`frames 0–23 → 0–29`, `parent body → head`); empty when the kind says it all.
    public var details: String

    public init(subject: Subject, kind: Kind, name: String, oldName: String? = nil, context: String? = nil,
                details: String = "") {
        self.subject = subject
        self.kind = kind
        self.name = name
        self.oldName = oldName
        self.context = context
        self.details = details
    }

    /// One line for people: `+ clip run (walker, frames 48–71)`, `~ sprite 0003 → arm_upper (renamed)`,
    /// `~ clip walk: frames 0–23 → 0–29`.
    public var line: String {
        let place = context.map { "\($0) › " } ?? ""
        switch kind {
        case .added, .removed:
            let text = "\(kind == .added ? "+" : "-") \(subject.rawValue) \(place)\(name) \(kind.rawValue)"
            return details.isEmpty ? text : text + " (\(details))"
        case .renamed:
            return "~ \(subject.rawValue) \(place)\(oldName ?? "?") → \(name) (renamed)"
        case .changed:
            return "~ \(subject.rawValue) \(place)\(name): \(details)"
        }
    }
}
