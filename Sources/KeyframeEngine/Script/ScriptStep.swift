import KeyframeJSON

/// One timed step of a script: at a time, do an action to an animator or to the group.
///
/// JSON: `{"at": 0.5, "animator": "walker", "action": "scrub", "fraction": 0.3}`. `animator`
/// names an animator or the group; when it is left out the step addresses the group if the
/// script has one, else the script's only animator.
public struct ScriptStep: Hashable, Sendable {
    /// When the step happens, on the script's virtual clock.
    public var at: Seconds
    /// The animator's or the group's name.
    public var subject: String
    /// Whether ``subject`` is the group.
    public var isGroup: Bool
    /// What the step does.
    public var action: ScriptAction

    /// Creates a step.
    public init(at: Seconds, subject: String, isGroup: Bool = false, action: ScriptAction) {
        self.at = at
        self.subject = subject
        self.isGroup = isGroup
        self.action = action
    }

    /// A one-line description, e.g. `walker: scrub 0.4 at 0.5 s`.
    public var summary: String { "\(subject): \(action.summary) at \(JSONWriter.format(at.value)) s" }

    /// Reads one element of the script's `steps` array.
    ///
    /// - Parameters:
    ///   - animators: the declared animator names.
    ///   - group: the group's name, if the script has a group.
    public init(json: JSONCursor, animators: [String], group: String?) throws(JSONSchemaError) {
        try self.init(json: json, animators: animators, known: Set(animators), group: group)
    }

    /// ``init(json:animators:group:)`` with the names also as a set, made once per script, so reading a script's
    /// steps costs time linear in its animators and steps.
    init(json: JSONCursor, animators: [String], known: Set<String>, group: String?) throws(JSONSchemaError) {
        let atCursor = try json.member("at")
        let at = try atCursor.number()
        guard at >= 0 else { throw atCursor.error("a step time must be ≥ 0 seconds, got \(at)") }
        let subject: String
        if let cursor = try json.optionalMember("animator") {
            subject = try cursor.string()
            guard known.contains(subject) || subject == group else {
                var known = "the script declares " + animators.joined(separator: ", ")
                if let group { known += " and the group \(group)" }
                throw cursor.error("unknown animator \"\(subject)\"; \(known)")
            }
        } else if let group {
            subject = group
        } else if animators.count == 1 {
            subject = animators[0]
        } else {
            throw json.error(#"missing "animator": the script has \#(animators.count) animators and no group"#)
        }
        let isGroup = subject == group
        self.init(at: Seconds(at), subject: subject, isGroup: isGroup,
                  action: try ScriptAction(json: json, isGroup: isGroup))
    }
}
