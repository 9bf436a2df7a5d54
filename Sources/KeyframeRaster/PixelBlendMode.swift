/// How a drawn pixel combines with the pixel below it.
///
/// All modes work on premultiplied 8-bit sRGB values with no linearisation, as Flash and Animate
/// do: the results match what designers saw in the authoring tool, not a physically linear blend.
/// With source `S` (colour `Sc`, alpha `Sa`) and destination `D`, every channel in 0–1:
///
/// - ``normal``: `S + D·(1 − Sa)` (source over).
/// - ``add``: `min(1, S + D)` on colour and alpha.
/// - ``multiply``: `Sc·Dc + Sc·(1 − Da) + Dc·(1 − Sa)`; alpha `Sa + Da − Sa·Da`.
/// - ``screen``: `Sc + Dc − Sc·Dc`; alpha `Sa + Da − Sa·Da`.
/// - ``lighten``, ``darken``, ``difference``, ``invert``, ``overlay``, ``hardlight``: the separable W3C form
///   `Sc·(1 − Da) + Dc·(1 − Sa) + Sa·Da·B(s, d)`, alpha `Sa + Da − Sa·Da` (raster.md, "Blend modes").
/// - ``subtract``: `max(0, Dc − Sc)`; alpha `Sa + Da − Sa·Da`.
/// - ``alpha``: `D·Sa` where `Sa > 0`, else `D`; ``erase``: `D·(1 − Sa)`.
///
/// Coverage and opacity scale `S` before the formula, which for these modes equals blending
/// the fully covered result with `D` by the coverage.
public enum PixelBlendMode: String, Sendable, Hashable, CaseIterable {
    /// Source over destination.
    case normal
    /// Adds colour values, clamping at white (Flash "add").
    case add
    /// Multiplies colours (darkens).
    case multiply
    /// Inverse of multiplying the inverses (lightens).
    case screen
    /// The lighter of source and backdrop per channel.
    case lighten
    /// The darker of source and backdrop per channel.
    case darken
    /// The absolute difference per channel.
    case difference
    /// The backdrop minus the source, floored at black.
    case subtract
    /// The inverse of the backdrop where the source is opaque.
    case invert
    /// Multiplies or screens, decided by the backdrop.
    case overlay
    /// Multiplies or screens, decided by the source.
    case hardlight
    /// Scales the backdrop by the source's alpha (the backdrop is kept where the source has none).
    case alpha
    /// Scales the backdrop by one minus the source's alpha.
    case erase
}
