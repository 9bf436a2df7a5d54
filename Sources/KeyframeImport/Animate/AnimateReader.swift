import KeyframeJSON
import KeyframeModel

/// Reads the wire structures of an Animate export from parsed JSON, accepting both key spellings per key.
///
/// Every failure is a ``JSONSchemaError`` with the JSON path of the offending value.
struct AnimateReader {
    /// Longest timeline accepted, in frames (about 70 minutes at 24 fps). Guards against absurd durations such as
    /// 10⁹ that would make players and renderers run forever.
    static let maximumTimelineFrames = ModelLimits.maximumTimelineFrames

    var diagnostics: [(code: String, message: String, path: JSONPath)] = []

    mutating func timeline(_ cursor: JSONCursor) throws(JSONSchemaError) -> AnimateTimeline {
        var layers: [AnimateLayer] = []
        for layerCursor in try cursor.member(.layers).array() {
            layers.append(try layer(layerCursor))
        }
        return AnimateTimeline(layers: layers)
    }

    mutating func layer(_ cursor: JSONCursor) throws(JSONSchemaError) -> AnimateLayer {
        let name = try cursor.optionalMember(.layerName)?.string() ?? ""
        var type = AnimateLayerType.normal
        if let typeCursor = try cursor.optionalMember(.layerType) {
            switch try typeCursor.string() {
            case "Clipper", "Clp": type = .mask
            case "Folder", "Fld": type = .folder
            case "Guide", "Gd": type = .guide
            case "Guided", "Gdd": type = .normal
            case "Normal", "Nrm", "Clipped", "Clpd": type = .normal
            case let other:
                diagnostics.append(("unknown-layer-type", "unknown layer type \"\(other)\" treated as normal",
                                    typeCursor.path))
            }
        }
        var frames: [AnimateFrame] = []
        if let framesCursor = try cursor.optionalMember(.frames) {
            var end = 0
            for frameCursor in try framesCursor.array() {
                let frame = try frame(frameCursor)
                guard frame.index >= end else {
                    throw frameCursor.error(at: "I", "keyframe starts at frame \(frame.index), inside the previous keyframe (which ends at \(end))")
                }
                end = frame.index + frame.duration
                frames.append(frame)
            }
        }
        return AnimateLayer(
            name: name, type: type, clippedBy: try cursor.optionalMember(.clippedBy)?.string(), frames: frames,
            path: cursor.path)
    }

    mutating func frame(_ cursor: JSONCursor) throws(JSONSchemaError) -> AnimateFrame {
        let indexCursor = try cursor.member(.index)
        let index = try indexCursor.integer()
        let durationCursor = try cursor.member(.duration)
        let duration = try durationCursor.integer()
        guard index >= 0, index < AnimateReader.maximumTimelineFrames else {
            throw indexCursor.error("frame index \(index) is outside 0..<\(AnimateReader.maximumTimelineFrames)")
        }
        guard duration >= 1, index + duration <= AnimateReader.maximumTimelineFrames else {
            throw durationCursor.error(
                "frame duration \(duration) is out of range (1 to \(AnimateReader.maximumTimelineFrames - index) frames here; timelines are limited to \(AnimateReader.maximumTimelineFrames) frames)")
        }
        var elements: [AnimateElement] = []
        if let elementsCursor = try cursor.optionalMember(.elements) {
            for elementCursor in try elementsCursor.array() {
                if let symbolCursor = try elementCursor.optionalMember(.symbolInstance) {
                    elements.append(.symbol(try symbolInstance(symbolCursor)))
                } else if let spriteCursor = try elementCursor.optionalMember(.spriteInstance) {
                    elements.append(.sprite(try spriteInstance(spriteCursor)))
                } else {
                    let keys = (try elementCursor.object()).keys.sorted().joined(separator: ", ")
                    diagnostics.append(("unsupported-element", "element kind {\(keys)} is not supported and was skipped",
                                        elementCursor.path))
                }
            }
        }
        return AnimateFrame(
            index: index, duration: duration, label: try cursor.optionalMember(.name)?.string(),
            elements: elements, tween: try cursor.optionalMember(.tween).map { (c) throws(JSONSchemaError) in try tween(c) },
            color: try cursor.optionalMember(.color).flatMap { (c) throws(JSONSchemaError) in try color(c) },
            filters: try cursor.optionalMember(.filters).map { (c) throws(JSONSchemaError) in try filters(c) } ?? [],
            path: cursor.path)
    }

