#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KeyframeJSON

/// What a ``Filter`` of a kind Keyframe draws means: Flash's blur, glow, drop shadow and adjust-colour filters with
/// Flash's parameters (format.md §3.7).
///
/// Distances and blur amounts are in document pixels, independent of the filtered node's own transform and of its
/// ancestors' (Flash applies filters on the stage's pixel grid: scaling or rotating an object does not scale or turn
/// its filters; only zooming the stage does). The importer writes these parameters under Flash's ActionScript names
/// (``Filter/init(_:)``), so a document carries one spelling whatever the source used.
public enum FilterEffect: Sendable, Hashable {
    case blur(Blur)
    case glow(Glow)
    case dropShadow(Glow)
    case adjustColor(AdjustColor)

    /// Box blur: `quality` passes of a box `blurX` wide horizontally and `blurY` tall vertically.
    public struct Blur: Sendable, Hashable {
        /// Box width and height in document pixels (Flash: 0…255; values up to 1 change nothing).
        public var blurX: Double, blurY: Double
        /// Passes (Flash: 0…15; 1 low, 2 medium, 3 high — close to a Gaussian).
        public var quality: Int

        public init(blurX: Double, blurY: Double, quality: Int) {
            self.blurX = blurX
            self.blurY = blurY
            self.quality = quality
        }
    }

    /// A glow or, moved by `distance` at `angle`, a drop shadow: the blurred alpha of the picture (inverted for an
    /// inner one), times `strength`, painted in `color` at `alpha`.
    public struct Glow: Sendable, Hashable {
        public var blur: Blur
        /// The colour, 8-bit channels.
        public var red: UInt8, green: UInt8, blue: UInt8
        /// Opacity of the colour, 0…1.
        public var alpha: Double
        /// Multiplier of the blurred alpha before it is clamped to 1 (Flash: 0…255).
        public var strength: Double
        /// Inside the picture's shape rather than around it.
        public var inner: Bool
        /// Only the effect, with the picture knocked out of it.
        public var knockout: Bool
        /// Drop shadows: the offset length in document pixels and its direction in degrees (0 points right, 90 down).
        public var distance: Double, angle: Double
        /// Drop shadows: the shadow without the picture (not knocked out).
        public var hideObject: Bool

        public init(blur: Blur, red: UInt8, green: UInt8, blue: UInt8, alpha: Double, strength: Double,
                    inner: Bool, knockout: Bool, distance: Double = 0, angle: Double = 0, hideObject: Bool = false) {
            self.blur = blur
            self.red = red
            self.green = green
            self.blue = blue
            self.alpha = alpha
            self.strength = strength
            self.inner = inner
            self.knockout = knockout
            self.distance = distance
            self.angle = angle
            self.hideObject = hideObject
        }
    }

    /// Animate's Adjust Color: brightness, contrast and saturation in −100…100, hue in −180…180 degrees.
    public struct AdjustColor: Sendable, Hashable {
        public var brightness: Double, contrast: Double, saturation: Double, hue: Double

        public init(brightness: Double, contrast: Double, saturation: Double, hue: Double) {
            self.brightness = brightness
            self.contrast = contrast
            self.saturation = saturation
            self.hue = hue
        }
    }

    /// Flash's defaults for parameters a source leaves out (ActionScript's `BlurFilter()`, `GlowFilter()`,
    /// `DropShadowFilter()` constructors); importers fill them in.
    public static let defaultBlur = Blur(blurX: 4, blurY: 4, quality: 1)
    public static let defaultGlow = Glow(blur: Blur(blurX: 6, blurY: 6, quality: 1), red: 255, green: 0, blue: 0,
                                         alpha: 1, strength: 2, inner: false, knockout: false)
    public static let defaultDropShadow = Glow(blur: Blur(blurX: 4, blurY: 4, quality: 1), red: 0, green: 0,
                                               blue: 0, alpha: 1, strength: 1, inner: false, knockout: false,
                                               distance: 4, angle: 45)

    /// The normalized `kind` of a ``Filter`` carrying this effect.
    public var kind: String {
        switch self {
        case .blur: return "blur"
        case .glow: return "glow"
        case .dropShadow: return "dropShadow"
        case .adjustColor: return "adjustColor"
        }
    }
}

