import KeyframeEngine
import KeyframeModel

/// One rendered sequence a preview page shows: a clip's frames, or a script run's.
public struct PreviewSequence: Sendable {
    /// One rendered frame.
    public struct Frame: Sendable {
        /// The output frame number.
        public var number: Int
        /// Its time in seconds.
        public var seconds: Double
        /// The PNG file's bytes.
        public var png: [UInt8]
        /// Where the page references the file instead of embedding it (a path relative to the page), if it does.
        public var reference: String?

        public init(number: Int, seconds: Double, png: [UInt8], reference: String? = nil) {
            self.number = number
            self.seconds = seconds
            self.png = png
            self.reference = reference
        }
    }

    /// The clip's (or script's) name.
    public var name: String
    /// The clip, when a clip (not a script) was rendered: the page graphs its nodes' curves.
    public var clip: Clip?
    /// The frame size in pixels.
    public var width: Int, height: Int
    /// The frames, in order.
    public var frames: [Frame]

    public init(name: String, clip: Clip?, width: Int, height: Int, frames: [Frame]) {
        self.name = name
        self.clip = clip
        self.width = width
        self.height = height
        self.frames = frames
    }
}

extension PreviewPage {
    /// The page for rendered `sequences` of `document` at `fps` frames per second: every distinct frame stored once,
    /// each clip's node curves, and the script's graph when `script` is the run that was rendered.
    public init(title: String, document: Document, fps: Double, sequences: [PreviewSequence],
                script: (script: AnimatorScript, ticks: [ScriptTick])? = nil) {
        var store = PreviewImageStore()
        var clips: [PreviewClip] = []
        for sequence in sequences {
            let frames = sequence.frames.map { frame in
                PreviewClip.Frame(number: frame.number, seconds: frame.seconds,
                                  image: store.add(frame.png, reference: frame.reference))
            }
            var clip = PreviewClip(name: sequence.name, fps: fps, width: sequence.width, height: sequence.height,
                                   frames: frames)
            if let source = sequence.clip { clip.curves = NodeCurves.make(document: document, clip: source) }
            if let script { clip.script = ScriptGraph(script: script.script, ticks: script.ticks) }
            clips.append(clip)
        }
        self.init(title: title, clips: clips, images: store)
    }

    /// How many frames the clips show in all.
    public var frameCount: Int { clips.reduce(0) { $0 + $1.frames.count } }
}
