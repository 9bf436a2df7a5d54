import KeyframeJSON
import KeyframeModel

/// Converts a DragonBones export (`*_ske.json` or `skeleton.json` plus its texture atlases) into a normalized
/// document: reads the files (``DragonBonesReader``, ``DragonBonesAtlasReader``), up-converts 2.3/3.0 data
/// (``DragonBonesUpconverter``), then maps armatures and animations onto compositions (``DragonBonesNormalizer``).
enum DragonBonesImporter {
    static func importDocument(folder: SourceFolder, file: String, options: ImportOptions) throws(ImportError)
        -> Document
    {
        guard let twin = twin(of: file, in: folder) else {
            return try importSkeleton(folder: folder, file: file, options: options)
        }
        // A JSON skeleton and a .dbbin of the same name: read the preferred one, compare it with the other.
        let binaryFirst = options.prefer.map { $0 == .binary } ?? file.lowercased().hasSuffix(".dbbin")
        let (read, other) = binaryFirst == file.lowercased().hasSuffix(".dbbin") ? (file, twin) : (twin, file)
        var document = try importSkeleton(folder: folder, file: read, options: options)
        let otherDocument: Document
        do { otherDocument = try importSkeleton(folder: folder, file: other, options: options) } catch {
            document.diagnostics.append(Diagnostic(
                severity: .warning, code: "dbbin-not-read",
                message: "\(read) is read; \(other) beside it cannot be read (\(error)); --prefer chooses between them",
                file: other))
            return document
        }
        if let difference = firstDifference(document, otherDocument) {
            document.diagnostics.append(Diagnostic(
                severity: .warning, code: "dbbin-twin-differs",
                message: "\(read) and \(other) are not the same skeleton: \(difference) (\(read) first); \(read) is read (--prefer \(binaryFirst ? "json" : "binary") reads \(other))",
                file: other))
        } else {
            document.diagnostics.append(Diagnostic(
                severity: .info, code: "dbbin-not-read",
                message: "the twin \(other) holds the same skeleton and is not read; \(read) is converted", file: other))
        }
        return document
    }

    /// The other spelling of `file` beside it: `x.dbbin` for `x.json`/`x.dbjson`, and the other way round.
    static func twin(of file: String, in folder: SourceFolder) -> String? {
        guard let dot = file.lastIndex(of: ".") else { return nil }
        let stem = String(file[..<dot])
        let candidates = file.lowercased().hasSuffix(".dbbin") ? [stem + ".json", stem + ".dbjson"] : [stem + ".dbbin"]
        return candidates.first { folder.fileExists($0) }
    }

    /// What differs first between the documents of two skeletons: clip names, else the first value of the
    /// clips, compositions or assets that differs beyond the binary file's 32-bit floats (relative 10⁻⁴).
    static func firstDifference(_ a: Document, _ b: Document) -> String? {
        let namesA = a.clips.map(\.name), namesB = b.clips.map(\.name)
        if namesA != namesB {
            let quoted = { (names: [String]) in names.map { "\"\($0)\"" }.joined(separator: ", ") }
            return "clips \(quoted(namesA)) against \(quoted(namesB))"
        }
        let parts: [(String, JSONValue, JSONValue)] = [
            ("clips", a.clips.json, b.clips.json), ("compositions", a.compositions.json, b.compositions.json),
            ("assets", a.assets.json, b.assets.json),
        ]
        for (name, x, y) in parts {
            if let difference = firstDifference(x, y, path: name) { return difference }
        }
        return nil
    }

