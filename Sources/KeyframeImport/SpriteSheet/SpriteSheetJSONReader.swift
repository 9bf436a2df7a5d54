import KeyframeJSON
import KeyframeModel

/// Reads the JSON sprite-sheet layouts (hash and array) into a ``SpriteSheet``.
///
/// The shape is TexturePacker's, which Animate's "Generate Sprite Sheet" also writes: each frame has `frame`
/// (`x, y, w, h`; `w, h` are the upright size, so a rotated frame occupies `h × w` in the atlas, as PixiJS's
/// `Spritesheet` reads it), `rotated`, `trimmed`, `spriteSourceSize` (where the trimmed picture sits in the
/// untrimmed frame) and `sourceSize`; `meta` has `app`, `version`, `image`, `size` and `scale`.
enum SpriteSheetJSONReader {
    /// Whether `root` is a sprite sheet: `frames` (an object or an array) beside a `meta` object.
    static func isSheet(_ root: JSONValue) -> Bool {
        guard case .object? = root["meta"] else { return false }
        switch root["frames"] {
        case .object?, .array?: return true
        default: return false
        }
    }

    /// Reads the sheet under `root`.
    static func read(_ root: JSONCursor) throws(JSONSchemaError) -> SpriteSheet {
        let meta = try root.member("meta")
        _ = try meta.object()
        let framesCursor = try root.member("frames")
        var frames: [SpriteSheetFrame] = []
        let layout: SpriteSheetLayout
        let count: Int
        switch framesCursor.value {
        case .array(let items): count = items.count
        case .object(let members): count = members.count
        default: count = 0
        }
        guard count <= SpriteSheetLimits.maximumFrames else {
            throw framesCursor.error("\(count) frames; at most \(SpriteSheetLimits.maximumFrames) are accepted")
        }
        if case .array = framesCursor.value {
            layout = .jsonArray
            for entry in try framesCursor.array() {
                let name = try entry.member(anyOf: ["filename", "name"]).string()
                frames.append(try frame(entry, name: name))
            }
        } else {
            layout = .jsonHash
            for (key, value) in try framesCursor.object() {
                frames.append(try frame(framesCursor.cursor(value, at: framesCursor.path.appending(key)), name: key))
            }
        }
        var scale = 1.0
        if let scaleCursor = try meta.optionalMember("scale") {
            scale = try scaleCursor.numberOrNumericText()
            guard scale.isFinite, scale > 0 else { throw scaleCursor.error("the scale must be a positive number") }
        }
        var imageSize: Size? = nil
        if let size = try meta.optionalMember("size") {
            imageSize = Size(width: try size.member("w").number(), height: try size.member("h").number())
        }
        let image = try meta.optionalMember("image")
        var sheet = SpriteSheet(
            layout: layout, image: try image?.string(), imageLocation: .json(image?.path ?? meta.path),
            imageSize: imageSize, scale: scale, app: try meta.optionalMember("app")?.string(),
            appVersion: try meta.optionalMember("version").map { (c) throws(JSONSchemaError) in
                if case .number(let n) = c.value { return JSONWriter.format(n) }
                return try c.string()
            },
            frames: frames)
        // PixiJS's `animations`: name → frame names in play order.
        if let animations = try root.optionalMember("animations") {
            for (name, value) in try animations.object() {
                let list = animations.cursor(value, at: animations.path.appending(name))
                var names: [String] = []
                for item in try list.array() { names.append(try item.string()) }
                sheet.animations.append((name, names, .json(list.path)))
            }
        }
        return sheet
    }

    /// One frame entry.
    private static func frame(_ entry: JSONCursor, name: String) throws(JSONSchemaError) -> SpriteSheetFrame {
        let rect = try entry.member("frame")
        let x = try rect.member("x").number(), y = try rect.member("y").number()
        let w = try rect.member("w").number(), h = try rect.member("h").number()
        try SpriteSheetLimits.check(w, h, at: rect)
        let rotated = try entry.optionalMember("rotated")?.bool() ?? false
        var offset = Vector2.zero
        var sourceSize = Size(width: w, height: h)
        let trimmed = try entry.optionalMember("trimmed")?.bool() ?? false
        // Like PixiJS, `spriteSourceSize` places the picture only when the frame says it is trimmed.
        if trimmed, let sss = try entry.optionalMember("spriteSourceSize") {
            offset = Vector2(x: try sss.member("x").number(), y: try sss.member("y").number())
        }
        if let source = try entry.optionalMember("sourceSize") {
            let width = try source.member("w").number(), height = try source.member("h").number()
            try SpriteSheetLimits.check(width, height, at: source)
            sourceSize = Size(width: width, height: height)
        }
        // `w, h` are the upright size; the stored region of a rotated frame is `h × w`.
        let region = rotated ? Rect(x: x, y: y, width: h, height: w) : Rect(x: x, y: y, width: w, height: h)
        return SpriteSheetFrame(name: name, region: region, rotated: rotated, offset: offset, sourceSize: sourceSize,
                                location: .json(entry.path))
    }
}
