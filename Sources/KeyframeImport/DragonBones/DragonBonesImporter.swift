import KeyframeJSON
import KeyframeModel

/// Converts a DragonBones export (`*_ske.json` or `skeleton.json` plus its texture atlases) into a normalized
/// document: reads the files (``DragonBonesReader``, ``DragonBonesAtlasReader``), up-converts 2.3/3.0 data
/// (``DragonBonesUpconverter``), then maps armatures and animations onto compositions (``DragonBonesNormalizer``).
enum DragonBonesImporter {
    static func importDocument(folder: SourceFolder, file: String, options: ImportOptions) throws(ImportError)
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
        if !binary, let dot = file.lastIndex(of: "."), case let dbbin = String(file[..<dot]) + ".dbbin",
            folder.fileExists(dbbin)
        {
            diagnostics.add(Diagnostic(severity: .info, code: "dbbin-not-read",
                                       message: "the binary twin \(dbbin) is not read; the JSON data is converted",
                                       file: dbbin))
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
