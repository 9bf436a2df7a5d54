/// Lottie-specific export settings: which players to target and where image assets go.
public struct LottieExportSettings: Sendable, Equatable {
    /// Which Lottie features the file may use.
    public enum Profile: String, Sendable, CaseIterable {
        /// The subset rlottie, ThorVG, lottie-web and lottie-ios's Core Animation engine all play: no blend modes,
        /// no effects, no skew properties (skew is rebuilt from parented rotation and scale), alpha mattes placed
        /// directly above the layer they clip. The default.
        case portable
        /// Everything the Lottie specification allows that the exporter uses: adds blend modes (`bm`).
        case full
    }

    /// Where image assets go.
    public enum Images: String, Sendable, CaseIterable {
        /// Base64 PNG data URLs inside the JSON (`e: 1`). The default: one self-contained file.
        case embed
        /// `images/<id>.png` files beside the JSON, referred to by `u`/`p`.
        case folder
    }

    /// The player profile.
    public var profile: Profile
    /// Embedded or separate images.
    public var images: Images

    public init(profile: Profile = .portable, images: Images = .embed) {
        self.profile = profile
        self.images = images
    }
}
