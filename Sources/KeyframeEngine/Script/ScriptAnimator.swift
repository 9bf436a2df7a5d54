import KeyframeJSON

/// One animator a script declares: its name, duration, curve, target and options.
///
/// JSON:
/// ```json
/// {"name": "walker", "duration": 1, "timing": "easeInOut",
///  "target": {"clip": "walk", "document": "../animate-walker"},
///  "scrubsLinearly": true, "pausesOnCompletion": false, "interruptible": true}
/// ```
public struct ScriptAnimator: Hashable, Sendable {
    /// The animator's name, unique in the script; steps and output refer to it.
    public var name: String
    /// The run's length (physical springs use their own settling time instead).
    public var duration: Seconds
    /// The animator's curve; Core Animation's `default` when the script gives none.
    public var timing: TimingCurve
    /// What it animates; attached when the script starts playing.
    public var target: ScriptTarget
    /// ``PropertyAnimator/scrubsLinearly`` (default `true`).
    public var scrubsLinearly: Bool
    /// ``PropertyAnimator/pausesOnCompletion`` (default `false`; group members always pause, see ``AnimatorGroup``).
    public var pausesOnCompletion: Bool
    /// ``PropertyAnimator/isInterruptible`` (default `true`).
    public var isInterruptible: Bool

    /// Creates a declaration.
    public init(name: String, duration: Seconds, timing: TimingCurve = .default, target: ScriptTarget,
                scrubsLinearly: Bool = true, pausesOnCompletion: Bool = false, isInterruptible: Bool = true) {
        self.name = name
        self.duration = duration
        self.timing = timing
        self.target = target
        self.scrubsLinearly = scrubsLinearly
        self.pausesOnCompletion = pausesOnCompletion
        self.isInterruptible = isInterruptible
    }

    /// Reads one element of the script's `animators` array.
    public init(json: JSONCursor) throws(JSONSchemaError) {
        let nameCursor = try json.member("name")
        let name = try nameCursor.string()
        guard !name.isEmpty else { throw nameCursor.error("the animator name is empty") }
        let durationCursor = try json.member("duration")
        let duration = try durationCursor.number()
        guard duration >= 0 else { throw durationCursor.error("the duration must be ≥ 0 seconds, got \(duration)") }
        let timing = try json.optionalMember("timing").map { (cursor) throws(JSONSchemaError) in
            try TimingCurve(scriptJSON: cursor)
        } ?? .default
        self.init(name: name, duration: Seconds(duration), timing: timing,
                  target: try ScriptTarget(json: json.member("target")),
                  scrubsLinearly: try json.optionalMember("scrubsLinearly")?.bool() ?? true,
                  pausesOnCompletion: try json.optionalMember("pausesOnCompletion")?.bool() ?? false,
                  isInterruptible: try json.optionalMember("interruptible")?.bool() ?? true)
    }
}
