/// Plays an ``AnimatorScript`` on a ``VirtualClock`` and records every tick.
///
/// The runner resolves every clip target once, when it is created, through the caller's
/// resolver (the engine never reads documents); each ``run(fps:until:)`` or
/// ``playback(fps:until:)`` then builds fresh animators, so runs are independent and a run is
/// a pure function of the script, the resolved clips, `fps` and `until`.
///
/// ```swift
/// let runner = try ScriptRunner(script: script) { document, clip in
///     ScriptClip(documentPath: document, clipName: clip, duration: Frames(24), frameRate: FrameRate(24))
/// }
/// for tick in try runner.run(fps: 24) {
///     print(tick.time, tick.animator("walker")?.clip?.frames ?? .zero)
/// }
/// ```
public struct ScriptRunner: Sendable {
    /// How long, after the last step, a run without `until` may last before it is cut off.
    public static let settleLimit = Seconds(60)
    /// The most ticks one playback records, whatever `until` or the step times say (a limit instead of a hang).
    public static let maximumTicks = 1_000_000

    /// The script being played.
    public let script: AnimatorScript
    private let clips: [ClipKey: ScriptClip]

    struct ClipKey: Hashable, Sendable {
        var document: String
        var clip: String
    }

    /// Creates a runner, resolving every clip target of `script` through `resolver`.
    ///
    /// - Throws: ``ScriptError`` with the target's JSON path when the resolver throws.
    public init(script: AnimatorScript, resolver: ScriptClipResolver) throws(ScriptError) {
        self.script = script
        var clips: [ClipKey: ScriptClip] = [:]
        for target in script.clipTargets {
            let key = ClipKey(document: target.document, clip: target.clip)
            guard clips[key] == nil else { continue }
            do {
                clips[key] = try resolver(target.document, target.clip)
            } catch {
                throw ScriptError(file: script.file, .clip(path: target.path, message: "\(error)"))
            }
        }
        self.clips = clips
    }

    /// The resolved clip for a clip target as written in the script (`document`, `clip`).
    public func clip(document: String, name: String) -> ScriptClip? {
        clips[ClipKey(document: document, clip: name)]
    }

    /// Plays the script and returns every tick.
    ///
    /// - Parameters:
    ///   - fps: ticks per second (> 0); tick `k` is at `k / fps` seconds.
    ///   - until: the last time to record (inclusive). `nil` plays until the first tick at or
    ///     after the last step at which no animator is running with animations (or waiting out
    ///     a start delay), and at most ``settleLimit`` past the last step.
    /// - Throws: ``ScriptError`` when a step is refused by its animator or group.
    public func run(fps: Double = 60, until: Seconds? = nil) throws(ScriptError) -> [ScriptTick] {
        let playback = self.playback(fps: fps, until: until)
        var ticks: [ScriptTick] = []
        while let tick = try playback.next() { ticks.append(tick) }
        return ticks
    }

    /// A streaming playback: call ``ScriptPlayback/next()`` until it returns `nil`.
    public func playback(fps: Double = 60, until: Seconds? = nil) -> ScriptPlayback {
        ScriptPlayback(runner: self, fps: fps, until: until)
    }

    /// The engine target for a script target (clip targets must have been resolved).
    func animationTarget(_ target: ScriptTarget) -> (AnimationTarget, ScriptClip?) {
        switch target {
        case .value(let from, let to):
            return (.value(from: from, to: to), nil)
        case .clip(let name, let document):
            guard let clip = clips[ClipKey(document: document, clip: name)] else {
                preconditionFailure("clip \(name) of \(document) was not resolved")
            }
            return (.clip(duration: clip.seconds), clip)
        }
    }
}
