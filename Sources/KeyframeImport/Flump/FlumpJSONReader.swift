import KeyframeJSON
import KeyframeModel

/// Reads a Flump `library.json` — the current schema or the early-2013 one — into the wire structures.
///
/// Field names and defaults follow Flump's own molds (`LibraryMold`, `MovieMold`, `LayerMold`, `KeyframeMold`,
/// `AtlasMold`, `AtlasTextureMold`): `index`, `duration`, `frameRate`, `id`, `name`, `symbol`, `rect` are required;
/// every keyframe field the exporter leaves out has its default. Every failure is a ``JSONSchemaError`` with the
/// JSON path of the offending value.
struct FlumpJSONReader {
    /// Reads the library at the root of `cursor`.
    static func read(_ cursor: JSONCursor) throws(JSONSchemaError) -> FlumpLibrary {
        // The pre-release schema (flambe's `Format.hx`: `version`, `checksum`, movies named by `symbol`, a single
        // `rotation`) is not read; say so instead of complaining about a missing key.
        if cursor.has("checksum"), cursor.has("version"), !cursor.has("frameRate") {
            throw cursor.error("this is Flump's pre-release format (\"version\", \"checksum\", no \"frameRate\"); only the 2013 and later schemas are read")
        }
        let frameRateCursor = try cursor.member("frameRate")
        let frameRate = try frameRateCursor.lenientNumber()
        var notes: [(code: String, message: String, location: FlumpLocation)] = []

        var movies: [FlumpMovie] = []
        for movieCursor in try cursor.member("movies").array() {
            movies.append(try movie(movieCursor, notes: &notes))
        }

        var groups: [FlumpTextureGroup] = []
        let shape: FlumpShape
        if let groupsCursor = try cursor.optionalMember("textureGroups") {
            shape = .json
            for groupCursor in try groupsCursor.array() {
                let scaleCursor = try groupCursor.optionalMember("scaleFactor")
                let scale = try scaleCursor?.lenientNumber() ?? 1
                guard scale > 0 else { throw groupCursor.error(at: "scaleFactor", "the scale factor must be positive") }
                var atlases: [FlumpAtlas] = []
                for atlasCursor in try groupCursor.member("atlases").array() {
                    atlases.append(try atlas(atlasCursor, notes: &notes))
                }
                groups.append(FlumpTextureGroup(scaleFactor: scale, atlases: atlases, location: .json(groupCursor.path)))
            }
        } else if let atlasesCursor = try cursor.optionalMember("atlases") {
            shape = .json2013
            var atlases: [FlumpAtlas] = []
            for atlasCursor in try atlasesCursor.array() {
                atlases.append(try atlas(atlasCursor, notes: &notes))
            }
            groups.append(FlumpTextureGroup(scaleFactor: 1, atlases: atlases, location: .json(atlasesCursor.path)))
        } else {
            throw cursor.error("missing required key \"textureGroups\" (or \"atlases\" in the 2013 format)")
        }
        if let format = try cursor.optionalMember("textureFormat"), try format.string() != "png" {
            notes.append(("texture-format", "atlases are declared as \"\(try format.string())\"; only PNG atlases can be read",
                          .json(format.path)))
        }
        return FlumpLibrary(shape: shape, frameRate: frameRate, frameRateLocation: .json(frameRateCursor.path),
                            movies: movies, textureGroups: groups, notes: notes)
    }

    private static func movie(_ cursor: JSONCursor, notes: inout [(code: String, message: String, location: FlumpLocation)])
        throws(JSONSchemaError) -> FlumpMovie
    {
        let id = try cursor.member("id").string()
        if let baseClass = try cursor.optionalMember("baseClass") {
            notes.append(("base-class-ignored",
                          "a movie's ActionScript base class (\(try baseClass.string())) has no meaning outside Flash",
                          .json(baseClass.path)))
        }
        var layers: [FlumpLayer] = []
        for layerCursor in try cursor.member("layers").array() {
            var keyframes: [FlumpKeyframe] = []
            for keyframeCursor in try layerCursor.member("keyframes").array() {
                keyframes.append(try keyframe(keyframeCursor))
            }
            let flipbook = try layerCursor.optionalMember("flipbook")?.bool() ?? false
            layers.append(FlumpLayer(
                name: try layerCursor.member("name").string(), flipbook: flipbook, keyframes: keyframes,
                location: .json(layerCursor.path)))
        }
        return FlumpMovie(id: id, layers: layers, location: .json(cursor.path))
    }

