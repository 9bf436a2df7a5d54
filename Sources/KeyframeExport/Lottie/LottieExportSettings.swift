/// Lottie-specific export settings: which players to target and where image assets go.
public struct LottieExportSettings: Sendable, Equatable {
    /// Which Lottie features the file may use.
    public enum Profile: String, Sendable, CaseIterable {
        /// What every player Keyframe checks against reads and draws (rlottie, ThorVG, lottie-web's three
        /// renderers, lottie-ios's two engines, lottie-android): no blend modes, no effects, no track mattes, no skew
        /// properties (skew is rebuilt from parented rotation and scale), masks on precomp layers with every member
        /// written. The rules and their sources are in docs/lottie.md. The default.
        case portable
        /// Everything the Lottie specification allows that the exporter uses: adds blend modes (`bm`), track mattes
        /// and layer skew (`sk`).
        case full
    }

    /// Where image assets go.
    public enum Images: String, Sendable, CaseIterable {
        /// Base64 PNG data URLs inside the JSON (`e: 1`). The default: one self-contained file.
        case embed
        /// `images/<id>.png` files beside the JSON, referred to by `u`/`p`.
        case folder
    }

    /// What the export is packed in.
    public enum Container: String, Sendable, CaseIterable {
        /// Lottie JSON files (and `images/` beside them in folder mode). The default.
        case json
        /// One dotLottie archive (`.lottie`, a ZIP): `manifest.json`, `animations/<clip>.json`, `images/<id>.png`.
        case dotLottie = "dotlottie"
    }

    /// The player profile.
    public var profile: Profile
    /// Embedded or separate images.
    public var images: Images
    /// One file for the export, every clip a marker range in it (`false`, the default: one file per clip, each
    /// marking the labels within it). See docs/lottie.md.
    public var singleFile: Bool
    /// JSON files, or one dotLottie archive holding them (see docs/lottie.md).
    public var container: Container

    public init(profile: Profile = .portable, images: Images = .embed, singleFile: Bool = false,
                container: Container = .json) {
        self.profile = profile
        self.images = images
        self.singleFile = singleFile
        self.container = container
    }

    /// The `u` of image assets in folder mode: `images/` beside a JSON file, `/images/` inside a dotLottie archive
    /// (the archive's root, as the dotLottie format writes it).
    var imageFolder: String { container == .dotLottie ? "/images/" : "images/" }
}
