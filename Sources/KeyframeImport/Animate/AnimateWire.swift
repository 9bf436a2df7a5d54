import KeyframeJSON
import KeyframeModel

// Wire structures of the Adobe Animate texture-atlas export (official, both key spellings, the 2018 shape, and
// BetterTextureAtlas). They mirror the files; ``AnimateNormalizer`` turns them into the model.

/// Both spellings of one Animate key: the long form and the "optimized" short form.
struct AnimateKey: Sendable {
    let spellings: [String]
    init(_ long: String, _ short: String, _ more: String...) { spellings = [long, short] + more }

    static let animation = AnimateKey("ANIMATION", "AN")
    static let symbolDictionary = AnimateKey("SYMBOL_DICTIONARY", "SD")
    static let symbols = AnimateKey("Symbols", "S")
    static let metadata = AnimateKey("metadata", "MD")
    static let frameRate = AnimateKey("framerate", "FRT", "frameRate")
    static let timeline = AnimateKey("TIMELINE", "TL")
    static let layers = AnimateKey("LAYERS", "L")
    static let layerName = AnimateKey("Layer_name", "LN")
    static let layerType = AnimateKey("Layer_type", "LT")
    static let clippedBy = AnimateKey("Clipped_by", "Clpb")
    static let frames = AnimateKey("Frames", "FR")
    static let index = AnimateKey("index", "I")
    static let duration = AnimateKey("duration", "DU")
    static let name = AnimateKey("name", "N")
    static let elements = AnimateKey("elements", "E")
    static let symbolInstance = AnimateKey("SYMBOL_Instance", "SI")
    static let spriteInstance = AnimateKey("ATLAS_SPRITE_instance", "ASI")
    static let symbolName = AnimateKey("SYMBOL_name", "SN")
    static let instanceName = AnimateKey("Instance_Name", "IN")
    static let symbolType = AnimateKey("symbolType", "ST")
    static let firstFrame = AnimateKey("firstFrame", "FF")
    static let loop = AnimateKey("loop", "LP")
    static let transformationPoint = AnimateKey("transformationPoint", "TRP")
    static let matrix3D = AnimateKey("Matrix3D", "M3D")
    static let matrix2D = AnimateKey("Matrix", "MX")
    static let position = AnimateKey("Position", "POS")
    static let bitmap = AnimateKey("bitmap", "BM")
    static let color = AnimateKey("color", "C")
    static let mode = AnimateKey("mode", "M")
    static let filters = AnimateKey("filters", "F")
    static let blend = AnimateKey("blend", "B")
    static let tween = AnimateKey("tween", "TWN")
    static let stageInstance = AnimateKey("StageInstance", "STI")
    static let version = AnimateKey("version", "V")
}

extension JSONCursor {
    func member(_ key: AnimateKey) throws(JSONSchemaError) -> JSONCursor { try member(anyOf: key.spellings) }
    func optionalMember(_ key: AnimateKey) throws(JSONSchemaError) -> JSONCursor? {
        try optionalMember(anyOf: key.spellings)
    }
}

/// A symbol's timeline: layers front-most first, as in the file.
struct AnimateTimeline {
    var layers: [AnimateLayer]
}

/// The role of a layer.
enum AnimateLayerType: Equatable {
    case normal, mask, folder, guide
}

/// One layer of a timeline.
struct AnimateLayer {
    var name: String
    var type: AnimateLayerType
    var clippedBy: String?
    var frames: [AnimateFrame]
    var path: JSONPath
}

/// One keyframe of a layer: shown from `index` for `duration` frames.
struct AnimateFrame {
    var index: Int
    var duration: Int
    var label: String?
    var elements: [AnimateElement]
    var tween: AnimateTween?
    var color: ColorTransform?
    var filters: [Filter]
    var path: JSONPath
}

/// An element of a keyframe, back to front.
enum AnimateElement {
    case symbol(AnimateSymbolInstance)
    case sprite(AnimateSpriteInstance)
}

/// The kind of a symbol instance.
enum AnimateSymbolType: Equatable {
    case graphic, movieClip, button
}

/// A placed symbol (`SI`).
struct AnimateSymbolInstance {
    var symbolName: String
    var instanceName: String?
    var type: AnimateSymbolType
    var firstFrame: Int?
    var loop: LoopMode?
    var transformationPoint: Vector2?
    var matrix: Matrix2D
    var color: ColorTransform?
    var filters: [Filter]
    var blend: String?
    /// The 2018 form: a bitmap-only symbol carried inline (`bitmap{name, Position}`).
    var bitmap: (name: String, position: Vector2)?
    var path: JSONPath
}

/// A placed atlas sprite (`ASI`).
struct AnimateSpriteInstance {
    var name: String
    var matrix: Matrix2D
    var path: JSONPath
}

/// An un-baked classic tween (BetterTextureAtlas `TWN`).
struct AnimateTween {
    var easing: Easing
    var type: String
    var rotate: String
    var rotateTimes: Int
}

/// One spritemap file's sprites and image.
struct AnimateSpriteMap {
    var file: String
    var image: String
    /// Where `image` is written (`meta.image`).
    var imagePath: JSONPath
    var size: Size
    var resolution: Double
    var app: String?
    var version: String?
    var sprites: [(name: String, rect: Rect, rotated: Bool, path: JSONPath)]
}
