/// One clip (or script run) of a preview: its frames and what the page draws beside them.
public struct PreviewClip: Sendable {
    /// One output frame.
    public struct Frame: Sendable, Hashable {
        /// The output frame number (as in `render`'s file names).
        public var number: Int
        /// Seconds from the start of the clip.
        public var seconds: Double
        /// Index of its picture in the ``PreviewImageStore``.
        public var image: Int

        public init(number: Int, seconds: Double, image: Int) {
            self.number = number
            self.seconds = seconds
            self.image = image
        }
    }

    /// The clip's or script's name.
    public var name: String
    /// The output frame rate.
    public var fps: Double
    /// The frame size in pixels.
    public var width: Int
    /// The frame size in pixels.
    public var height: Int
    /// The frames, in order.
    public var frames: [Frame]
    /// Track curves of the clip's nodes (empty for a script).
    public var curves: [NodeCurves]
    /// The animators' fraction-complete for a script run.
    public var script: ScriptGraph?

    public init(name: String, fps: Double, width: Int, height: Int, frames: [Frame], curves: [NodeCurves] = [],
                script: ScriptGraph? = nil) {
        self.name = name
        self.fps = fps
        self.width = width
        self.height = height
        self.frames = frames
        self.curves = curves
        self.script = script
    }
}
