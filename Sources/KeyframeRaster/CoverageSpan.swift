/// A run of pixels in one row with either per-pixel coverage (in the scratch coverage row) or one
/// constant coverage (the inside of a shape, where no edge crosses).
struct CoverageSpan {
    /// First pixel, relative to the clip's left edge.
    var start: Int
    /// One past the last pixel.
    var end: Int
    /// The coverage of every pixel of the span, or −1 when each pixel has its own in the coverage row.
    var constant: Float

    var isPerPixel: Bool { constant < 0 }
}
