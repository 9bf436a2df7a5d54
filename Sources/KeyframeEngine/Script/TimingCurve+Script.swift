import KeyframeJSON

extension TimingCurve {
    /// The names a script may give as a string timing (see `docs/cli.md` § Script format).
    public static let scriptNames = ["linear", "easeIn", "easeOut", "easeInEaseOut", "easeInOut", "default",
                                     "ease", "ease-in", "ease-out", "ease-in-out", "hold", "systemSpring"]

    /// Reads a timing curve as a script writes it.
    ///
    /// Accepted forms:
    /// - a name: `"easeInOut"`, `"linear"`, … (``init(named:)``) or `"systemSpring"`;
    /// - `{"bezier": [x1, y1, x2, y2]}`;
    /// - `{"spring": {"dampingRatio": 0.6, "initialVelocity": 0}}` (stretched to the duration),
    ///   `{"spring": {"mass": 1, "stiffness": 170, "damping": 26, "initialVelocity": 0}}`,
    ///   `{"spring": {"response": 0.5, "dampingFraction": 0.8}}` or
    ///   `{"spring": {"duration": 0.5, "bounce": 0.2}}` (these three run for their own settling time);
    /// - `{"steps": 4, "position": "end"}` (position `start`, `end`, `none`, `both`; default `end`);
    /// - `{"flashEase": -50}`: Flash's classic ease, −100 (ease in) … 100 (ease out).
    public init(scriptJSON json: JSONCursor) throws(JSONSchemaError) {
        if case .string(let name) = json.value {
            if name.lowercased() == "systemspring" { self = .systemSpring; return }
            guard let curve = TimingCurve(named: name) else {
                throw json.error("unknown timing curve \"\(name)\"; known names: "
                                 + Self.scriptNames.joined(separator: ", ")
                                 + #", or an object with "bezier", "spring", "steps" or "flashEase""#)
            }
            self = curve
            return
        }
        let members = try json.object()
        let kinds = ["bezier", "spring", "steps", "flashEase"].filter { members[$0] != nil }
        guard kinds.count == 1 else {
            throw json.error(kinds.isEmpty
                ? #"expected a timing name or an object with one of "bezier", "spring", "steps", "flashEase""#
                : "a timing object has exactly one of \"bezier\", \"spring\", \"steps\", \"flashEase\"; found "
                    + kinds.joined(separator: ", "))
        }
        switch kinds[0] {
        case "bezier":
            let points = try json.member("bezier").array()
            guard points.count == 4 else {
                throw json.error(at: "bezier", "expected 4 numbers [x1, y1, x2, y2], found \(points.count)")
            }
            let x1 = try points[0].number(), y1 = try points[1].number()
            let x2 = try points[2].number(), y2 = try points[3].number()
            guard (0...1).contains(x1) else { throw points[0].error("x1 must be in 0...1, got \(x1)") }
            guard (0...1).contains(x2) else { throw points[2].error("x2 must be in 0...1, got \(x2)") }
            self = .bezier(x1, y1, x2, y2)
        case "spring":
            self = try Self.spring(json.member("spring"))
        case "steps":
            let steps = try json.member("steps")
            let count = try steps.integer()
            guard count >= 1 else { throw steps.error("the number of steps must be at least 1, got \(count)") }
            var position = StepPosition.end
            if let cursor = try json.optionalMember("position") {
                let name = try cursor.string()
                guard let parsed = StepPosition(rawValue: name) else {
                    throw cursor.error("unknown step position \"\(name)\"; expected start, end, none or both")
                }
                position = parsed
            }
            self = .steps(count, position)
        default:
            let cursor = try json.member("flashEase")
            let ease = try cursor.number()
            guard (-100...100).contains(ease) else { throw cursor.error("flashEase must be in -100...100, got \(ease)") }
            self = .quadraticEase(ease / 100)
        }
    }

    private static func spring(_ json: JSONCursor) throws(JSONSchemaError) -> TimingCurve {
        func positive(_ key: String) throws(JSONSchemaError) -> Double {
            let cursor = try json.member(key)
            let value = try cursor.number()
            guard value > 0 else { throw cursor.error("\(key) must be greater than 0, got \(value)") }
            return value
        }
        let velocity = try json.optionalMember("initialVelocity")?.number() ?? 0
        if json.has("dampingRatio") {
            return .spring(dampingRatio: try positive("dampingRatio"), initialVelocity: velocity)
        }
        if json.has("mass") || json.has("stiffness") || json.has("damping") {
            return .spring(mass: try positive("mass"), stiffness: try positive("stiffness"),
                           damping: try positive("damping"), initialVelocity: velocity)
        }
        if json.has("response") {
            return .spring(response: try positive("response"), dampingFraction: try positive("dampingFraction"),
                           initialVelocity: velocity)
        }
        if json.has("duration") {
            let cursor = try json.member("bounce")
            let bounce = try cursor.number()
            guard bounce > -1 && bounce < 1 else { throw cursor.error("bounce must be in -1 < bounce < 1, got \(bounce)") }
            return .spring(duration: try positive("duration"), bounce: bounce)
        }
        throw json.error(#"expected "dampingRatio", "mass"/"stiffness"/"damping", "response"/"dampingFraction" or "duration"/"bounce""#)
    }

    /// A short description for traces: `linear`, `bezier(0.42, 0, 0.58, 1)`, `spring`, `steps(4, end)`, …
    public var scriptSummary: String {
        switch self {
        case .linear: return "linear"
        case .cubic(let b):
            return "bezier(\([b.x1, b.y1, b.x2, b.y2].map(JSONWriter.format).joined(separator: ", ")))"
        case .spring(let timing):
            return timing.isStretched
                ? "spring(dampingRatio: \(JSONWriter.format(timing.spring.dampingRatio)))"
                : "spring(settling \(JSONWriter.format((timing.settlingDuration * 1000).rounded() / 1000)) s)"
        case .steps(let n, let position): return "steps(\(n), \(position.rawValue))"
        case .hold: return "hold"
        case .quadraticEase(let s): return "flashEase(\(JSONWriter.format(s * 100)))"
        }
    }
}
