/// One clip (or script run) of a preview: its frames and what the page draws beside them.
public struct PreviewClip: Sendable {
    /// One picture drawn into a frame at a place.
    public struct Layer: Sendable, Hashable {
        /// Index of the picture in the ``PreviewImageStore``.
        public var image: Int
        /// Where its top-left corner goes in the frame, in frame pixels.
        public var x: Int
        public var y: Int

        public init(image: Int, x: Int = 0, y: Int = 0) {
            self.image = image
            self.x = x
            self.y = y
        }
    }

    /// One output frame, as the pictures that make it up: the frame is cleared, the first layer drawn, and each
    /// further layer replaces the rectangle it covers (see ``PreviewFrameEncoder``). No layers: an empty frame.
    public struct Frame: Sendable, Hashable {
        /// The output frame number (as in `render`'s file names).
        public var number: Int
        /// Seconds from the start of the clip.
        public var seconds: Double
        /// The pictures, in drawing order.
        public var layers: [Layer]

        public init(number: Int, seconds: Double, layers: [Layer]) {
            self.number = number
            self.seconds = seconds
            self.layers = layers
        }

        /// A frame that is one whole picture.
        public init(number: Int, seconds: Double, image: Int) {
            self.init(number: number, seconds: seconds, layers: [Layer(image: image)])
        }
    }

    /// The clip's or script's name.
    public var name: String
    /// The name of the composition the clip plays, as the source names it (the timeline's first group).
    public var composition: String = ""
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
