import KeyframeFiles
import KeyframeJSON
import KeyframeModel

/// Reads DragonBones texture atlases (`*_tex.json`, `texture.json`: `{imagePath, scale, SubTexture[]}`) and
/// TexturePacker JSON-array atlases (`{frames: [{filename, frame, spriteSourceSize, sourceSize}], meta}`) into
/// atlas images and sprites.
///
/// A trimmed sub-texture (`frameX`, `frameY`, `frameWidth`, `frameHeight`) keeps its stored region; its sprite's
/// `origin` is `(−frameX, −frameY)`, so the picture sits where it would in the untrimmed frame whose top-left corner
/// is the sprite's local origin. `untrimmedSizes` gives that frame's size, which slots need for their pivots.
struct DragonBonesAtlasReader {
    /// The atlases found: images, sprites, and each sprite's untrimmed size (document px).
    struct Result {
        var images: [AtlasImage] = []
        var sprites: [Sprite] = []
        var untrimmedSizes: [String: Size] = [:]
        var files: [String] = []
    }

    func read(_ folder: SourceFolder, files: [String], diagnostics: inout DiagnosticCollector) throws(ImportError)
        -> Result
    {
        var result = Result()
        var seen = Set<String>()
        for file in files {
            let root = try folder.readJSON(file)
            result.files.append(file)
            try root.within(file) { (json) throws(JSONSchemaError) in
                if json.has("SubTexture") {
                    try readDragonBones(json, file: file, folder: folder, seen: &seen, into: &result,
                                        diagnostics: &diagnostics)
                } else {
                    try readTexturePacker(json, file: file, folder: folder, seen: &seen, into: &result,
                                          diagnostics: &diagnostics)
                }
            }
        }
        return result
    }

    /// Adds the atlas image `written` (at `location` in the atlas file; `nil` when the path was derived from the
    /// atlas file's own name), resolved inside the export's folder.
    private func addImage(_ written: String, at location: JSONPath?, declared: Size?, resolution: Double,
                          folder: SourceFolder, file: String, into result: inout Result) throws(JSONSchemaError)
        -> String
    {
        if let existing = result.images.first(where: { $0.id == written }) { return existing.id }
        let path: String
        do { path = try folder.resolve(written) } catch {
            throw JSONSchemaError(path: location ?? .root,
                                  message: "the atlas image " + error.message(folder: "the export's folder"))
        }
        let size = folder.pngSize(path) ?? declared ?? Size(width: 0, height: 0)
        if folder.pngSize(path) != nil { result.files.append(path) }
        result.images.append(AtlasImage(id: written, path: path, pixelSize: size, resolution: resolution))
        return written
    }

    private func readDragonBones(_ json: JSONCursor, file: String, folder: SourceFolder, seen: inout Set<String>,
                                 into result: inout Result, diagnostics: inout DiagnosticCollector)
        throws(JSONSchemaError)
    {
        let written = try json.optionalMember("imagePath")?.string()
        let imagePath = written ?? String(file.dropLast(file.lowercased().hasSuffix(".dbjson") ? ".dbjson".count : ".json".count)) + ".png"
        var scale = try json.optionalMember("scale")?.lenientNumber() ?? 1
        if scale <= 0 { scale = 1 }
        var declared: Size? = nil
        if let width = try json.optionalMember("width")?.lenientNumber(),
            let height = try json.optionalMember("height")?.lenientNumber(), width > 0, height > 0
        {
            declared = Size(width: width, height: height)
        }
        let image = try addImage(imagePath, at: written == nil ? nil : json.path.appending("imagePath"),
                                 declared: declared, resolution: scale, folder: folder, file: file, into: &result)
        for texture in try json.member("SubTexture").array() {
            let name = try texture.name("name")
            let region = Rect(
                x: try texture.member("x").lenientNumber(), y: try texture.member("y").lenientNumber(),
                width: try texture.member("width").lenientNumber(), height: try texture.member("height").lenientNumber())
            guard region.width >= 0, region.height >= 0 else { throw texture.error("negative sub-texture size") }
            var rotated = false
            if let flag = try texture.optionalMember("rotated") {
                if case .bool(let value) = flag.value { rotated = value } else { rotated = try flag.lenientNumber() != 0 }
            }
            var frame: Rect? = nil
            if let width = try texture.optionalMember("frameWidth")?.lenientNumber(),
                let height = try texture.optionalMember("frameHeight")?.lenientNumber(), width > 0, height > 0
            {
                frame = Rect(x: try texture.optionalMember("frameX")?.lenientNumber() ?? 0,
                             y: try texture.optionalMember("frameY")?.lenientNumber() ?? 0, width: width, height: height)
            }
            add(name: name, image: image, region: region, rotated: rotated, frame: frame, scale: scale, file: file,
                path: texture.path.description, seen: &seen, into: &result, diagnostics: &diagnostics)
        }
    }