    private static func firstDifference(_ a: JSONValue, _ b: JSONValue, path: String) -> String? {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            return abs(x - y) <= 1e-4 * max(1, abs(x), abs(y)) ? nil
                : "\(path) is \(JSONWriter.format(x)) against \(JSONWriter.format(y))"
        case (.array(let x), .array(let y)):
            for (index, (u, v)) in zip(x, y).enumerated() {
                if let difference = firstDifference(u, v, path: "\(path)[\(index)]") { return difference }
            }
            return x.count == y.count ? nil : "\(path) has \(x.count) entries against \(y.count)"
        case (.object(let x), .object(let y)):
            if x.keys != y.keys { return "\(path) has keys \(x.keys) against \(y.keys)" }
            for (key, u) in x {
                if let v = y[key], let difference = firstDifference(u, v, path: "\(path).\(key)") { return difference }
            }
            return nil
        default:
            return a == b ? nil : "\(path) is \(JSONWriter.writeCompact(a).count < 80 ? String(decoding: JSONWriter.writeCompact(a), as: UTF8.self) : "one value") against \(JSONWriter.writeCompact(b).count < 80 ? String(decoding: JSONWriter.writeCompact(b), as: UTF8.self) : "another")"
        }
    }

    /// Reads and converts one skeleton file.
    private static func importSkeleton(folder: SourceFolder, file: String, options: ImportOptions) throws(ImportError)
        -> Document
    {
        var diagnostics = DiagnosticCollector()
        let binary = file.hasSuffix(".dbbin")
        var arrays = DragonBonesBinaryReader.Arrays()
        let root: JSONCursor
        if binary {
            (root, arrays) = try DragonBonesBinaryReader.split(try folder.read(file), file: file,
                                                                lenientReads: folder.lenientReads(of: file))
        } else {
            root = try folder.readJSON(file)
        }
        guard let version = DragonBonesReader.version(of: root) else {
            throw ImportError(.schema(file: file, root.error("missing \"version\": not DragonBones skeleton data")))
        }
        guard DragonBonesReader.directVersions.contains(version) || DragonBonesUpconverter.versions.contains(version)
        else {
            throw ImportError(.schema(file: file, root.error(
                "DragonBones data version \"\(version)\" is not supported (supported: 2.3, 3.0, 4.0, 4.5, 5.0, 5.5, 5.6)")))
        }
        let files = DragonBonesFileSet.resolve(skeleton: file, in: folder, dataName: try? root.optionalName("name"))
        if let chosen = files.diagnostic { diagnostics.add(chosen) }
        let atlasFiles = files.atlases
        guard !atlasFiles.isEmpty else {
            let base = DragonBonesFileSet.baseName(of: file)
            throw ImportError(.missingFile(
                path: file,
                reason: "no texture atlas next to it (a JSON file with a SubTexture list, such as \(base)_tex.json)"))
        }
        let atlas = try DragonBonesAtlasReader().read(folder, files: atlasFiles, diagnostics: &diagnostics)
        var data: DragonBonesWire.Data
        if binary {
            let reader = DragonBonesBinaryReader(arrays: arrays)
            data = try root.within(file) { (json) throws(JSONSchemaError) in
                try reader.read(json, version: version, diagnostics: &diagnostics, file: file)
            }
        } else if DragonBonesReader.directVersions.contains(version) {
            data = try root.within(file) { (json) throws(JSONSchemaError) in try DragonBonesReader().read(json, version: version) }
        } else {
            // 2.x displays are re-centred on their textures, so the atlas is read first.
            var sizes: [String: Size] = [:]
            for sprite in atlas.sprites { sizes[sprite.id] = Size(width: sprite.region.width, height: sprite.region.height) }
            let converter = DragonBonesUpconverter(textureSizes: sizes)
            data = try root.within(file) { (json) throws(JSONSchemaError) in
                try converter.read(json, version: version, diagnostics: &diagnostics, file: file)
            }
        }
        for image in atlas.images where !folder.fileExists(image.path) {
            if options.allowMissingImages && image.pixelSize.width > 0 && image.pixelSize.height > 0 {
                diagnostics.add(Diagnostic(
                    severity: .warning, code: "atlas-image-missing",
                    message: "\(image.path) not found; its size is taken from \(atlasFiles[0]) (rendering needs the image)",
                    file: atlasFiles[0]))
                continue
            }
            throw ImportError(.missingFile(path: image.path,
                                           reason: "texture atlas image named by \(atlasFiles[0]) not found"))
        }
        DragonBonesTexturePairing(textures: Set(atlas.sprites.map(\.id)))
            .apply(to: &data, file: file, diagnostics: &diagnostics)
        var normalizer = DragonBonesNormalizer(data: data, atlas: atlas, file: file, diagnostics: diagnostics)
        var document = try normalizer.run()
        // The files the document comes from (other JSON files were read only to recognise them).
        let used = Set([file] + atlasFiles + atlas.images.map(\.path))
        document.source.files = folder.filesRead.filter(used.contains)
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        return document
    }
}