extension FilterEffect.AdjustColor {
    /// The 4×5 colour matrix (row-major: red, green, blue, alpha rows; the fifth column an offset in 0…255 units)
    /// that Flash's `fl.motion.AdjustColor` computes, applied to straight colour as `ColorMatrixFilter` does.
    ///
    /// `M = H·S·C·B`, brightness applied first: B adds `brightness` to r, g, b; C scales them by
    /// `v/127` about 63.5 with `v = 127 + 127·d` (`d` from Flash's table of contrast steps for positive contrast,
    /// `contrast/100` for negative); S mixes towards the luminance (0.3086, 0.6094, 0.0820) with
    /// `s = 1 + 3·saturation/100` (positive) or `1 + saturation/100`; H rotates the hue as SVG's `hueRotate`
    /// (luminance 0.213, 0.715, 0.072). Inputs are clamped to their ranges.
    public var matrix: [Double] {
        let b = min(max(brightness, -100), 100)
        let c = min(max(contrast, -100), 100)
        let s = min(max(saturation, -100), 100)
        let h = min(max(hue, -180), 180)
        var m = Self.identity
        if b != 0 { m = Self.multiply(Self.offsetMatrix(b), m) }
        var denormalized = 127.0
        if c > 0 {
            denormalized = Self.contrastSteps[Int(c)] * 127 + 127
        } else if c < 0 {
            denormalized = c / 100 * 127 + 127
        }
        var contrastMatrix = Self.offsetMatrix(0.5 * (127 - denormalized))
        for i in 0..<3 { contrastMatrix[i][i] = denormalized / 127 }
        m = Self.multiply(contrastMatrix, m)
        let sv = s > 0 ? 1 + 3 * s / 100 : 1 + s / 100
        var saturationMatrix = Self.identity
        let luminance = [0.3086, 0.6094, 0.0820]
        for row in 0..<3 {
            for column in 0..<3 {
                saturationMatrix[row][column] = (1 - sv) * luminance[column] + (row == column ? sv : 0)
            }
        }
        m = Self.multiply(saturationMatrix, m)
        if h != 0 { m = Self.multiply(Self.hueMatrix(h * .pi / 180), m) }
        return (0..<4).flatMap { m[$0] }
    }

    /// Flash's contrast table: for contrast `c` in 1…100, the denormalized step is `table[Int(c)]`.
    static let contrastSteps: [Double] = [
        0, 0.01, 0.02, 0.04, 0.05, 0.06, 0.07, 0.08, 0.1, 0.11,
        0.12, 0.14, 0.15, 0.16, 0.17, 0.18, 0.20, 0.21, 0.22, 0.24,
        0.25, 0.27, 0.28, 0.30, 0.32, 0.34, 0.36, 0.38, 0.40, 0.42,
        0.44, 0.46, 0.48, 0.5, 0.53, 0.56, 0.59, 0.62, 0.65, 0.68,
        0.71, 0.74, 0.77, 0.80, 0.83, 0.86, 0.89, 0.92, 0.95, 0.98,
        1.0, 1.06, 1.12, 1.18, 1.24, 1.30, 1.36, 1.42, 1.48, 1.54,
        1.60, 1.66, 1.72, 1.78, 1.84, 1.90, 1.96, 2.0, 2.12, 2.25,
        2.37, 2.50, 2.62, 2.75, 2.87, 3.0, 3.2, 3.4, 3.6, 3.8,
        4.0, 4.3, 4.7, 4.9, 5.0, 5.5, 6.0, 6.5, 6.8, 7.0,
        7.3, 7.5, 7.8, 8.0, 8.4, 8.7, 9.0, 9.4, 9.6, 9.8,
        10.0,
    ]

    private static let identity: [[Double]] = (0..<5).map { row in (0..<5).map { $0 == row ? 1.0 : 0.0 } }

    /// The identity with `offset` added to red, green and blue.
    private static func offsetMatrix(_ offset: Double) -> [[Double]] {
        var m = identity
        for i in 0..<3 { m[i][4] = offset }
        return m
    }

    /// `a·b` for 5×5 matrices (`b` is applied first).
    private static func multiply(_ a: [[Double]], _ b: [[Double]]) -> [[Double]] {
        (0..<5).map { i in (0..<5).map { j in (0..<5).reduce(0.0) { $0 + a[i][$1] * b[$1][j] } } }
    }

