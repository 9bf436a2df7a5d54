import Foundation
import KeyframeFiles
import KeyframeJSON
import KeyframeModel

/// The formats ``Importer`` recognises.
public enum DetectedFormat: String, Sendable, Equatable {
    case animateAtlas
    case dragonBones
    case flump
    case spriteSheet
    case keyframe
}

/// Options that change what an import produces.
public struct ImportOptions: Sendable {
    /// Keep only the clip with this name (an error names the available clips when it is missing).
    public var clip: String?
    /// Treat any diagnostic as an error.
    public var strict: Bool
    /// For exports with several resolutions (Flump texture groups): the scale factor to use. `nil` picks the 1×
    /// group, or the nearest one.
    public var scaleFactor: Double?
    /// Convert even when atlas images are missing: their sizes are taken from the atlas JSON (or, where it records
    /// none, from the extent of its sprites) and a warning diagnostic (`atlas-image-missing`) says so. Only
    /// rendering needs the pixels. `false` (the default) makes a missing image an error.
    public var allowMissingImages: Bool
    /// Sprite sheets: frames per second (sheets record none). `nil`: the sidecar's (an FNF character JSON), else 24.
    public var sheetFrameRate: Double?
    /// Sprite sheets: how frames are grouped into animations.
    public var sheetAnimations: SpriteSheetAnimations
    /// DragonBones: which skeleton to read when a JSON skeleton and a `.dbbin` of the same name sit side by side
    /// (`nil` reads the one named, the JSON for a folder).
    public var prefer: DragonBonesPreference?

    public init(clip: String? = nil, strict: Bool = false, scaleFactor: Double? = nil, allowMissingImages: Bool = false,
                sheetFrameRate: Double? = nil, sheetAnimations: SpriteSheetAnimations = .names,
                prefer: DragonBonesPreference? = nil) {
        self.clip = clip
        self.strict = strict
        self.scaleFactor = scaleFactor
        self.allowMissingImages = allowMissingImages
        self.sheetFrameRate = sheetFrameRate
        self.sheetAnimations = sheetAnimations
        self.prefer = prefer
    }
}

/// Reads any supported export — a folder, its main JSON file, or a normalized Keyframe JSON — into a `Document`.
///
/// ```swift
/// let document = try Importer.importDocument(at: URL(fileURLWithPath: "Samples/walker"))
/// let json = document.jsonBytes()
/// ```
public enum Importer {
    /// Works out which format `url` holds and where its main file is.
    public static func detect(_ url: URL) throws(ImportError) -> (format: DetectedFormat, folder: URL, file: String) {
        try detect(url, preloaded: [:])
    }

    /// ``detect(_:)``, taking files from `preloaded` (standardized absolute path → bytes) instead of reading them;
    /// the JSON it parses to tell the format goes into `parsed`, for the import to use.
    static func detect(_ url: URL, preloaded: [String: [UInt8]],
                       parsed: SourceFolder.ParsedJSON = SourceFolder.ParsedJSON()) throws(ImportError)
        -> (format: DetectedFormat, folder: URL, file: String)
    {
        guard let place = exportFolder(of: url) else {
            throw ImportError(.unrecognizedInput(path: url.relativePath, reason: "no such file or folder"))
        }
        let folder = place.folder
        if let file = place.file {
            let name = try detectFile(file, in: SourceFolder(url: folder, preloaded: preloaded, mainFile: file,
                                                             parsed: parsed),
                                      path: url.relativePath)
            return (name, folder, file)
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        let name = try detectMain(in: SourceFolder(url: folder, preloaded: preloaded, parsed: parsed), names: names,
                                  path: url.relativePath)
        return (name.format, folder, name.file)
    }

    /// The folder of the export at `url` and, when `url` names a file, that file: a folder is the export's folder
    /// (for a BetterTextureAtlas `LIBRARY/` split, the folder above it), a file's folder is the export's folder.
    /// Reads no file, so it also answers for an export that cannot be converted. `nil` when nothing is at `url`.
    public static func exportFolder(of url: URL) -> (folder: URL, file: String?)? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue {
            let folder = url.standardizedFileURL
            // A path into a BetterTextureAtlas LIBRARY/ split: the export is the folder above it.
            if folder.lastPathComponent == "LIBRARY",
                FileManager.default.fileExists(atPath: folder.deletingLastPathComponent().appendingPathComponent("Animation.json").path)
            {
                return (folder.deletingLastPathComponent(), nil)
            }
            return (folder, nil)
        }
        return (url.standardizedFileURL.deletingLastPathComponent(), url.lastPathComponent)
    }

