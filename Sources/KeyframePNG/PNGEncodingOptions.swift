/// Explicit libpng/zlib settings for encoding: compression level, row filters and zlib strategy.
///
/// Output bytes depend only on these settings, the pixels and the libpng/zlib versions: no time or
/// text chunks are written.
///
/// ```swift
/// var encoder = PNGEncoder(options: .compact)
/// ```
public struct PNGEncodingOptions: Sendable, Hashable {
    /// zlib level 0 (store) – 9 (smallest).
    public var compressionLevel: Int
    /// Row filters libpng may choose from; more than one lets it pick per row (adaptive).
    public var filters: PNGFilters
    /// zlib strategy.
    public var strategy: PNGCompressionStrategy
    /// Adam7 interlacing (larger and slower; off in both presets).
    public var interlaced: Bool

    /// Creates options.
    public init(
        compressionLevel: Int, filters: PNGFilters, strategy: PNGCompressionStrategy, interlaced: Bool = false
    ) {
        self.compressionLevel = compressionLevel
        self.filters = filters
        self.strategy = strategy
        self.interlaced = interlaced
    }

    /// Previews and frame dumps: zlib level 1, the "up" filter only, run-length strategy.
    public static let fast = PNGEncodingOptions(compressionLevel: 1, filters: .up, strategy: .runLength)
    /// Exported assets: zlib level 6, adaptive filters, default strategy.
    public static let compact = PNGEncodingOptions(compressionLevel: 6, filters: .all, strategy: .default)

    /// The options of a named preset.
    public init(preset: PNGPreset) {
        switch preset {
        case .fast: self = .fast
        case .compact: self = .compact
        }
    }
}

/// Named encoding presets, as the CLI's `--png fast|compact` spells them.
public enum PNGPreset: String, Sendable, Hashable, CaseIterable {
    /// See ``PNGEncodingOptions/fast``.
    case fast
    /// See ``PNGEncodingOptions/compact``.
    case compact
}

/// A set of PNG row filters.
public struct PNGFilters: OptionSet, Sendable, Hashable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// No filtering.
    public static let none = PNGFilters(rawValue: 0x08)
    /// Difference to the left pixel.
    public static let sub = PNGFilters(rawValue: 0x10)
    /// Difference to the pixel above.
    public static let up = PNGFilters(rawValue: 0x20)
    /// Difference to the average of left and above.
    public static let average = PNGFilters(rawValue: 0x40)
    /// Paeth predictor.
    public static let paeth = PNGFilters(rawValue: 0x80)
    /// All five; libpng picks per row.
    public static let all: PNGFilters = [.none, .sub, .up, .average, .paeth]
}

/// zlib compression strategies.
public enum PNGCompressionStrategy: Int32, Sendable, Hashable {
    /// `Z_DEFAULT_STRATEGY`.
    case `default` = 0
    /// `Z_FILTERED`.
    case filtered = 1
    /// `Z_HUFFMAN_ONLY`.
    case huffmanOnly = 2
    /// `Z_RLE`: matches only at distance one; fast and good on filtered image rows.
    case runLength = 3
    /// `Z_FIXED`.
    case fixed = 4
}
