/// How `GIFWriter` chooses colours.
public struct GIFOptions: Sendable, Hashable {
    /// Where the colours come from.
    public enum Palette: String, Sendable, Hashable, CaseIterable {
        /// One table of up to 255 colours for the whole animation, chosen from every frame's pixels.
        case global
        /// Each frame's own table of up to 255 colours, chosen from the pixels it stores (closer colours, a little
        /// larger file).
        case frame
    }

    /// The palette (default: one per frame).
    public var palette: Palette
    /// Floyd–Steinberg error diffusion within each stored rectangle (default: off; smoother gradients, larger files).
    public var dither: Bool

    /// Creates options.
    public init(palette: Palette = .frame, dither: Bool = false) {
        self.palette = palette
        self.dither = dither
    }
}
