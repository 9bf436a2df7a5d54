import KeyframeRaster

/// The verdict on one frame: how the rendered frame compares with its golden frame.
public struct FrameCheck: Sendable {
    /// What was found.
    public enum Status: String, Sendable, Hashable {
        /// Identical bytes, or pixels within the criteria.
        case match
        /// Pixels differ beyond the criteria.
        case differs
        /// The golden folder has no file for this frame.
        case missingGolden = "missing-golden"
        /// A golden file for a frame the render did not produce (of a clip that was verified whole).
        case extraGolden = "extra-golden"
        /// The golden frame has another size than the rendered one.
        case sizeMismatch = "size-mismatch"
        /// The golden file cannot be read or is not a valid PNG.
        case unreadableGolden = "unreadable-golden"
    }

    /// The clip's (or script's) name; for an extra golden, the clip its file name belongs to.
    public var clip: String
    /// The frame number.
    public var number: Int
    /// The frame's file name, as in the golden folder.
    public var fileName: String
    /// What was found.
    public var status: Status
    /// One sentence for people: what is wrong and, where it helps, what to do.
    public var message: String
    /// The pixel figures, when both frames could be decoded and have the same size.
    public var difference: BitmapDifference?
    /// The rendered frame's PNG (absent for an extra golden).
    public var actualPath: String?
    /// The golden frame's path.
    public var goldenPath: String
    /// The diff picture for a frame that differs (`BitmapDifference/image(actual:expected:)`).
    public var diffImage: Bitmap?
    /// Where the diff picture and the actual frame were saved, once written (``VerifyArtifacts``).
    public var savedDiffPath: String?
    /// Where the actual frame was saved, once written.
    public var savedActualPath: String?

    /// Whether the frame passes.
    public var passed: Bool { status == .match }

    public init(clip: String, number: Int, fileName: String, status: Status, message: String,
                difference: BitmapDifference? = nil, actualPath: String?, goldenPath: String, diffImage: Bitmap? = nil) {
        self.clip = clip
        self.number = number
        self.fileName = fileName
        self.status = status
        self.message = message
        self.difference = difference
        self.actualPath = actualPath
        self.goldenPath = goldenPath
        self.diffImage = diffImage
    }
}
