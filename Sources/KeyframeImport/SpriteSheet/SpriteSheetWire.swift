import KeyframeJSON
import KeyframeModel

/// Which of the three sprite-sheet layouts a file uses.
enum SpriteSheetLayout: String, Sendable {
    /// `{"frames": {"name": {...}}, "meta": {...}}` (Animate's and TexturePacker's "JSON hash").
    case jsonHash
    /// `{"frames": [{"filename": "name", ...}], "meta": {...}}` ("JSON array").
    case jsonArray
    /// `<TextureAtlas imagePath="…"><SubTexture name x y width height frameX …/>` (Starling/Sparrow).
    case sparrowXML
}

/// One frame of a sheet as the file states it, in atlas pixels.
struct SpriteSheetFrame: Sendable {
    /// The frame's name (`BF idle dance0000`, `walk_01.png`).
    var name: String
    /// The region in the atlas image as stored (width and height swapped when ``rotated``).
    var region: Rect
    /// Whether the region is stored turned 90° clockwise.
    var rotated: Bool
    /// Where the trimmed picture's top-left corner sits in the untrimmed frame (Sparrow's `−frameX, −frameY`,
    /// JSON's `spriteSourceSize.x, y`).
    var offset: Vector2
    /// The untrimmed frame's size (Sparrow's `frameWidth × frameHeight`, JSON's `sourceSize`).
    var sourceSize: Size
    /// Where the frame is written.
    var location: FlumpLocation
}

/// A whole sheet: its image, frames in file order, and the animations it declares, if any.
struct SpriteSheet: Sendable {
    var layout: SpriteSheetLayout
    /// The image the file names (`meta.image`, `imagePath`), if it names one.
    var image: String?
    var imageLocation: FlumpLocation
    /// The image size the file records (`meta.size`), if any.
    var imageSize: Size?
    /// Atlas pixels per document pixel (`meta.scale`).
    var scale: Double
    /// The exporting application and its version (`meta.app`, `meta.version`), if recorded.
    var app: String?
    var appVersion: String?
    var frames: [SpriteSheetFrame]
    /// Animations the file declares (Pixi's `animations`: name → frame names), in file order.
    var animations: [(name: String, frames: [String], location: FlumpLocation)] = []
    /// Things the reader noticed (unknown elements, ignored keys).
    var notes: [(code: String, message: String, location: FlumpLocation)] = []
}