    mutating func symbolInstance(_ cursor: JSONCursor) throws(JSONSchemaError) -> AnimateSymbolInstance {
        var type = AnimateSymbolType.graphic
        if let typeCursor = try cursor.optionalMember(.symbolType) {
            switch try typeCursor.string() {
            case "graphic", "G": type = .graphic
            case "movieclip", "MC", "movie clip": type = .movieClip
            case "button", "B": type = .button
            case let other:
                diagnostics.append(("unknown-symbol-type", "unknown symbol type \"\(other)\" treated as graphic",
                                    typeCursor.path))
            }
        }
        var loop: LoopMode? = nil
        if let loopCursor = try cursor.optionalMember(.loop) {
            switch try loopCursor.string() {
            case "loop", "LP": loop = .loop
            case "playonce", "PO": loop = .playOnce
            case "singleframe", "SF": loop = .singleFrame
            case "loopReverse", "LR", "LPR": loop = .loopReverse
            case "playonceReverse", "POR", "PR": loop = .playOnceReverse
            case let other:
                diagnostics.append(("unknown-loop-mode", "unknown loop mode \"\(other)\" treated as loop", loopCursor.path))
                loop = .loop
            }
        }
        var bitmap: (String, Vector2)? = nil
        if let bitmapCursor = try cursor.optionalMember(.bitmap) {
            let position = try bitmapCursor.optionalMember(.position).map { (c) throws(JSONSchemaError) in try point(c) }
            bitmap = (try bitmapCursor.member(.name).string(), position ?? .zero)
        }
        return AnimateSymbolInstance(
            symbolName: try cursor.member(.symbolName).string(),
            instanceName: try cursor.optionalMember(.instanceName)?.string(),
            type: type,
            firstFrame: try cursor.optionalMember(.firstFrame)?.integer(),
            loop: loop,
            transformationPoint: try cursor.optionalMember(.transformationPoint).map { (c) throws(JSONSchemaError) in
                try point(c)
            },
            matrix: try matrix(of: cursor),
            color: try cursor.optionalMember(.color).flatMap { (c) throws(JSONSchemaError) in try color(c) },
            filters: try cursor.optionalMember(.filters).map { (c) throws(JSONSchemaError) in try filters(c) } ?? [],
            blend: try cursor.optionalMember(.blend).map { (c) throws(JSONSchemaError) -> String in
                if case .number(let n) = c.value { return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n) }
                return try c.string()
            },
            bitmap: bitmap, path: cursor.path)
    }

    func spriteInstance(_ cursor: JSONCursor) throws(JSONSchemaError) -> AnimateSpriteInstance {
        AnimateSpriteInstance(name: try cursor.member(.name).string(), matrix: try matrix(of: cursor), path: cursor.path)
    }

    /// The instance's 2-D matrix from `M3D` (array or object), `MX`/`Matrix` (6 numbers), or the 2018
    /// `Position`; identity when none is present.
    func matrix(of cursor: JSONCursor) throws(JSONSchemaError) -> Matrix2D {
        if let m3d = try cursor.optionalMember(.matrix3D) {
            switch m3d.value {
            case .array:
                let values = try m3d.array()
                guard values.count == 16 else { throw m3d.error("a 3-D matrix needs 16 numbers, found \(values.count)") }
                return Matrix2D(
                    a: try values[0].number(), b: try values[1].number(), c: try values[4].number(),
                    d: try values[5].number(), tx: try values[12].number(), ty: try values[13].number())
            default:
                return Matrix2D(
                    a: try m3d.member("m00").number(), b: try m3d.member("m01").number(),
                    c: try m3d.member("m10").number(), d: try m3d.member("m11").number(),
                    tx: try m3d.member("m30").number(), ty: try m3d.member("m31").number())
            }
        }
        if let mx = try cursor.optionalMember(.matrix2D) {
            let values = try mx.array()
            guard values.count == 6 else { throw mx.error("a 2-D matrix needs 6 numbers [a, b, c, d, tx, ty], found \(values.count)") }
            return Matrix2D(
                a: try values[0].number(), b: try values[1].number(), c: try values[2].number(),
                d: try values[3].number(), tx: try values[4].number(), ty: try values[5].number())
        }
        if let position = try cursor.optionalMember(.position) {
            let p = try point(position)
            return Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: p.x, ty: p.y)
        }
        return .identity
    }

    func point(_ cursor: JSONCursor) throws(JSONSchemaError) -> Vector2 {
        Vector2(x: try cursor.member("x").number(), y: try cursor.member("y").number())
    }

    /// A colour effect (`C`), normalized to multiply + offset.
    mutating func color(_ cursor: JSONCursor) throws(JSONSchemaError) -> ColorTransform? {
        let modeCursor = try cursor.member(.mode)
        func value(_ keys: [String], _ fallback: Double) throws(JSONSchemaError) -> Double {
            try cursor.optionalMember(anyOf: keys)?.lenientNumber() ?? fallback
        }
        switch try modeCursor.string() {
        case "Advanced", "AD":
            return ColorTransform(
                redMultiplier: try value(["RM", "RedMultiplier", "redMultiplier"], 1),
                greenMultiplier: try value(["GM", "greenMultiplier", "GreenMultiplier"], 1),
                blueMultiplier: try value(["BM", "blueMultiplier", "BlueMultiplier"], 1),
                alphaMultiplier: try value(["AM", "alphaMultiplier", "AlphaMultiplier"], 1),
                redOffset: try value(["RO", "redOffset", "RedOffset"], 0),
                greenOffset: try value(["GO", "greenOffset", "GreenOffset"], 0),
                blueOffset: try value(["BO", "blueOffset", "BlueOffset"], 0),
                alphaOffset: try value(["AO", "AlphaOffset", "alphaOffset"], 0))
        case "Alpha", "CA":
            return ColorTransform(alphaMultiplier: try value(["AM", "alphaMultiplier", "AlphaMultiplier"], 1))
        case "Brightness", "CBRT":
            let brightness = min(max(try value(["BRT", "brightness", "Brightness"], 0), -1), 1)
            if brightness < 0 {
                let m = 1 + brightness
                return ColorTransform(redMultiplier: m, greenMultiplier: m, blueMultiplier: m)
            }
            let m = 1 - brightness, o = 255 * brightness
            return ColorTransform(redMultiplier: m, greenMultiplier: m, blueMultiplier: m,
                                  redOffset: o, greenOffset: o, blueOffset: o)
        case "Tint", "T":
            let amount = try value(["TM", "tintMultiplier", "TintMultiplier"], 0)
            let colorCursor = try cursor.member(anyOf: ["TC", "tintColor", "TintColor"])
            guard let rgb = AnimateReader.hexColor(try colorCursor.string()) else {
                throw colorCursor.error("expected a colour like \"#RRGGBB\"")
            }
            let m = 1 - amount
            return ColorTransform(redMultiplier: m, greenMultiplier: m, blueMultiplier: m,
                                  redOffset: rgb.0 * amount, greenOffset: rgb.1 * amount, blueOffset: rgb.2 * amount)
        case "None", "N", "none":
            return nil
        case let other:
            diagnostics.append(("unknown-color-mode", "unknown colour effect mode \"\(other)\" ignored", modeCursor.path))
            return nil
        }
    }

    static func hexColor(_ text: String) -> (Double, Double, Double)? {
        var hex = Substring(text)
        if hex.hasPrefix("#") { hex = hex.dropFirst() }
        guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return nil }
        return (Double(value >> 16 & 0xFF), Double(value >> 8 & 0xFF), Double(value & 0xFF))
    }

    static let filterKinds: [String: String] = [
        "GF": "glow", "GlowFilter": "glow", "DSF": "dropShadow", "DropShadowFilter": "dropShadow",
        "BLF": "blur", "BlurFilter": "blur", "BF": "bevel", "BevelFilter": "bevel",
        "ACF": "adjustColor", "AdjustColorFilter": "adjustColor", "GGF": "gradientGlow",
        "GradientGlowFilter": "gradientGlow", "GBF": "gradientBevel", "GradientBevelFilter": "gradientBevel",
    ]

    /// The normalized kind of a filter type name in any spelling (`GF`, `GlowFilter`, `glowFilter`).
    static func filterKind(_ name: String) -> String {
        if let kind = filterKinds[name] { return kind }
        let lowered = name.lowercased()
        for (key, kind) in filterKinds where key.lowercased() == lowered { return kind }
        return name
    }

    /// Filters: an object keyed by filter type (official; `GF_1` suffixes for repeats) or an array of
    /// `{N: type, …}` (BetterTextureAtlas). Blur, glow, drop shadow and adjust colour are normalized to Flash's
    /// parameters (``AnimateReader/normalizedFilter(kind:source:betterTextureAtlas:)``); other kinds keep their
    /// fields as they are.
    func filters(_ cursor: JSONCursor) throws(JSONSchemaError) -> [Filter] {
        var result: [Filter] = []
        switch cursor.value {
        case .array:
            for entry in try cursor.array() {
                var parameters = try entry.object()
                let typeName = (parameters["N"] ?? parameters["name"])?.stringValue ?? "unknown"
                parameters["N"] = nil
                parameters["name"] = nil
                result.append(AnimateReader.normalizedFilter(kind: AnimateReader.filterKind(typeName),
                                                             source: .object(parameters), betterTextureAtlas: true))
            }
        case .object(let members):
            // The reader's objects do not keep the file's key order, so the filters of one object are taken in
            // the order of their keys (`ACF`, `BLF`, `DSF`, `GF`, `GF_1`, …); arrays keep theirs.
            for key in members.keys.sorted() {
                let base = String(key.split(separator: "_").first ?? Substring(key))
                result.append(AnimateReader.normalizedFilter(kind: AnimateReader.filterKind(base),
                                                             source: members[key]!, betterTextureAtlas: false))
            }
        default:
            throw cursor.error("expected filters as an object or an array, found \(cursor.value.typeName)")
        }
        return result
    }

    /// A filter with Flash's parameters (``FilterEffect``) for the kinds Keyframe draws, read from either export's
    /// spellings: official short keys (`BLX`, `BLY`, `Q`, `C`, `A` alpha, `STR`, `IN`, `KK`, `DST`, `AL` angle,
    /// `HO`, `BRT`, `CT`, `SAT`, `H`) or ActionScript's names (`blurX`, …, 2018 exports and BTA's long keys); BTA's
    /// short keys `D` (distance) and `A` (angle), its strength in percent (JSFL's 0…25500) and its colours with an
    /// optional alpha byte (`#RRGGBBAA`). Missing parameters take Flash's defaults. Kinds Keyframe does not draw,
    /// and parameters that are not an object or of the wrong type, keep the source's fields unchanged.
    static func normalizedFilter(kind: String, source: JSONValue, betterTextureAtlas bta: Bool) -> Filter {
        let unchanged = Filter(kind: kind, parameters: source)
        guard case .object(let members) = source else { return unchanged }
        var readable = true
        func value(_ keys: [String]) -> JSONValue? {
            for key in keys { if let v = members[key] { return v } }
            return nil
        }
        func number(_ keys: [String], _ fallback: Double) -> Double {
            switch value(keys) {
            case nil: return fallback
            case .number(let n)? where n.isFinite: return n
            case .string(let text)? where Double(text)?.isFinite == true: return Double(text)!
            default: readable = false; return fallback
            }
        }
        func flag(_ keys: [String], _ fallback: Bool) -> Bool {
            switch value(keys) {
            case nil: return fallback
            case .bool(let b)?: return b
            case .string("true")?: return true
            case .string("false")?: return false
            default: readable = false; return fallback
            }
        }
        func blur(_ fallback: FilterEffect.Blur) -> FilterEffect.Blur {
            var quality = Double(fallback.quality)
            switch value(["Q", "quality"]) {
            case .string("low")?: quality = 1
            case .string("medium")?: quality = 2
            case .string("high")?: quality = 3
            default: quality = number(["Q", "quality"], quality)
            }
            if quality != quality.rounded() || abs(quality) > 1_000_000 { readable = false; quality = 0 }
            return FilterEffect.Blur(blurX: number(["BLX", "blurX"], fallback.blurX),
                                     blurY: number(["BLY", "blurY"], fallback.blurY), quality: Int(quality))
        }
        func glow(_ fallback: FilterEffect.Glow, shadow: Bool) -> FilterEffect.Glow {
            var glow = fallback
            glow.blur = blur(fallback.blur)
            var colorAlpha: Double? = nil
            if let color = value(["C", "color"]) {
                if case .string(let text) = color, let parsed = AnimateReader.filterColor(text) {
                    (glow.red, glow.green, glow.blue) = (parsed.red, parsed.green, parsed.blue)
                    colorAlpha = parsed.alpha
                } else {
                    readable = false
                }
            }
            // BTA's short `A` is the angle; its alpha travels in the colour.
            glow.alpha = bta ? number(["alpha"], colorAlpha ?? fallback.alpha)
                : number(["A", "alpha"], colorAlpha ?? fallback.alpha)
            let strength = number(["STR", "strength"], bta ? fallback.strength * 100 : fallback.strength)
            glow.strength = bta ? strength / 100 : strength
            glow.inner = flag(["IN", "inner"], fallback.inner)
            glow.knockout = flag(["KK", "knockout"], fallback.knockout)
            if shadow {
                glow.distance = number(bta ? ["D", "distance", "DST"] : ["DST", "distance"], fallback.distance)
                glow.angle = number(bta ? ["A", "angle", "AL"] : ["AL", "angle"], fallback.angle)
                glow.hideObject = flag(["HO", "hideObject"], fallback.hideObject)
            }
            return glow
        }
        let effect: FilterEffect
        switch kind {
        case "blur": effect = .blur(blur(FilterEffect.defaultBlur))
        case "glow": effect = .glow(glow(FilterEffect.defaultGlow, shadow: false))
        case "dropShadow": effect = .dropShadow(glow(FilterEffect.defaultDropShadow, shadow: true))
        case "adjustColor":
            effect = .adjustColor(FilterEffect.AdjustColor(
                brightness: number(["BRT", "brightness"], 0), contrast: number(["CT", "contrast"], 0),
                saturation: number(["SAT", "saturation"], 0), hue: number(["H", "hue"], 0)))
        default:
            return unchanged
        }
        return readable ? Filter(effect) : unchanged
    }

    /// A filter colour: `#RRGGBB`, or `#RRGGBBAA` (JSFL's form, alpha 0…255 → 0…1).
    static func filterColor(_ text: String) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: Double?)? {
        if let rgb = Filter.rgb(text) { return (rgb.0, rgb.1, rgb.2, nil) }
        guard text.count == 9, let rgb = Filter.rgb(String(text.prefix(7))),
            text.suffix(2).allSatisfy(\.isHexDigit), let alpha = UInt8(text.suffix(2), radix: 16)
        else { return nil }
        return (rgb.0, rgb.1, rgb.2, Double(alpha) / 255)
    }

    /// An un-baked tween: `CV` custom-ease points, or `ES` classic ease (−100…100), else linear.
    func tween(_ cursor: JSONCursor) throws(JSONSchemaError) -> AnimateTween {
        var easing = Easing.linear
        if let curveCursor = try cursor.optionalMember(anyOf: ["CV", "curve"]) {
            var points: [Vector2] = []
            for pointCursor in try curveCursor.array() { points.append(try point(pointCursor)) }
            guard points.count >= 4, (points.count - 1) % 3 == 0 else {
                throw curveCursor.error("a custom ease needs 3n+1 points (n ≥ 1), found \(points.count)")
            }
            if points.count == 4 {
                easing = .cubicBezier(x1: points[1].x, y1: points[1].y, x2: points[2].x, y2: points[2].y)
            } else {
                easing = .bezierPath(points: points, sampledSteps: nil)
            }
        } else if let easeCursor = try cursor.optionalMember(anyOf: ["ES", "ease"]) {
            let ease = try easeCursor.lenientNumber()
            easing = ease == 0 ? .linear : .flashQuadratic(strength: min(max(ease / 100, -1), 1))
        }
        let turns = try cursor.optionalMember(anyOf: ["RTT", "rotateTimes"])
        let rotateTimes = try turns?.lenientNumber() ?? 0
        if let turns, !(rotateTimes.isFinite && abs(rotateTimes) <= 1_000_000) {
            throw turns.error("a tween of \(rotateTimes) extra turns is out of range")
        }
        return AnimateTween(
            easing: easing,
            type: try cursor.optionalMember(anyOf: ["TP", "T", "type"])?.string() ?? "motion",
            rotate: try cursor.optionalMember(anyOf: ["RT", "rotate"])?.string() ?? "auto",
            rotateTimes: Int(rotateTimes))
    }

    /// A spritemap file.
    func spriteMap(_ cursor: JSONCursor, file: String) throws(JSONSchemaError) -> AnimateSpriteMap {
        let meta = try cursor.member("meta")
        let sizeCursor = try meta.member("size")
        let resolution = try meta.optionalMember(anyOf: ["resolution", "scale"])?.numberOrNumericText() ?? 1
        guard resolution > 0 else { throw meta.error(at: "resolution", "resolution must be positive") }
        var sprites: [(String, Rect, Bool, JSONPath)] = []
        for entry in try cursor.member("ATLAS").member("SPRITES").array() {
            let sprite = try entry.member("SPRITE")
            let rect = Rect(
                x: try sprite.member("x").number(), y: try sprite.member("y").number(),
                width: try sprite.member("w").number(), height: try sprite.member("h").number())
            guard rect.width >= 0, rect.height >= 0 else { throw sprite.error("sprite size must not be negative") }
            sprites.append((try sprite.member("name").string(), rect,
                            try sprite.optionalMember("rotated")?.bool() ?? false, sprite.path))
        }
        return AnimateSpriteMap(
            file: file, image: try meta.member("image").string(), imagePath: meta.path.appending("image"),
            size: Size(width: try sizeCursor.member("w").lenientNumber(), height: try sizeCursor.member("h").lenientNumber()),
            resolution: resolution, app: try meta.optionalMember("app")?.string(),
            version: try meta.optionalMember("version")?.string(), sprites: sprites)
    }
}
