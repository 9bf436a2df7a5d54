import KeyframeJSON

/// What a script step does to its animator or group (the ``PropertyAnimator`` operations).
public enum ScriptAction: Hashable, Sendable {
    /// `start()`, or `start(afterDelay:)` when a delay is given (animators only).
    case start(delay: Seconds?)
    /// `pause()`.
    case pause
    /// Scrub a paused (or inactive) animator to `fractionComplete`; for a group, move the primary
    /// to the fraction and every member by the same amount from its own offset.
    case scrub(fraction: Progress)
    /// Flip the direction, or set it when `to` is given.
    case reverse(to: Bool?)
    /// `continue(timing:durationFactor:)`.
    case `continue`(timing: TimingCurve?, durationFactor: Double)
    /// `stop(withoutFinishing:)`.
    case stop(withoutFinishing: Bool)
    /// `finish(at:)`.
    case finish(at: AnimatingPosition)
    /// `addAnimations(_:delayFactor:)` (animators only); `nil` re-attaches the declared target.
    case addAnimations(ScriptTarget?, delayFactor: Double)

    /// The action names a script may use, in documentation order.
    public static let names = ["start", "pause", "scrub", "reverse", "continue", "stop", "finish", "addAnimations"]

    /// The action's name as written in a script.
    public var name: String {
        switch self {
        case .start: return "start"
        case .pause: return "pause"
        case .scrub: return "scrub"
        case .reverse: return "reverse"
        case .continue: return "continue"
        case .stop: return "stop"
        case .finish: return "finish"
        case .addAnimations: return "addAnimations"
        }
    }

    /// The action with its arguments, e.g. `scrub 0.4`, `continue easeOut ×0.5`, `stop withoutFinishing`.
    public var summary: String {
        switch self {
        case .start(let delay): return delay.map { "start after \(JSONWriter.format($0.value)) s" } ?? "start"
        case .pause: return "pause"
        case .scrub(let fraction): return "scrub \(JSONWriter.format(fraction.value))"
        case .reverse(let to): return to.map { "reverse \($0 ? "on" : "off")" } ?? "reverse"
        case .continue(let timing, let factor):
            var text = "continue"
            if let timing { text += " \(timing.scriptSummary)" }
            return text + " ×\(JSONWriter.format(factor))"
        case .stop(let withoutFinishing): return withoutFinishing ? "stop withoutFinishing" : "stop"
        case .finish(let position): return "finish at \(position.rawValue)"
        case .addAnimations(let target, let factor):
            var text = "addAnimations"
            if let target { text += " \(target.summary)" }
            if factor > 0 { text += " delay ×\(JSONWriter.format(factor))" }
            return text
        }
    }

    /// Reads the action of one step (the object holding `"action"` and its arguments).
    ///
    /// - Parameters:
    ///   - json: the step object.
    ///   - isGroup: whether the step addresses the group, which has no delayed start and no `addAnimations`.
    public init(json: JSONCursor, isGroup: Bool) throws(JSONSchemaError) {
        let nameCursor = try json.member("action")
        let name = try nameCursor.string()
        switch name {
        case "start":
            if let cursor = try json.optionalMember("delay") {
                let delay = try cursor.number()
                guard delay >= 0 else { throw cursor.error("the delay must be ≥ 0 seconds, got \(delay)") }
                guard !isGroup else { throw cursor.error("a group cannot start after a delay; address an animator") }
                self = .start(delay: Seconds(delay))
            } else {
                self = .start(delay: nil)
            }
        case "pause":
            self = .pause
        case "scrub":
            let cursor = try json.member("fraction")
            let fraction = try cursor.number()
            guard (0...1).contains(fraction) else { throw cursor.error("the fraction must be in 0...1, got \(fraction)") }
            self = .scrub(fraction: Progress(fraction))
        case "reverse":
            self = .reverse(to: try json.optionalMember("reversed")?.bool())
        case "continue":
            let timing = try json.optionalMember("timing").map { (cursor) throws(JSONSchemaError) in
                try TimingCurve(scriptJSON: cursor)
            }
            self = .continue(timing: timing, durationFactor: try json.optionalMember("durationFactor")?.number() ?? 0)
        case "stop":
            self = .stop(withoutFinishing: try json.optionalMember("withoutFinishing")?.bool() ?? false)
        case "finish":
            let cursor = try json.member("position")
            let text = try cursor.string()
            guard let position = AnimatingPosition(rawValue: text) else {
                throw cursor.error("unknown position \"\(text)\"; expected start, end or current")
            }
            self = .finish(at: position)
        case "addAnimations":
            guard !isGroup else { throw nameCursor.error("addAnimations needs an animator, not the group") }
            let target = try json.optionalMember("target").map { (cursor) throws(JSONSchemaError) in
                try ScriptTarget(json: cursor)
            }
            let factor = try json.optionalMember("delayFactor")?.number() ?? 0
            guard (0...1).contains(factor) else {
                throw json.error(at: "delayFactor", "the delay factor must be in 0...1, got \(factor)")
            }
            self = .addAnimations(target, delayFactor: factor)
        default:
            throw nameCursor.error("unknown action \"\(name)\"; expected one of " + Self.names.joined(separator: ", "))
        }
    }
}
