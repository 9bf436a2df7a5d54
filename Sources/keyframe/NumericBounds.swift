import ArgumentParser
import KeyframeRender

/// The range a numeric option accepts, and the one check every number on the command line goes through before any
/// command uses it: a value outside the range — negative where a count is meant, `nan`, `inf`, `1e19`, a
/// `999999999999` that would allocate terabytes — is a usage error (exit 2) naming the option and the value.
///
/// The ranges are listed in docs/cli.md ("Numeric options"); `NumericOptionsCLITests` walks every numeric option of
/// every subcommand with hostile values against that table. A value the parser cannot read as a number at all (`abc`,
/// `2.5` for a whole number) is refused by the parser, also with exit 2.
struct NumericBounds: Sendable, CustomStringConvertible {
    /// The smallest value, or the value every accepted one is above.
    var lower: Double
    /// Whether ``lower`` itself is accepted.
    var lowerIncluded: Bool
    /// The largest value accepted.
    var upper: Double
    /// Whether only whole numbers are accepted.
    var whole: Bool
    /// What the number counts (`seconds`, `jobs`), or empty.
    var unit: String

    /// `lower ≤ value ≤ upper`.
    init(from lower: Double, to upper: Double, whole: Bool = false, unit: String = "") {
        self.lower = lower
        self.lowerIncluded = true
        self.upper = upper
        self.whole = whole
        self.unit = unit
    }

    /// `lower < value ≤ upper`.
    init(above lower: Double, atMost upper: Double, unit: String = "") {
        self.lower = lower
        self.lowerIncluded = false
        self.upper = upper
        self.whole = false
        self.unit = unit
    }

    /// Whether `value` is in the range (never for `nan`).
    func accepts(_ value: Double) -> Bool {
        (lowerIncluded ? value >= lower : value > lower) && value <= upper && (!whole || value == value.rounded())
    }

    /// `value`, when it is in the range.
    ///
    /// - Throws: `ValidationError("--option VALUE: must be …")`.
    @discardableResult
    func check(_ value: Double, _ option: String) throws -> Double {
        guard accepts(value) else { throw ValidationError("\(option) \(NumericBounds.text(value)): must be \(self)") }
        return value
    }

    /// `value`, when it is in the range.
    @discardableResult
    func check(_ value: Int, _ option: String) throws -> Int {
        guard accepts(Double(value)) else { throw ValidationError("\(option) \(value): must be \(self)") }
        return value
    }

    /// Checks an optional value and every value of a repeated option.
    func check(_ value: Double?, _ option: String) throws { if let value { try check(value, option) } }
    func check(_ value: Int?, _ option: String) throws { if let value { try check(value, option) } }
    func check(_ values: [Double], _ option: String) throws { for value in values { try check(value, option) } }
    func check(_ values: [Int], _ option: String) throws { for value in values { try check(value, option) } }

    /// A whole number written in `text` (a part of `WxH` or `A..B`) when it is in the range.
    func wholeNumber<S: StringProtocol>(_ text: S) -> Int? {
        guard let value = Int(text), accepts(Double(value)) else { return nil }
        return value
    }

    /// `a whole number of jobs from 1 to 1024`, `a number of seconds above 0 and at most 1000000`.
    var description: String {
        let kind = (whole ? "a whole number" : "a number") + (unit.isEmpty ? "" : " of \(unit)")
        let range = lowerIncluded
            ? "from \(NumericBounds.text(lower)) to \(NumericBounds.text(upper))"
            : "above \(NumericBounds.text(lower)) and at most \(NumericBounds.text(upper))"
        return "\(kind) \(range)"
    }

    /// A number as a user would type it: `-1`, `0.5`, `1e+19`, `inf`, `nan`.
    static func text(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

extension NumericBounds {
    /// Output frames per second (`--fps`, `play --fps`): as many files as a second of animation at most 1000.
    static let framesPerSecond = NumericBounds(above: 0, atMost: 1000, unit: "frames per second")
    /// A time in a clip or script (`--at`, `play --until`): up to 10⁶ s, so that a frame number at 1000 fps still
    /// fits every integer type.
    static let time = NumericBounds(from: 0, to: 1_000_000, unit: "seconds")
    /// How long to play (`--duration`).
    static let duration = NumericBounds(above: 0, atMost: 1_000_000, unit: "seconds")
    /// Frame numbers in `--frames A..B`: as many as 10⁶ s at 1000 fps.
    static let frameNumber = NumericBounds(from: 0, to: 1_000_000_000, whole: true)
    /// A side of `--size WxH` (and of `bench --size`).
    static let side = NumericBounds(from: 1, to: Double(Framing.maximumSide), whole: true, unit: "pixels")
    /// Threads (`--jobs`): far beyond any machine's cores, and each one has its buffers.
    static let jobs = NumericBounds(from: 1, to: 1024, whole: true, unit: "jobs")
    /// `export --padding`: transparent pixels between sprite-sheet frames.
    static let sheetPadding = NumericBounds(from: 0, to: 256, whole: true, unit: "pixels")
    /// `export --extrude`: pixels a sprite-sheet frame's edge is repeated outward.
    static let sheetExtrude = NumericBounds(from: 0, to: 64, whole: true, unit: "pixels")
    /// `export --sheet-scale`: a sprite-sheet variant's multiple of the frame size.
    static let sheetScale = NumericBounds(above: 0, atMost: 16)
    /// `export --max-size`: the longest side of a sprite-sheet page.
    static let sheetPageSide = NumericBounds(from: 1, to: 16384, whole: true, unit: "pixels")
    /// `--scale-factor`: a Flump texture group's scale.
    static let scaleFactor = NumericBounds(above: 0, atMost: 1000)
    /// `--tolerance`: a difference of one channel of a pixel.
    static let tolerance = NumericBounds(from: 0, to: 255, whole: true)
    /// `diff --tolerance`: the largest change of a value (pixels, degrees, scale, alpha) that is not reported.
    static let motionTolerance = NumericBounds(from: 0, to: 1e9)
    /// `--max-differing P%`.
    static let percentage = NumericBounds(from: 0, to: 100)
    /// `preview --size-warning`.
    static let mebibytes = NumericBounds(above: 0, atMost: 1_000_000, unit: "MiB")
    /// `bench … --repetitions`.
    static let repetitions = NumericBounds(from: 1, to: 1000, whole: true)
    /// `bench engine --animators`: each animator is kept in memory with its curve.
    static let animators = NumericBounds(from: 1, to: 1_000_000, whole: true)
    /// `bench engine --ticks`.
    static let ticks = NumericBounds(from: 1, to: 100_000, whole: true)
    /// `bench render --frames`, `bench preview --frames`: as many as one render may write.
    static let benchFrames = NumericBounds(from: 1, to: Double(FramePlan.maximumFrames), whole: true)
}
