/// Header facts of a PNG file, as stored (before conversion to RGBA8).
public struct PNGImageInfo: Sendable, Hashable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bits per sample: 1, 2, 4, 8 or 16.
    public var bitDepth: Int
    /// The stored colour type.
    public var colorType: PNGColorType
    /// Whether the file is Adam7-interlaced.
    public var isInterlaced: Bool
    /// Whether a tRNS (simple transparency) chunk is present.
    public var hasTransparencyChunk: Bool
}

/// PNG colour types.
public enum PNGColorType: Int, Sendable, Hashable {
    /// Gray samples.
    case gray = 0
    /// RGB triples.
    case rgb = 2
    /// Palette indices.
    case palette = 3
    /// Gray and alpha.
    case grayAlpha = 4
    /// RGBA.
    case rgba = 6
}
