/// Bounds that make the decoder refuse oversized images before allocating for them.
///
/// ```swift
/// let decoder = PNGDecoder(limits: PNGDecodingLimits(maxWidth: 4096, maxHeight: 4096))
/// ```
public struct PNGDecodingLimits: Sendable, Hashable {
    /// Largest accepted width in pixels.
    public var maxWidth: Int
    /// Largest accepted height in pixels.
    public var maxHeight: Int
    /// Largest accepted width × height.
    public var maxPixels: Int
    /// Largest ancillary chunk libpng will buffer, in bytes.
    public var maxChunkBytes: Int

    /// Creates limits; the defaults accept 16384 × 16384 sides and 128 Mpixel (512 MB decoded).
    public init(
        maxWidth: Int = 16384, maxHeight: Int = 16384, maxPixels: Int = 128 * 1024 * 1024,
        maxChunkBytes: Int = 8 * 1024 * 1024
    ) {
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.maxPixels = maxPixels
        self.maxChunkBytes = maxChunkBytes
    }

    /// The default limits.
    public static let standard = PNGDecodingLimits()
}