    private func readTexturePacker(_ json: JSONCursor, file: String, folder: SourceFolder, seen: inout Set<String>,
                                   into result: inout Result, diagnostics: inout DiagnosticCollector)
        throws(JSONSchemaError)
    {
        let meta = try json.member("meta")
        let imagePath = try meta.member("image").string()
        var scale = try meta.optionalMember("scale")?.numberOrNumericText() ?? 1  // TexturePacker writes "1"
        if scale <= 0 { scale = 1 }
        let image = try addImage(imagePath, at: meta.path.appending("image"), declared: nil, resolution: scale,
                                 folder: folder, file: file, into: &result)
        for entry in try json.member("frames").array() {
            var name = try entry.name("filename")
            // TexturePacker loaders name the texture after the file without its extension (StageXL:
            // `getFilenameWithoutExtension`, i.e. everything before the last dot that is not the first character).
            if let dot = name.lastIndex(of: "."), dot > name.startIndex { name = String(name[..<dot]) }
            let rect = try entry.member("frame")
            let rotated = try entry.optionalMember("rotated")?.bool() ?? false
            var width = try rect.member("w").lenientNumber(), height = try rect.member("h").lenientNumber()
            // TexturePacker gives the upright size; the stored rectangle of a rotated frame is turned.
            if rotated { swap(&width, &height) }
            let region = Rect(x: try rect.member("x").lenientNumber(), y: try rect.member("y").lenientNumber(),
                              width: width, height: height)
            var frame: Rect? = nil
            if try entry.optionalMember("trimmed")?.bool() == true, let source = try entry.optionalMember("sourceSize"),
                let placed = try entry.optionalMember("spriteSourceSize")
            {
                frame = Rect(x: -(try placed.member("x").lenientNumber()), y: -(try placed.member("y").lenientNumber()),
                             width: try source.member("w").lenientNumber(), height: try source.member("h").lenientNumber())
            }
            add(name: name, image: image, region: region, rotated: rotated, frame: frame, scale: scale, file: file,
                path: entry.path.description, seen: &seen, into: &result, diagnostics: &diagnostics)
        }
    }

    private func add(name: String, image: String, region: Rect, rotated: Bool, frame: Rect?, scale: Double,
                     file: String, path: String, seen: inout Set<String>, into result: inout Result,
                     diagnostics: inout DiagnosticCollector) {
        guard seen.insert(name).inserted else {
            diagnostics.add(Diagnostic(severity: .warning, code: "duplicate-sprite",
                                       message: "sub-texture \"\(name)\" appears twice; the first is used",
                                       file: file, path: path))
            return
        }
        let upright = rotated ? Size(width: region.height, height: region.width) : Size(width: region.width, height: region.height)
        let origin = frame.map { Vector2(x: -$0.x / scale, y: -$0.y / scale) } ?? .zero
        result.sprites.append(Sprite(
            id: name, name: name, image: image, region: region, rotated: rotated, origin: origin,
            size: Size(width: upright.width / scale, height: upright.height / scale)))
        let untrimmed = frame.map { Size(width: $0.width, height: $0.height) } ?? upright
        result.untrimmedSizes[name] = Size(width: untrimmed.width / scale, height: untrimmed.height / scale)
    }
}
