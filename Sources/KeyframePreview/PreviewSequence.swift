import KeyframeEngine
import KeyframeModel
import KeyframePNG

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
        /// Where the PNG was read from, named in errors.
        public var path: String?

        public init(number: Int, seconds: Double, png: [UInt8], reference: String? = nil, path: String? = nil) {
            self.number = number
            self.seconds = seconds
            self.png = png
            self.reference = reference
            self.path = path
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
    /// The page for rendered `sequences` of `document` at `fps` frames per second, each clip's node curves (and its
    /// composition's name), and the script's graph when `script` is the run that was rendered. Frames the page
    /// references stay files (each distinct file once); embedded frames become key pictures and the changed
    /// rectangles of the frames after them (``PreviewFrameEncoder``).
    ///
    /// - Throws: ``PreviewFrameError`` when an embedded frame cannot be decoded or re-encoded.
    public init(title: String, document: Document, fps: Double, sequences: [PreviewSequence],
                script: (script: AnimatorScript, ticks: [ScriptTick])? = nil) throws(PreviewFrameError) {
        var store = PreviewImageStore()
        var encoder = PreviewFrameEncoder()
        var clips: [PreviewClip] = []
        for sequence in sequences {
            var frames: [PreviewClip.Frame] = []
            for frame in sequence.frames {
                if let reference = frame.reference {
                    frames.append(PreviewClip.Frame(number: frame.number, seconds: frame.seconds,
                                                    image: store.add(frame.png, reference: reference)))
                } else {
                    let layers: [PreviewClip.Layer]
                    do { layers = try encoder.layers(for: frame.png, store: &store) } catch {
                        throw PreviewFrameError(path: frame.path ?? "\(sequence.name) frame \(frame.number)",
                                                underlying: error)
                    }
                    frames.append(PreviewClip.Frame(number: frame.number, seconds: frame.seconds, layers: layers))
                }
            }
            var clip = PreviewClip(name: sequence.name, fps: fps, width: sequence.width, height: sequence.height,
                                   frames: frames)
            if let source = sequence.clip {
                clip.curves = NodeCurves.make(document: document, clip: source)
                clip.composition = document.composition(source.composition)?.name ?? source.composition
            }
            if let script { clip.script = ScriptGraph(script: script.script, ticks: script.ticks) }
            clips.append(clip)
        }
        self.init(title: title, clips: clips, images: store)
    }

    /// How many frames the clips show in all.
    public var frameCount: Int { clips.reduce(0) { $0 + $1.frames.count } }
}

/// A rendered frame the preview page could not take: its PNG did not decode, or a picture of it did not encode.
public struct PreviewFrameError: Error, CustomStringConvertible {
    /// The frame's file (or the clip and frame number when it has none).
    public var path: String
    /// What the PNG codec said.
    public var underlying: PNGError

    public var description: String { "\(path): \(underlying)" }
}
