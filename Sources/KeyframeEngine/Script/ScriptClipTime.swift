import KeyframeModel

/// Where a clip target's playhead is at one tick: the clip, its document and the clip time.
public struct ScriptClipTime: Hashable, Sendable {
    /// The clip's name.
    public var clipName: String
    /// The resolved document path (from the ``ScriptClipResolver``).
    public var documentPath: String
    /// Clip time in frames since the clip's first frame, in `0...duration` (fractional).
    public var frames: Frames
    /// The same clip time in seconds.
    public var seconds: Seconds

    /// Creates a clip time.
    public init(clipName: String, documentPath: String, frames: Frames, seconds: Seconds) {
        self.clipName = clipName
        self.documentPath = documentPath
        self.frames = frames
        self.seconds = seconds
    }
}
