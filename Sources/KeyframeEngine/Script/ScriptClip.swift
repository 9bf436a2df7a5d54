import KeyframeModel

/// A clip target resolved by the caller: where the document is, and the clip's length and rate.
///
/// The engine does not read documents; a ``ScriptRunner`` asks its ``ScriptClipResolver`` for
/// each clip target once and then only needs the clip's duration. The `keyframe` CLI resolves
/// document paths relative to the script's folder with the importer.
public struct ScriptClip: Hashable, Sendable {
    /// The document's path as the resolver identifies it (the CLI gives an absolute, standardized path).
    public var documentPath: String
    /// The clip's name.
    public var clipName: String
    /// The clip's length in frames.
    public var duration: Frames
    /// The document's frame rate.
    public var frameRate: FrameRate

    /// Creates a resolved clip.
    public init(documentPath: String, clipName: String, duration: Frames, frameRate: FrameRate) {
        self.documentPath = documentPath
        self.clipName = clipName
        self.duration = duration
        self.frameRate = frameRate
    }

    /// The clip's length in seconds.
    public var seconds: Seconds { frameRate.seconds(for: duration) }
}

/// Resolves a clip target: `documentPath` as written in the script, `clipName` the clip's name.
///
/// Throw any error to reject the target; its description is reported with the target's JSON path.
public typealias ScriptClipResolver = (_ documentPath: String, _ clipName: String) throws -> ScriptClip
