/// The animated image formats `render --animated` writes, chosen by the file's extension.
public enum AnimationFormat: String, Sendable, Hashable, CaseIterable {
    /// Animated PNG (`.png`, `.apng`): lossless, straight alpha.
    case png
    /// GIF (`.gif`): 255 colours a frame and one-bit transparency.
    case gif
    /// WebP (`.webp`): lossless, or lossy colour with lossless alpha.
    case webp

    /// The format `path`'s extension names (case-insensitively); `nil` for any other.
    public init?(path: String) {
        let lower = path.lowercased()
        if lower.hasSuffix(".png") || lower.hasSuffix(".apng") {
            self = .png
        } else if lower.hasSuffix(".gif") {
            self = .gif
        } else if lower.hasSuffix(".webp") {
            self = .webp
        } else {
            return nil
        }
    }
}