    /// SVG's hue rotation by `angle` radians, as Flash's AdjustColor builds it.
    private static func hueMatrix(_ angle: Double) -> [[Double]] {
        let cosine = cos(angle), sine = sin(angle)
        let lr = 0.213, lg = 0.715, lb = 0.072
        let base = [[lr, lg, lb], [lr, lg, lb], [lr, lg, lb]]
        let cosPart = [[1 - lr, -lg, -lb], [-lr, 1 - lg, -lb], [-lr, -lg, 1 - lb]]
        let sinPart = [[-lr, -lg, 1 - lb], [0.143, 0.140, -0.283], [-(1 - lr), lg, lb]]
        var m = identity
        for i in 0..<3 {
            for j in 0..<3 { m[i][j] = base[i][j] + cosine * cosPart[i][j] + sine * sinPart[i][j] }
        }
        return m
    }
}

extension Filter {
    /// A filter carrying `effect`, its parameters under Flash's names (format.md §3.7).
    public init(_ effect: FilterEffect) {
        func blurMembers(_ blur: FilterEffect.Blur) -> JSONObject {
            ["blurX": .number(blur.blurX), "blurY": .number(blur.blurY), "quality": .number(Double(blur.quality))]
        }
        var members: JSONObject
        switch effect {
        case .blur(let blur):
            members = blurMembers(blur)
        case .glow(let glow), .dropShadow(let glow):
            members = blurMembers(glow.blur)
            members["color"] = .string(Filter.hex(glow.red, glow.green, glow.blue))
            members["alpha"] = .number(glow.alpha)
            members["strength"] = .number(glow.strength)
            members["inner"] = .bool(glow.inner)
            members["knockout"] = .bool(glow.knockout)
            if case .dropShadow = effect {
                members["distance"] = .number(glow.distance)
                members["angle"] = .number(glow.angle)
                members["hideObject"] = .bool(glow.hideObject)
            }
        case .adjustColor(let adjust):
            members = ["brightness": .number(adjust.brightness), "contrast": .number(adjust.contrast),
                       "saturation": .number(adjust.saturation), "hue": .number(adjust.hue)]
        }
        self.init(kind: effect.kind, parameters: .object(members))
    }

    /// What this filter draws: its parameters read under Flash's names; `nil` for kinds Keyframe does not draw
    /// (bevel, gradient glow, gradient bevel, unknown names) and when a parameter is missing, of the wrong type or
    /// not finite (the importer writes them all).
    public var effect: FilterEffect? {
        guard case .object(let members) = parameters else { return nil }
        var valid = true
        func number(_ key: String) -> Double {
            guard case .number(let n) = members[key], n.isFinite else { valid = false; return 0 }
            return n
        }
        func flag(_ key: String) -> Bool {
            guard case .bool(let b) = members[key] else { valid = false; return false }
            return b
        }
        func blur() -> FilterEffect.Blur {
            let quality = number("quality")
            let whole = quality == quality.rounded() && abs(quality) <= 1_000_000
            if !whole { valid = false }
            return FilterEffect.Blur(blurX: number("blurX"), blurY: number("blurY"), quality: whole ? Int(quality) : 0)
        }
        func glow(shadow: Bool) -> FilterEffect.Glow {
            var rgb: (UInt8, UInt8, UInt8) = (0, 0, 0)
            if case .string(let text) = members["color"], let parsed = Filter.rgb(text) { rgb = parsed } else { valid = false }
            return FilterEffect.Glow(
                blur: blur(), red: rgb.0, green: rgb.1, blue: rgb.2, alpha: number("alpha"),
                strength: number("strength"), inner: flag("inner"), knockout: flag("knockout"),
                distance: shadow ? number("distance") : 0, angle: shadow ? number("angle") : 0,
                hideObject: shadow ? flag("hideObject") : false)
        }
        let effect: FilterEffect
        switch kind {
        case "blur": effect = .blur(blur())
        case "glow": effect = .glow(glow(shadow: false))
        case "dropShadow": effect = .dropShadow(glow(shadow: true))
        case "adjustColor":
            effect = .adjustColor(FilterEffect.AdjustColor(
                brightness: number("brightness"), contrast: number("contrast"), saturation: number("saturation"),
                hue: number("hue")))
        default: return nil
        }
        return valid ? effect : nil
    }

    /// `#RRGGBB`, upper-case hex.
    public static func hex(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "#" + String([r, g, b].flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }

    /// The channels of `#RRGGBB`.
    public static func rgb(_ text: String) -> (UInt8, UInt8, UInt8)? {
        guard text.count == 7, text.hasPrefix("#"), text.dropFirst().allSatisfy(\.isHexDigit),
            let value = UInt32(text.dropFirst(), radix: 16)
        else { return nil }
        return (UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }
}
