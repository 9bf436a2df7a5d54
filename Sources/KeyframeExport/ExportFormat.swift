/// An output format that `keyframe export` and `keyframe batch` write besides the normalized JSON.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// Lottie (Bodymovin) JSON, one file per clip.
    case lottie
    /// Keyframe's Core Animation layer-tree format, one file per clip.
    case coreAnimation = "core-animation"
    /// Packed sprite sheets: PNG pages and a game engine's data file (Sparrow XML, TexturePacker JSON, Phaser 3),
    /// every chosen clip in one sheet.
    case spriteSheet = "spritesheet"

    /// The suffix a batch output of this format carries after the export's name (`walker.lottie.json`).
    public var fileSuffix: String {
        switch self {
        case .lottie: return "lottie.json"
        case .coreAnimation: return "ca.json"
        case .spriteSheet: return "sheet"
        }
    }
}
