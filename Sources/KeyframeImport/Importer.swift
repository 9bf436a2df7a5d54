import Foundation
import KeyframeJSON
import KeyframeModel

/// The formats ``Importer`` recognises.
public enum DetectedFormat: String, Sendable, Equatable {
    case animateAtlas
    case dragonBones
    case flump
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

    public init(clip: String? = nil, strict: Bool = false, scaleFactor: Double? = nil, allowMissingImages: Bool = false) {
        self.clip = clip
        self.strict = strict
        self.scaleFactor = scaleFactor
        self.allowMissingImages = allowMissingImages
    }
}

/// Reads any supported export — a folder, its main JSON file, or a normalized Keyframe JSON — into a ``Document``.
///
/// ```swift
/// let document = try Importer.importDocument(at: URL(fileURLWithPath: "Samples/walker"))
/// let json = document.jsonBytes()
/// ```
public enum Importer {
    /// Works out which format `url` holds and where its main file is.
    public static func detect(_ url: URL) throws(ImportError) -> (format: DetectedFormat, folder: URL, file: String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ImportError(.missingFile(path: url.path, reason: "no such file or folder"))
        }
        if isDirectory.boolValue {
            var folder = url.standardizedFileURL
            // A path into a BetterTextureAtlas LIBRARY/ split: the export is the folder above it.
            if folder.lastPathComponent == "LIBRARY",
                FileManager.default.fileExists(atPath: folder.deletingLastPathComponent().appendingPathComponent("Animation.json").path)
            {
                folder = folder.deletingLastPathComponent()
            }
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
            if names.contains("Animation.json") { return (.animateAtlas, folder, "Animation.json") }
            if let name = names.first(where: { $0.hasSuffix("_ske.json") || $0 == "skeleton.json" }) {
                return (.dragonBones, folder, name)
            }
            if let name = names.first(where: { $0 == "library.json" || $0 == "library.xml" }) {
                return (.flump, folder, name)
            }
            if let name = flumpLibrary(in: folder, names: names) { return (.flump, folder, name) }
            // DragonBones skeletons saved under another name (`man.json`, `Ubbie.json`): the JSON with `armature`.
            if let name = DragonBonesImporter.skeletonFile(in: SourceFolder(url: folder), names: names) {
                return (.dragonBones, folder, name)
            }
            throw ImportError(.unrecognizedInput(
                path: url.path,
                reason: "no Animation.json (Animate), *_ske.json (DragonBones) or library.json (Flump) in this folder"))
        }
        let folder = url.standardizedFileURL.deletingLastPathComponent()
        let name = url.lastPathComponent
        if name.hasSuffix(".xml") { return (.flump, folder, name) }
        if name.hasSuffix(".dbbin") { return (.dragonBones, folder, name) }
        if name.hasSuffix("_ske.json") || name == "skeleton.json" { return (.dragonBones, folder, name) }
        if name == "library.json" { return (.flump, folder, name) }
        if name == "Animation.json" { return (.animateAtlas, folder, name) }
        // Any other JSON: look at its top-level keys.
        let source = SourceFolder(url: folder)
        let root = try source.readJSON(name)
        if root.value["format"]?.stringValue == Document.formatName { return (.keyframe, folder, name) }
        if root.has("AN") || root.has("ANIMATION") { return (.animateAtlas, folder, name) }
        if root.has("armature") { return (.dragonBones, folder, name) }
        if root.has("movies") && (root.has("textureGroups") || root.has("atlases")) { return (.flump, folder, name) }
        throw ImportError(.unrecognizedInput(
            path: url.path, reason: "not an Animate, DragonBones, Flump or Keyframe JSON file"))
    }

    /// Imports the export at `url` into a normalized document.
    ///
    /// - Throws: ``ImportError`` naming the file and, where it applies, line and column or JSON path.
    public static func importDocument(at url: URL, options: ImportOptions = ImportOptions()) throws(ImportError)
        -> Document
    {
        let (format, folderURL, file) = try detect(url)
        let folder = SourceFolder(url: folderURL)
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
                throw ImportError(.unrecognizedInput(path: url.path, reason: "\(error)"))
            }
        case .dragonBones:
            document = try DragonBonesImporter.importDocument(folder: folder, file: file, options: options)
        case .flump:
            document = try FlumpImporter.importDocument(folder: folder, file: file, options: options)
        }
        if let clip = options.clip {
            guard document.clip(named: clip) != nil else {
                let names = document.clips.map { "\"\($0.name)\"" }.joined(separator: ", ")
                throw ImportError(.unrecognizedInput(
                    path: url.path, reason: "no clip named \"\(clip)\" (clips: \(names.isEmpty ? "none" : names))"))
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
