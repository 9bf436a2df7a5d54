/// Sprite-sheet export settings: the data file's format, the page layout and the pixels' alpha.
public struct SpriteSheetSettings: Sendable, Equatable {
    /// The data file written beside the pages, each as its engines read it (docs/spritesheet.md).
    public enum Format: String, Sendable, CaseIterable {
        /// Sparrow / Starling XML (`TextureAtlas` of `SubTexture`s): HaxeFlixel, Starling, Friday Night Funkin'
        /// engines. One XML per page.
        case sparrow
        /// TexturePacker's JSON with `frames` keyed by name (Pixi, Phaser's `atlas`), plus Pixi's `animations`.
        /// One JSON per page.
        case jsonHash = "json-hash"
        /// TexturePacker's JSON with `frames` as an array of named entries (Phaser's `atlas`, Pixi), plus
        /// `animations`. One JSON per page.
        case jsonArray = "json-array"
        /// Phaser 3's multi-atlas: one JSON listing every page (`textures`), each with its frames.
        case phaser3
        /// Aseprite's sheet JSON: frames in order with whole-millisecond durations, `meta.frameTags` per clip. One
        /// page.
        case aseprite
        /// Godot 3's `SpriteFrames` resource (`.tres`): an `AtlasTexture` per frame, an animation per clip.
        case godot
        /// Cocos2d's sprite-frame property list (format 2). One plist per page.
        case cocos2d
    }

    /// The data format.
    public var format: Format = .sparrow
    /// The base name of the files: `<name>.xml` / `<name>.png`, or `<name>-<page>.…` with several pages.
    public var name = "sheet"
    /// Transparent pixels between two frames on a page.
    public var padding = 2
    /// Pixels each frame's edge is repeated outward (against bleeding when the sheet is sampled filtered); the
    /// frames' rectangles in the data file exclude them.
    public var extrude = 0
    /// Whether frames may be stored turned a quarter turn clockwise (TexturePacker JSON and Phaser 3 only: Sparrow
    /// readers differ on the direction, Aseprite and Godot's AtlasTexture cannot, and Cocos's
    /// direction is not checked here against its reader).
    public var rotation = false
    /// Whether page sides are powers of two.
    public var powerOfTwo = false
    /// The longest side of a page; frames that do not fit one page go on further pages.
    public var maximumPageSide = 4096
    /// The sheets written, by scale of `keyframe render`'s frame size: 1 is `<name>.…`, any other `<name>@<s>x.…`
    /// (`@2x`, `@0.5x`), its frames drawn as `render --size` draws them at the scaled size (each side rounded).
    /// The first scale's data file is the export's main file.
    public var scales: [Double] = [1]
    /// Whether the pages hold premultiplied colour (`false`: straight alpha, as PNG defines it and as
    /// `keyframe render` writes frames).
    public var premultipliedAlpha = false

    public init() {}

    /// A scale as file names and data files write it: `2`, `0.5`.
    public static func text(_ scale: Double) -> String {
        scale == scale.rounded() && abs(scale) < 1e9 ? String(Int(scale)) : "\(scale)"
    }

    /// Whether a format can say that a frame is stored rotated.
    public static func allowsRotation(_ format: Format) -> Bool { [.jsonHash, .jsonArray, .phaser3].contains(format) }
}