    private static func keyframe(_ cursor: JSONCursor) throws(JSONSchemaError) -> FlumpKeyframe {
        let refCursor = try cursor.optionalMember("ref")
        var keyframe = FlumpKeyframe(
            index: try cursor.member("index").integer(), duration: try cursor.member("duration").integer(),
            ref: try refCursor?.string(), source: .json(cursor.path), refSource: .json(refCursor?.path ?? cursor.path))
        if let value = try pair(cursor, "loc") { keyframe.location = value }
        if let value = try pair(cursor, "scale") { keyframe.scale = value }
        if let value = try pair(cursor, "skew") { keyframe.skew = value }
        if let value = try pair(cursor, "pivot") { keyframe.pivot = value }
        if let alpha = try cursor.optionalMember("alpha") { keyframe.alpha = try alpha.number() }
        if let visible = try cursor.optionalMember("visible") { keyframe.visible = try visible.bool() }
        if let tweened = try cursor.optionalMember("tweened") { keyframe.tweened = try tweened.bool() }
        if let ease = try cursor.optionalMember("ease") { keyframe.ease = try ease.number() }
        if let label = try cursor.optionalMember("label") { keyframe.label = try label.string() }
        if let tint = try cursor.optionalMember("tint") {
            let values = try tint.array()
            guard values.count == 2 else { throw tint.error("a tint needs [multiplier, colour], found \(values.count) values") }
            let rgb = try values[1].lenientNumber()
            guard rgb >= 0, rgb <= 0xFFFFFF, rgb == rgb.rounded() else {
                throw values[1].error("a tint colour is an integer 0…0xFFFFFF, found \(rgb)")
            }
            keyframe.tint = (try values[0].lenientNumber(), Int(rgb))
        }
        return keyframe
    }

    private static func atlas(_ cursor: JSONCursor, notes: inout [(code: String, message: String, location: FlumpLocation)])
        throws(JSONSchemaError) -> FlumpAtlas
    {
        var textures: [FlumpTexture] = []
        for textureCursor in try cursor.member("textures").array() {
            let rectCursor = try textureCursor.member("rect")
            let values = try rectCursor.array()
            guard values.count == 4 else { throw rectCursor.error("a rect needs [x, y, width, height], found \(values.count) values") }
            let rect = Rect(x: try values[0].number(), y: try values[1].number(), width: try values[2].number(),
                            height: try values[3].number())
            guard rect.width >= 0, rect.height >= 0 else { throw rectCursor.error("a texture's size must not be negative") }
            let origin: Vector2
            if let value = try pair(textureCursor, "origin") {
                origin = value
            } else if let offset = try pair(textureCursor, "offset") {
                // The 2013 exporter wrote where the image's corner sits, i.e. minus the origin.
                origin = Vector2(x: -offset.x, y: -offset.y)
            } else {
                throw textureCursor.error("missing required key \"origin\" (or \"offset\" in the 2013 format)")
            }
            if let baseClass = try textureCursor.optionalMember("baseClass") {
                notes.append(("base-class-ignored",
                              "a texture's ActionScript base class (\(try baseClass.string())) has no meaning outside Flash",
                              .json(baseClass.path)))
            }
            textures.append(FlumpTexture(symbol: try textureCursor.member("symbol").string(), rect: rect, origin: origin,
                                         location: .json(textureCursor.path)))
        }
        let file = try cursor.member("file")
        return FlumpAtlas(file: try file.string(), textures: textures, location: .json(cursor.path),
                          fileLocation: .json(file.path))
    }

    /// A two-number array such as `loc`, `scale`, `skew`, `pivot` or `origin`, when present.
    private static func pair(_ cursor: JSONCursor, _ key: String) throws(JSONSchemaError) -> Vector2? {
        guard let member = try cursor.optionalMember(key) else { return nil }
        let values = try member.array()
        guard values.count == 2 else { throw member.error("expected two numbers [x, y], found \(values.count) values") }
        return Vector2(x: try values[0].number(), y: try values[1].number())
    }
}
