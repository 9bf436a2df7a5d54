/// The value one animation of a script animator presents: a number or a clip time.
public enum ScriptTargetValue: Hashable, Sendable {
    /// A value target's number.
    case value(Double)
    /// A clip target's playhead.
    case clip(ScriptClipTime)

    /// The number, for a value target.
    public var number: Double? { if case .value(let v) = self { return v } else { return nil } }

    /// The clip time, for a clip target.
    public var clipTime: ScriptClipTime? { if case .clip(let t) = self { return t } else { return nil } }
}
