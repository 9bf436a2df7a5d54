import KeyframeJSON
import KeyframeModel

/// Reads a Flump `library.json` — the current schema, the early-2013 one or the 2012 `resources.json` — into the wire
/// structures.
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
            throw cursor.error("this is flambe's pre-release format of Flump data (\"version\", \"checksum\", no \"frameRate\"); Flump's own schemas (the 2012 resources.json and later) are read")
        }
        var notes: [(code: String, message: String, location: FlumpLocation)] = []
        let era2012 = is2012Schema(cursor)
        let frameRateCursor = era2012 ? try cursor.optionalMember("frameRate") : try cursor.member("frameRate")
        var frameRate = Self.defaultFrameRate2012
        if let frameRateCursor {
            frameRate = try frameRateCursor.lenientNumber()
        } else {
            notes.append(("frame-rate-assumed",
                          "this 2012 resources.json records no frameRate; \(Int(frameRate)) fps is assumed, as its exporter wrote the rate only when it was not 30",
                          .json(cursor.path)))
        }

        var movies: [FlumpMovie] = []
        for movieCursor in try cursor.member("movies").array() {
            movies.append(try movie(movieCursor, era2012: era2012, notes: &notes))
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
                    atlases.append(try atlas(atlasCursor, era2012: false, notes: &notes))
                }
                groups.append(FlumpTextureGroup(scaleFactor: scale, atlases: atlases, location: .json(groupCursor.path)))
            }
        } else if let atlasesCursor = try cursor.optionalMember("atlases") {
            shape = era2012 ? .json2012 : .json2013
            var atlases: [FlumpAtlas] = []
            for atlasCursor in try atlasesCursor.array() {
                atlases.append(try atlas(atlasCursor, era2012: era2012, notes: &notes))
            }
            groups.append(FlumpTextureGroup(scaleFactor: 1, atlases: atlases, location: .json(atlasesCursor.path)))
        } else {
            throw cursor.error("missing required key \"textureGroups\" (or \"atlases\" in the 2013 format)")
        }
        if let format = try cursor.optionalMember("textureFormat"), try format.string() != "png" {
            notes.append(("texture-format", "atlases are declared as \"\(try format.string())\"; only PNG atlases can be read",
                          .json(format.path)))
        }
        return FlumpLibrary(shape: shape, frameRate: frameRate, frameRateLocation: .json(frameRateCursor?.path ?? cursor.path),
                            movies: movies, textureGroups: groups, notes: notes)
    }

    /// The frame rate of a 2012 library that records none: its exporter (flump 0e4ab44, March 2012) left
    /// `frameRate` out exactly when it was 30, and the files written before it had no rate at all.
    static let defaultFrameRate2012 = 30.0

    /// Whether the library is a 2012 `resources.json`: movies keyed by `symbol` (no `id`) beside top-level
    /// `atlases`.
    static func is2012Schema(_ cursor: JSONCursor) -> Bool {
        guard !cursor.has("textureGroups"), cursor.has("atlases"),
            case .array(let movies)? = cursor.value["movies"], case .object(let first)? = movies.first
        else { return false }
        return first["symbol"] != nil && first["id"] == nil
    }

    private static func movie(_ cursor: JSONCursor, era2012: Bool,
                              notes: inout [(code: String, message: String, location: FlumpLocation)])
        throws(JSONSchemaError) -> FlumpMovie
    {
        let id = try cursor.member(era2012 ? "symbol" : "id").string()
        if let baseClass = try cursor.optionalMember("baseClass") {
            notes.append(("base-class-ignored",
                          "a movie's ActionScript base class (\(try baseClass.string())) has no meaning outside Flash",
                          .json(baseClass.path)))
        }
        var layers: [FlumpLayer] = []
        for layerCursor in try cursor.member("layers").array() {
            var keyframes: [FlumpKeyframe] = []
            for keyframeCursor in try layerCursor.member("keyframes").array() {
                // The earliest 2012 files have no `index`: a keyframe starts where the previous one ends.
                let next = keyframes.last.map { $0.index + $0.duration } ?? 0
                keyframes.append(era2012 ? try keyframe2012(keyframeCursor, index: next) : try keyframe(keyframeCursor))
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

    /// A keyframe of the 2012 schema: `index` optional, `loc`/`scale`/`pivot` as arrays or `"x,y"` text, `t` =
    /// `[x, y, scaleX, scaleY, rotation]`, a single `rotation` in radians (no skew: Starling rotated the layer after
    /// scaling it), no `tweened` (the runtime of the time tweened every keyframe but a layer's last).
    private static func keyframe2012(_ cursor: JSONCursor, index: Int) throws(JSONSchemaError) -> FlumpKeyframe {
        let refCursor = try cursor.optionalMember("ref")
        let duration = try cursor.member("duration").lenientNumber()
        guard duration == duration.rounded(), abs(duration) <= 100_000_000 else {
            throw cursor.error(at: "duration", "a keyframe lasts a whole number of frames, found \(duration)")
        }
        var keyframe = FlumpKeyframe(
            index: try cursor.optionalMember("index")?.integer() ?? index, duration: Int(duration),
            ref: try refCursor?.string(), source: .json(cursor.path), refSource: .json(refCursor?.path ?? cursor.path))
        var rotation = 0.0
        if let t = try cursor.optionalMember("t") {
            let values = try t.array().map { (c) throws(JSONSchemaError) in try c.lenientNumber() }
            guard values.count == 5 else { throw t.error("expected [x, y, scaleX, scaleY, rotation], found \(values.count) values") }
            keyframe.location = Vector2(x: values[0], y: values[1])
            keyframe.scale = Vector2(x: values[2], y: values[3])
            rotation = values[4]
        }
        if let value = try pair2012(cursor, "loc") { keyframe.location = value }
        if let value = try pair2012(cursor, "scale") { keyframe.scale = value }
        if let value = try pair2012(cursor, "pivot") { keyframe.pivot = value }
        if let value = try cursor.optionalMember("rotation") { rotation = try value.lenientNumber() }
        keyframe.skew = Vector2(x: rotation, y: rotation)
        if let alpha = try cursor.optionalMember("alpha") { keyframe.alpha = try alpha.lenientNumber() }
        if let visible = try cursor.optionalMember("visible") { keyframe.visible = try visible.bool() }
        if let ease = try cursor.optionalMember("ease") { keyframe.ease = try ease.lenientNumber() }
        if let label = try cursor.optionalMember("label") { keyframe.label = try label.string() }
        return keyframe
    }

    /// A 2012 pair: `[x, y]`, or the `"x,y"` text the exporter wrote for a few days in March 2012.
    private static func pair2012(_ cursor: JSONCursor, _ key: String) throws(JSONSchemaError) -> Vector2? {
        guard let member = try cursor.optionalMember(key) else { return nil }
        if case .string(let text) = member.value {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.filter { $0 != " " }) }
            guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else {
                throw member.error("expected \"x,y\", found \"\(text)\"")
            }
            return Vector2(x: x, y: y)
        }
        return try pair(cursor, key)
    }

    private static func atlas(_ cursor: JSONCursor, era2012: Bool,
                              notes: inout [(code: String, message: String, location: FlumpLocation)])
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
                // The 2012 exporter wrote neither; Flambe's loader of that time (`BitmapSymbol`) then anchors the
                // texture at its top-left corner, and so does Keyframe.
                origin = .zero
                notes.append(("texture-origin-missing",
                              "the texture has no \"origin\" (or \"offset\"); like Flambe's Flump loader, its top-left corner is its origin (0, 0)",
                              .json(textureCursor.path)))
            }
            if let baseClass = try textureCursor.optionalMember("baseClass") {
                notes.append(("base-class-ignored",
                              "a texture's ActionScript base class (\(try baseClass.string())) has no meaning outside Flash",
                              .json(baseClass.path)))
            }
            // 2012 textures were keyed by `name` until April 2012.
            let symbol = try (era2012 ? textureCursor.member(anyOf: ["symbol", "name"]) : textureCursor.member("symbol"))
                .string()
            textures.append(FlumpTexture(symbol: symbol, rect: rect, origin: origin, location: .json(textureCursor.path)))
        }
        let file = try cursor.member("file")
        return FlumpAtlas(file: try file.string(), textures: textures, location: .json(cursor.path),
                          fileLocation: .json(file.path))
    }

    /// A two-number array such as `loc`, `scale`, `skew`, `pivot` or `origin`, when present.
    private static func pair(_ cursor: JSONCursor, _ key: String) throws(JSONSchemaError) -> Vector2? {
        // The common case read straight from the values, without a cursor (and path) per element; anything else
        // takes the checked way below, which names what is wrong.
        if case .array(let values)? = cursor.value[key], values.count == 2, case .number(let x) = values[0],
            case .number(let y) = values[1], x.isFinite, y.isFinite
        {
            return Vector2(x: x, y: y)
        }
        guard let member = try cursor.optionalMember(key) else { return nil }
        let values = try member.array()
        guard values.count == 2 else { throw member.error("expected two numbers [x, y], found \(values.count) values") }
        return Vector2(x: try values[0].number(), y: try values[1].number())
    }
}
