/// Explicit settings for encoding: what compresses the image data, row filters, and zlib's level and strategy.
///
/// Output bytes depend only on these settings, the pixels and the libpng/zlib versions: no time or
/// text chunks are written, and nothing depends on the thread, the machine or its CPU features.
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
    /// Adam7 interlacing (larger and slower; off in both presets; always compressed by zlib).
    public var interlaced: Bool
    /// What compresses the image data; ``compressionLevel`` and ``strategy`` apply to ``PNGCompressor/zlib`` only.
    public var compressor: PNGCompressor
    /// The widest vector instructions the encoder may use (the widest the CPU has unless limited). The bytes never
    /// depend on it; tests and the fuzzer limit it to check that every path writes the same bytes.
    @_spi(Testing) public var vectorInstructions: PNGVectorInstructions = .best

    /// Creates options.
    public init(
        compressionLevel: Int, filters: PNGFilters, strategy: PNGCompressionStrategy, interlaced: Bool = false,
        compressor: PNGCompressor = .zlib
    ) {
        self.compressionLevel = compressionLevel
        self.filters = filters
        self.strategy = strategy
        self.interlaced = interlaced
        self.compressor = compressor
    }

    /// Previews and frame dumps: Keyframe's compressor for rendered frames, each row filtered with sub, up or Paeth
    /// (whichever leaves the smallest values). On rendered corpus frames, a seventh to an eleventh of the time of
    /// zlib level 1 with the up filter and run-length strategy, in about 0.98× the bytes of zlib level 1 with the best
    /// filter (docs/performance.md).
    public static let fast = PNGEncodingOptions(
        compressionLevel: 1, filters: [.sub, .up, .paeth], strategy: .runLength, compressor: .frames)
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

/// What compresses a PNG's image data.
public enum PNGCompressor: Int32, Sendable, Hashable {
    /// zlib's deflate, with the options' level and strategy (libpng filters each row).
    case zlib = 0
    /// Keyframe's own deflate encoder, specialised for rendered frames: per row, the allowed filter that leaves the
    /// smallest values, then zero runs, repeats of the previous pixel and literals, Huffman-coded in blocks of rows
    /// (docs/raster.md § PNG encoding). Transparent areas cost almost nothing. Not for interlaced images (which zlib
    /// compresses).
    case frames = 1
}

/// Vector instructions the PNG encoder may use, at most (see ``PNGEncodingOptions/vectorInstructions``).
@_spi(Testing) public enum PNGVectorInstructions: Int32, Sendable, Hashable, CaseIterable {
    /// The widest the CPU has.
    case best = 0
    /// Plain C.
    case none = 1
    /// At most SSE2 (x86-64).
    case sse2 = 2
    /// At most AVX2 (x86-64).
    case avx2 = 3
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
