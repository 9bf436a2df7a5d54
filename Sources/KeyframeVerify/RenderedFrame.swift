/// A frame rendered for verification: which clip and frame it is, the file name `render` gives it, and where it is.
public struct RenderedFrame: Sendable, Hashable {
    /// The clip's (or script's) name.
    public var clip: String
    /// The output frame number.
    public var number: Int
    /// The file name `keyframe render` writes it under, e.g. `walk-0003.png`; goldens use the same name.
    public var fileName: String
    /// The rendered PNG on disk.
    public var path: String

    public init(clip: String, number: Int, fileName: String, path: String) {
        self.clip = clip
        self.number = number
        self.fileName = fileName
        self.path = path
    }
}
