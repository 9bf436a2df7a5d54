import KeyframeJSON

/// Writes the JSON sheet formats of TexturePacker's lineage: hash and array (one file per page, with Pixi's
/// `animations`) and Phaser 3's multi-atlas (one file for every page).
///
/// Each frame has `frame` (the stored rectangle; with `rotated` its `w` and `h` are the unrotated picture's, and the
/// page holds it turned a quarter turn clockwise), `trimmed`, `spriteSourceSize` (the picture's place in the
/// untrimmed frame) and `sourceSize` (the untrimmed frame).
enum TexturePackerJSONWriter {
    /// One page's file: `frames` keyed by name (`hash`) or as an array of entries with `filename`.
    /// `related` names the other pages' data files (Pixi's `meta.related_multi_packs`, which it loads with this one).
    static func page(image: String, size: (width: Int, height: Int), entries: [SheetEntry], hash: Bool,
                     related: [String], scale: String, premultiplied: Bool, pretty: Bool) -> [UInt8] {
        var meta = meta(image: image, size: size, scale: scale, premultiplied: premultiplied)
        if !related.isEmpty { meta["related_multi_packs"] = .array(related.map { .string($0) }) }
        let frames: JSONValue = hash
            ? .object(JSONObject(entries.map { (key: $0.name, value: JSONValue.object(frame($0, named: false))) }))
            : .array(entries.map { .object(frame($0, named: true)) })
        let root: JSONObject = [
            "frames": frames,
            "animations": animations(entries),
            "meta": .object(meta),
        ]
        return write(.object(root), pretty: pretty)
    }

    /// Phaser 3's multi-atlas: `textures`, one per page with its image, size and frames (array form).
    static func multiAtlas(images: [String], sizes: [(width: Int, height: Int)], entries: [SheetEntry], scale: String,
                           premultiplied: Bool, pretty: Bool) -> [UInt8] {
        let textures: [JSONValue] = images.indices.map { page in
            var texture = meta(image: images[page], size: sizes[page], scale: scale, premultiplied: premultiplied)
            texture["scale"] = .number(Double(scale) ?? 1)
            texture["frames"] = .array(entries.filter { $0.slot.page == page }.map { .object(frame($0, named: true)) })
            return .object(texture)
        }
        let root: JSONObject = [
            "textures": .array(textures),
            "meta": ["app": "keyframe", "version": "3"],
        ]
        return write(.object(root), pretty: pretty)
    }

    /// One frame's members (with `filename` in the array forms).
    static func frame(_ entry: SheetEntry, named: Bool) -> JSONObject {
        var object: JSONObject = [
            "frame": rect(entry.slot.x, entry.slot.y, entry.slot.width, entry.slot.height),
            "rotated": .bool(entry.slot.rotated),
            "trimmed": .bool(entry.trimmed),
            "spriteSourceSize": rect(entry.trimX, entry.trimY, entry.slot.width, entry.slot.height),
            "sourceSize": ["w": .number(Double(entry.sourceWidth)), "h": .number(Double(entry.sourceHeight))],
            "duration": .number(entry.milliseconds),
        ]
        if named { object["filename"] = .string(entry.name) }
        return object
    }

    /// Pixi's `animations`: each clip's frame names in order.
    static func animations(_ entries: [SheetEntry]) -> JSONValue {
        var clips: [String] = []
        var names: [String: [JSONValue]] = [:]
        for entry in entries {
            if names[entry.clip] == nil { clips.append(entry.clip) }
            names[entry.clip, default: []].append(.string(entry.name))
        }
        return .object(JSONObject(clips.map { (key: $0, value: JSONValue.array(names[$0]!)) }))
    }

    /// `meta`: the page, its size, the scale (a string, as TexturePacker writes it; Pixi reads it as the resolution).
    static func meta(image: String, size: (width: Int, height: Int), scale: String, premultiplied: Bool) -> JSONObject {
        [
            "app": "keyframe",
            "version": "1.0",
            "image": .string(image),
            "format": "RGBA8888",
            "size": ["w": .number(Double(size.width)), "h": .number(Double(size.height))],
            "scale": .string(scale),
            "premultipliedAlpha": .bool(premultiplied),
        ]
    }

    static func rect(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> JSONValue {
        ["x": .number(Double(x)), "y": .number(Double(y)), "w": .number(Double(w)), "h": .number(Double(h))]
    }

    static func write(_ value: JSONValue, pretty: Bool) -> [UInt8] {
        pretty ? JSONWriter.write(value) : JSONWriter.writeCompact(value) + [0x0A]
    }
}