    /// The format and main file of a folder whose entries are `names` (sorted).
    static func detectMain(in source: SourceFolder, names: [String], path: String) throws(ImportError)
        -> (format: DetectedFormat, file: String)
    {
        if names.contains("Animation.json") { return (.animateAtlas, "Animation.json") }
        if let name = DragonBonesFileSet.conventionalSkeleton(names) { return (.dragonBones, name) }
        if let name = names.first(where: { $0 == "library.json" || $0 == "library.xml" }) {
            return (.flump, name)
        }
        if source.memory == nil, let name = flumpLibrary(in: source, names: names) { return (.flump, name) }
        // DragonBones skeletons under any other name (`man.json`, `Hero.dbjson`), recognised by content, or binary.
        if let name = DragonBonesFileSet.skeleton(in: source, names: names) { return (.dragonBones, name) }
        if let name = spriteSheet(in: source, names: names) { return (.spriteSheet, name) }
        throw ImportError(.unrecognizedInput(
            path: path,
            reason: "no Animation.json (Animate), DragonBones skeleton (a .json or .dbjson file with an armature list, or a .dbbin), Flump library (library.json, library.xml) or sprite sheet (JSON with frames and meta, or a Sparrow <TextureAtlas> XML) in this folder"))
    }

    /// The format of the file `name` in `source`: by its name, else by its JSON's top-level keys.
    static func detectFile(_ name: String, in source: SourceFolder, path: String) throws(ImportError) -> DetectedFormat {
        if name.lowercased().hasSuffix(".xml") {
            return SpriteSheetXMLReader.isSheet(try source.read(name)) ? .spriteSheet : .flump
        }
        if name.hasSuffix(".dbbin") { return .dragonBones }
        if name.hasSuffix("_ske.json") || name == "skeleton.json" { return .dragonBones }
        if name == "library.json" { return .flump }
        if name == "Animation.json" { return .animateAtlas }
        // Any other JSON: look at its top-level keys.
        let root = try source.readJSON(name)
        if root.value["format"]?.stringValue == Document.formatName { return .keyframe }
        if root.has("AN") || root.has("ANIMATION") { return .animateAtlas }
        if root.has("armature") { return .dragonBones }
        if root.has("movies") && (root.has("textureGroups") || root.has("atlases")) { return .flump }
        if SpriteSheetJSONReader.isSheet(root.value) { return .spriteSheet }
        throw ImportError(.unrecognizedInput(
            path: path, reason: "not an Animate, DragonBones, Flump, sprite sheet or Keyframe JSON file"))
    }

    /// Imports an export held in memory: `files` maps each file's path relative to the export folder (`Animation.json`,
    /// `LIBRARY/Symbol.json`, `skeleton_tex.json`, …) to its bytes; `main` names the main file, or `nil` to find it
    /// as in a folder on disk (a Flump library under another name than `library.json`/`library.xml` needs `main`). Errors name files relative to the export, as for a folder. The same readers and normalizers run as for
    /// ``importDocument(at:options:)``; atlas image sizes come from the PNG headers among `files`.
    public static func importDocument(files: [String: [UInt8]], main: String? = nil, name: String = "memory",
                                      options: ImportOptions = ImportOptions()) throws(ImportError) -> Document
    {
        let source = SourceFolder(files: files, name: name)
        let path = source.url.path
        let format: DetectedFormat
        let file: String
        if let main {
            guard files[main] != nil else {
                throw ImportError(.missingFile(path: main, reason: "file not found"))
            }
            (format, file) = (try detectFile(main, in: source, path: main), main)
        } else {
            (format, file) = try detectMain(in: source, names: source.listFiles(), path: path)
        }
        return try importDocument(from: source, format: format, file: file, path: path, options: options)
    }

