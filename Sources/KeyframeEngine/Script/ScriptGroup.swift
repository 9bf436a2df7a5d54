import KeyframeJSON

/// The script's coordinated group (an ``AnimatorGroup``): a primary and its secondaries.
///
/// JSON: `{"name": "card", "primary": "walker", "secondaries": ["fade"]}`; `name` defaults to
/// `"group"`, `secondaries` to every other animator in declaration order.
public struct ScriptGroup: Hashable, Sendable {
    /// The group's name; steps address the group by it. Distinct from every animator name.
    public var name: String
    /// The primary animator's name.
    public var primary: String
    /// The secondaries' names, in order.
    public var secondaries: [String]

    /// Creates a group declaration.
    public init(name: String = "group", primary: String, secondaries: [String]) {
        self.name = name
        self.primary = primary
        self.secondaries = secondaries
    }

    /// Reads the script's `group` object and checks its names against the declared animators.
    public init(json: JSONCursor, animators: [String]) throws(JSONSchemaError) {
        let name = try json.optionalMember("name")?.string() ?? "group"
        guard !name.isEmpty else { throw json.error(at: "name", "the group name is empty") }
        guard !animators.contains(name) else {
            throw json.error(at: "name", "the group name \"\(name)\" is also an animator's name")
        }
        let primaryCursor = try json.member("primary")
        let primary = try primaryCursor.string()
        // Sets, so a group of many animators is read in linear time.
        let declared = Set(animators)
        var grouped: Set<String> = [primary]
        guard declared.contains(primary) else {
            throw primaryCursor.error("unknown animator \"\(primary)\"; the script declares "
                                      + animators.joined(separator: ", "))
        }
        var secondaries: [String] = []
        if let list = try json.optionalMember("secondaries") {
            for element in try list.array() {
                let member = try element.string()
                guard declared.contains(member) else {
                    throw element.error("unknown animator \"\(member)\"; the script declares "
                                        + animators.joined(separator: ", "))
                }
                guard grouped.insert(member).inserted else {
                    throw element.error("\"\(member)\" is already in the group")
                }
                secondaries.append(member)
            }
        } else {
            secondaries = animators.filter { $0 != primary }
        }
        self.init(name: name, primary: primary, secondaries: secondaries)
    }

    /// Every member, primary first.
    public var members: [String] { [primary] + secondaries }
}
