import KeyframePNG

/// What an export writes, whatever its format. Format-specific settings live beside the shared ones.
public struct ExportOptions: Sendable, Equatable {
    /// Export only these clips, in this order (`nil`: every clip of the document).
    public var clips: [String]?
    /// Fail on any warning diagnostic (something that could not be exported exactly).
    public var strict: Bool
    /// Core Animation: write the layer tree as JSON (default) or as an XML property list.
    public var coreAnimationFormat: CALayerTreeFile.Format = .json
    /// Lottie settings (profile, image placement); other formats ignore them.
    public var lottie = LottieExportSettings()
    /// Sprite-sheet settings (format, padding, page size, alpha); other formats ignore them.
    public var spriteSheet = SpriteSheetSettings()
    /// The PNG preset of the pictures an export writes (Lottie's image assets, Core Animation's baked tints):
    /// `compact` (the default: smaller files, for what ships inside apps) or `fast` (about half the encoding time
    /// for files about a third larger, for iterating).
    public var pictures: PNGPreset = .compact
    /// Write JSON indented, one member per line, for people to read (`false`, the default: on one line, the way
    /// players' files ship; the same members and numbers either way).
    public var prettyJSON = false
    /// How many clips are built at once (`nil`: one per core). The output is the same for any value.
    public var jobs: Int? = nil

    public init(clips: [String]? = nil, strict: Bool = false) {
        self.clips = clips
        self.strict = strict
    }
}
