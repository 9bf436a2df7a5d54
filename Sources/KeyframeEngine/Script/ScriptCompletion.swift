/// A completion that happened during a tick: which animator (or the group) ended, where, and when.
public struct ScriptCompletion: Hashable, Sendable {
    /// The animator's name, or the group's name for the group's own completion.
    public var name: String
    /// The position passed to the completion handlers.
    public var position: AnimatingPosition
    /// The clock time at which it happened (a step's time, or the tick's time for a natural end).
    public var time: Seconds

    /// Creates a completion record.
    public init(name: String, position: AnimatingPosition, time: Seconds) {
        self.name = name
        self.position = position
        self.time = time
    }
}