    /// Imports the export at `url` into a normalized document.
    ///
    /// - Throws: ``ImportError`` naming the file and, where it applies, line and column or JSON path.
    public static func importDocument(at url: URL, options: ImportOptions = ImportOptions()) throws(ImportError)
        -> Document
    {
        try importDocument(at: url, preloaded: [:], options: options)
    }

    /// Imports the export at `url` like ``importDocument(at:options:)``, taking the files the caller has already
    /// read from `preloaded` (standardized absolute path → bytes) instead of reading them again; files not in it are
    /// read from disk. Errors name the files on disk exactly as without `preloaded`.
    ///
    /// A batch reads each input file once, hashes those bytes for its manifest and hands them in here.
    public static func importDocument(at url: URL, preloaded: [String: [UInt8]], options: ImportOptions = ImportOptions())
        throws(ImportError) -> Document
    {
        let parsed = SourceFolder.ParsedJSON()
        let (format, folderURL, file) = try detect(url, preloaded: preloaded, parsed: parsed)
        return try importDocument(from: SourceFolder(url: folderURL, preloaded: preloaded, mainFile: file, parsed: parsed),
                                  format: format, file: file, path: url.relativePath, options: options)
    }

    /// Checks that every image a normalized document names stays inside the folder it is resolved in, whichever
    /// folder that is (the document's, or `--assets`): no `..` above it, no empty path, no NUL. Links can only be
    /// checked against the folder the images are opened from, when they are opened.
    static func checkImagePaths(of document: Document, file: String) throws(ImportError) {
        for (index, image) in document.assets.images.enumerated() {
            do { _ = try InputFolder.clean(image.path) } catch {
                let path = JSONPath.root.appending("assets").appending("images").appending(index).appending("path")
                throw ImportError(.schema(file: file, JSONSchemaError(
                    path: path, message: "the atlas image " + error.message(folder: "the document's assets folder"))))
            }
        }
    }

    /// Reads `file` of `folder` as `format`, then applies the clip, strict and validation options.
    static func importDocument(from folder: SourceFolder, format: DetectedFormat, file: String, path: String,
                               options: ImportOptions) throws(ImportError) -> Document
    {
        var document: Document
        switch format {
        case .animateAtlas:
            var importer = AnimateImporter(folder: folder, animationFile: file)
            importer.allowMissingImages = options.allowMissingImages
            document = try importer.run()
        case .keyframe:
            do { document = try Document(jsonBytes: try folder.read(file)) } catch let error as ModelError {
                throw ImportError(.model(file: file, error))
            } catch let error as ImportError {
                throw error
            } catch {
                throw ImportError(.unrecognizedInput(path: path, reason: "\(error)"))
            }
            try checkImagePaths(of: document, file: file)
        case .dragonBones:
            document = try DragonBonesImporter.importDocument(folder: folder, file: file, options: options)
        case .flump:
            document = try FlumpImporter.importDocument(folder: folder, file: file, options: options)
        case .spriteSheet:
            document = try SpriteSheetImporter.importDocument(folder: folder, file: file, options: options)
        }
        // What was read leniently is said, whichever importer read it (and --strict fails on it below).
        document.diagnostics += folder.lenientReadDiagnostics()
        if let clip = options.clip {
            guard document.clip(named: clip) != nil else {
                let names = document.clips.map { "\"\($0.name)\"" }.joined(separator: ", ")
                throw ImportError(.unrecognizedInput(
                    path: path, reason: "no clip named \"\(clip)\" (clips: \(names.isEmpty ? "none" : names))"))
            }
            document.clips = document.clips.filter { $0.name == clip }
        }
        if options.strict {
            let warnings = document.diagnostics.filter { $0.severity == .warning }
            if !warnings.isEmpty { throw ImportError(.strictDiagnostics(warnings)) }
        }
        do { try document.validate() } catch { throw ImportError(.model(file: file, error)) }
        return document
    }
}
