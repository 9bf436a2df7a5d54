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
}
