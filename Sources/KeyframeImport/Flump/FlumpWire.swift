import KeyframeJSON
import KeyframeModel

// Wire structures of a Flump library, shared by the shapes it comes in: the current `library.json`
// (`textureGroups`), the early-2013 JSON (top-level `atlases`, texture `offset`), the 2012 `resources.json` (movies
// keyed by `symbol`, a single `rotation`) and the XML export. The readers
// (`FlumpJSONReader`, `FlumpXMLReader`) fill them with the source's own values and defaults; `FlumpImporter`
// turns them into the model.

/// Which shape a library was read from.
enum FlumpShape: String, Sendable {
    /// The current JSON schema: `textureGroups[].atlases[].textures[] {symbol, rect, origin}`.
    case json
    /// The early-2013 JSON schema: top-level `atlases[].textures[] {symbol, rect, offset}` with `offset = −origin`.
    case json2013 = "json-2013"
    /// The 2012 `resources.json` of Flump's first exporters (March–April 2012): movies keyed by `symbol`, keyframes
    /// with a single `rotation` (radians) and, in the earliest files, no `index` or `[x, y, scaleX, scaleY,
    /// rotation]` as `t`; textures keyed by `name` (later `symbol`) with `offset`; `frameRate` only when not 30.
    case json2012 = "json-2012"
    /// The XML export: `<resources><movie><layer><kf …/>`, attribute values such as `loc="x,y"`.
    case xml
}

/// Where a value was found: a JSON path, or an XML line and column with an element path.
enum FlumpLocation: Sendable, CustomStringConvertible {
    case json(JSONPath)
    case xml(line: Int, column: Int)

    /// The form written into diagnostics' `path`.
    var description: String {
        switch self {
        case .json(let path): return path.description
        case .xml(let line, let column): return "line \(line), column \(column)"
        }
    }

    /// An import error about the value at this location in `file`.
    func error(file: String, _ message: String) -> ImportError {
        switch self {
        case .json(let path): return ImportError(.schema(file: file, JSONSchemaError(path: path, message: message)))
        case .xml(let line, let column): return ImportError(.markup(file: file, line: line, column: column, message: message))
        }
    }
}

/// A whole library: frame rate, movies and texture groups.
struct FlumpLibrary {
    var shape: FlumpShape
    /// Frames per second of every movie.
    var frameRate: Double
    var frameRateLocation: FlumpLocation
    var movies: [FlumpMovie]
    /// One group per exported scale factor (the 2013 shape and old XML have exactly one, at scale 1).
    var textureGroups: [FlumpTextureGroup]
    /// Things the reader noticed but does not convert (unknown elements, base classes, …).
    var notes: [(code: String, message: String, location: FlumpLocation)] = []
}

/// One movie (a Flash symbol exported with its timeline).
struct FlumpMovie {
    /// The id keyframes use in `ref` to nest it.
    var id: String
    var layers: [FlumpLayer]
    var location: FlumpLocation
}

/// One layer of a movie, back to front in the file.
struct FlumpLayer {
    var name: String
    /// A flipbook layer: each keyframe shows one texture `<movie>_flipbook_<index>`.
    var flipbook: Bool
    var keyframes: [FlumpKeyframe]
    var location: FlumpLocation
}

/// One keyframe with every field at its Flump default when the file omits it.
struct FlumpKeyframe {
    var index: Int
    var duration: Int
    /// A texture symbol or a movie id; `nil` for an empty keyframe.
    var ref: String?
    var location: Vector2 = .zero
    var scale: Vector2 = .one
    /// `(skewX, skewY)` in radians.
    var skew: Vector2 = .zero
    var pivot: Vector2 = .zero
    var alpha: Double = 1
    var visible = true
    var tweened = true
    var ease: Double = 0
    var label: String?
    /// `(multiplier, 0xRRGGBB)` when the exporter wrote a tint.
    var tint: (amount: Double, rgb: Int)?
    var source: FlumpLocation
    /// Where `ref` is written (for errors about unknown references).
    var refSource: FlumpLocation
}

/// The atlases exported at one scale factor.
struct FlumpTextureGroup {
    var scaleFactor: Double
    var atlases: [FlumpAtlas]
    var location: FlumpLocation
}

/// One atlas image and the textures packed into it.
struct FlumpAtlas {
    /// The image file, relative to the library.
    var file: String
    var textures: [FlumpTexture]
    var location: FlumpLocation
    /// Where `file` is written (the member or the attribute).
    var fileLocation: FlumpLocation
}

/// One texture: its rectangle in the atlas and its origin, both in the group's pixels.
struct FlumpTexture {
    var symbol: String
    var rect: Rect
    /// The point of the texture that sits at the layer's origin (the image is drawn at `−origin`).
    var origin: Vector2
    var location: FlumpLocation
}
