/// How `WebPWriter` compresses frames.
public enum WebPOptions: Sendable, Hashable {
    /// Lossless: every pixel decodes as it was given (the RGB of fully transparent pixels included).
    case lossless
    /// Lossy (VP8) colour at a quality from 0 to 100, with lossless alpha.
    case lossy(quality: Double)

    /// The lossy quality used when none is given.
    public static let defaultQuality = 90.0

    /// Reads `lossless`, `lossy` or `lossy=QUALITY` (0…100); `nil` otherwise.
    public init?(argument: String) {
        if argument == "lossless" { self = .lossless; return }
        if argument == "lossy" { self = .lossy(quality: WebPOptions.defaultQuality); return }
        guard argument.hasPrefix("lossy="), let quality = Double(argument.dropFirst(6)), quality.isFinite,
              (0...100).contains(quality) else { return nil }
        self = .lossy(quality: quality)
    }
}
