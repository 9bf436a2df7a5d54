import KeyframeJSON
import KeyframeModel

/// One clip exported as a Core Animation layer tree: the versioned file `keyframe export --to core-animation`
/// writes (docs/core-animation.md, schema docs/core-animation.schema.json).
public struct CALayerTreeDocument: Sendable, Hashable {
    /// The `format` member of every file.
    public static let formatName = "keyframe-core-animation"
    /// The layout version this build writes and reads.
    public static let formatVersion = 1

    /// One image a layer's `contents` names.
    public struct Image: Sendable, Hashable {
        public var id: String
        /// The file, relative to the layer-tree file.
        public var path: String
        /// Its size in pixels.
        public var pixelWidth: Double
        public var pixelHeight: Double
        /// For a baked copy: the sprite whose upright picture it is.
        public var sprite: String? = nil
        /// For a baked copy: the colour transform applied to it, `[rMul, gMul, bMul, aMul, rOff, gOff, bOff, aOff]`
        /// (offsets on 0–255; alpha multiplier 1 and offset 0: alpha stays the layer's `opacity`).
        public var colorTransform: [Double]? = nil
        public init(id: String, path: String, pixelWidth: Double, pixelHeight: Double) {
            self.id = id
            self.path = path
            self.pixelWidth = pixelWidth
            self.pixelHeight = pixelHeight
        }
    }

    /// The clip's name.
    public var clip: String
    /// Frames per second of the source; frame `k` is shown at `k / frameRate` seconds.
    public var frameRate: Double
    /// The clip's length in frames and seconds.
    public var frameCount: Int
    public var duration: Double
    /// The clip's loop count in the source (0: forever); informational, the tree plays the clip once and holds.
    public var loopCount: Int
    /// The stage rectangle `[x, y, width, height]` when the source has one.
    public var stage: [Double]?
    public var images: [Image]
    /// The root layer: the loader sets its `beginTime` to start playback.
    public var root: CALayerSpec

    public init(clip: String, frameRate: Double, frameCount: Int, duration: Double, loopCount: Int, stage: [Double]?,
                images: [Image], root: CALayerSpec) {
        self.clip = clip
        self.frameRate = frameRate
        self.frameCount = frameCount
        self.duration = duration
        self.loopCount = loopCount
        self.stage = stage
        self.images = images
        self.root = root
    }
}

extension CALayerTreeDocument.Image: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        self.init(id: try json.decode("id"), path: try json.decode("path"), pixelWidth: try json.decode("pixelWidth"),
                  pixelHeight: try json.decode("pixelHeight"))
        sprite = try json.decodeIfPresent("sprite")
        colorTransform = try json.decodeIfPresent("colorTransform")
    }
    public var json: JSONValue {
        var object: JSONObject = [
            "id": .string(id), "path": .string(path), "pixelWidth": .number(pixelWidth), "pixelHeight": .number(pixelHeight),
        ]
        if let sprite { object["sprite"] = .string(sprite) }
        if let colorTransform { object["colorTransform"] = colorTransform.json }
        return .object(object)
    }
}

extension CALayerTreeDocument: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        let format = try json.member("format")
        guard try format.string() == Self.formatName else {
            throw format.error("not a Keyframe Core Animation file (format \"\(try format.string())\")")
        }
        let version = try json.member("version")
        guard try version.integer() == Self.formatVersion else {
            throw version.error("unsupported version \(try version.integer()) (this build reads \(Self.formatVersion))")
        }
        self.init(clip: try json.decode("clip"), frameRate: try json.decode("frameRate"),
                  frameCount: try json.decode("frameCount"), duration: try json.decode("duration"),
                  loopCount: try json.decode("loopCount"), stage: try json.decodeIfPresent("stage"),
                  images: try json.decode("images"), root: try json.decode("root"))
    }

    public var json: JSONValue {
        var object: JSONObject = [
            "format": .string(Self.formatName), "version": .number(Double(Self.formatVersion)), "clip": .string(clip),
            "frameRate": .number(frameRate), "frameCount": .number(Double(frameCount)), "duration": .number(duration),
            "loopCount": .number(Double(loopCount)), "images": images.json, "root": root.json,
        ]
        if let stage { object["stage"] = stage.json }
        return .object(object)
    }
}
