import KeyframeJSON
import KeyframeModel

/// A scripted interaction: animators, an optional coordinated group, and timed steps.
///
/// Scripts are JSON (the format is documented in `docs/cli.md` § Script format); a
/// ``ScriptRunner`` plays one on a ``VirtualClock``. Reading never touches the file system:
/// clip targets keep their document paths as written, and the runner's resolver loads them.
///
/// ```swift
/// let script = try AnimatorScript(jsonBytes: Array(#"""
///     {"animators": [{"name": "x", "duration": 1, "timing": "easeOut", "target": {"from": 0, "to": 100}}],
///      "steps": [{"at": 0, "action": "start"}, {"at": 0.5, "action": "pause"}]}
///     """#.utf8), file: "x.json")
/// ```
public struct AnimatorScript: Hashable, Sendable {
    /// The value of the optional top-level `"format"` key.
    public static let formatName = "keyframe-script"
    /// The newest script version this reader understands (the optional top-level `"version"`).
    public static let version = 1

    /// The file name used in error messages.
    public var file: String
    /// The animators, in declaration order (the order of the output).
    public var animators: [ScriptAnimator]
    /// The coordinated group, if any.
    public var group: ScriptGroup?
    /// The steps, in time order.
    public var steps: [ScriptStep]

    /// Reads a script from JSON bytes.
    ///
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - file: the name errors are reported under (usually the file's name).
    /// - Throws: ``ScriptError`` with line and column for invalid JSON, with the JSON path for a
    ///   wrong shape or an unknown name.
    public init(jsonBytes bytes: [UInt8], file: String = "script") throws(ScriptError) {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw ScriptError(file: file, .syntax(error)) }
        try self.init(json: value, file: file)
    }

    /// Reads a script from a parsed JSON value.
    public init(json value: JSONValue, file: String = "script") throws(ScriptError) {
        do {
            try self.init(root: JSONCursor(value), file: file)
        } catch {
            throw ScriptError(file: file, .schema(error))
        }
    }

    private init(root: JSONCursor, file: String) throws(JSONSchemaError) {
        self.file = file
        _ = try root.object()
        if let format = try root.optionalMember("format") {
            let name = try format.string()
            guard name == Self.formatName else {
                throw format.error("expected \"\(Self.formatName)\", found \"\(name)\"")
            }
        }
        if let version = try root.optionalMember("version") {
            let number = try version.integer()
            guard number >= 1 && number <= Self.version else {
                throw version.error("unsupported script version \(number); this reader understands version \(Self.version)")
            }
        }
        let list = try root.member("animators").array()
        guard !list.isEmpty else { throw root.error(at: "animators", "a script needs at least one animator") }
        guard list.count <= ModelLimits.maximumAnimators else {
            throw root.error(at: "animators", "\(list.count) animators, more than the \(ModelLimits.maximumAnimators) "
                             + "a script may declare")
        }
        var animators: [ScriptAnimator] = []
        animators.reserveCapacity(list.count)
        var known = Set<String>()
        for element in list {
            let animator = try ScriptAnimator(json: element)
            guard known.insert(animator.name).inserted else {
                throw element.error(at: "name", "duplicate animator name \"\(animator.name)\"")
            }
            animators.append(animator)
        }
        self.animators = animators
        let names = animators.map(\.name)
        group = try root.optionalMember("group").map { (cursor) throws(JSONSchemaError) in
            try ScriptGroup(json: cursor, animators: names)
        }
        var steps: [ScriptStep] = []
        for element in try root.optionalMember("steps")?.array() ?? [] {
            let step = try ScriptStep(json: element, animators: names, known: known, group: group?.name)
            if let previous = steps.last, step.at < previous.at {
                throw element.error(at: "at", "steps must be in time order: \(JSONWriter.format(step.at.value)) s "
                                    + "comes after \(JSONWriter.format(previous.at.value)) s")
            }
            steps.append(step)
        }
        self.steps = steps
    }

    /// Every clip target in the script (declared targets and `addAnimations` targets), with its JSON path.
    public var clipTargets: [(path: JSONPath, clip: String, document: String)] {
        var result: [(path: JSONPath, clip: String, document: String)] = []
        for (index, animator) in animators.enumerated() {
            if case .clip(let name, let document) = animator.target {
                result.append((JSONPath.root.appending("animators").appending(index).appending("target"), name, document))
            }
        }
        for (index, step) in steps.enumerated() {
            if case .addAnimations(.clip(let name, let document)?, _) = step.action {
                result.append((JSONPath.root.appending("steps").appending(index).appending("target"), name, document))
            }
        }
        return result
    }
}
