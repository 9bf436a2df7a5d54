import KeyframeJSON
import KeyframeModel

/// Converts a sprite sheet (JSON hash or array, Starling/Sparrow XML) into a normalized document.
///
/// Rules (`docs/format.md` §6.5):
/// - every frame becomes a sprite named after it, placed as `FlxAtlasFrames.fromSparrow`, Starling's
///   `TextureAtlas` and PixiJS's `Spritesheet` place it: the trimmed picture at its offset inside the untrimmed
///   frame, a rotated region turned back upright;
/// - every animation becomes a composition with one node that shows one frame per frame (held), and a clip of the
///   same name; the first animation is the root; the stage is the largest untrimmed frame;
/// - animations come from ``ImportOptions/sheetAnimations``; the frame rate from
///   ``ImportOptions/sheetFrameRate``, else the sidecar, else 24 (Friday Night Funkin's convention).
struct SpriteSheetImporter {
    /// The frame rate when neither the options nor a sidecar give one.
    static let defaultFrameRate = 24.0

    private let folder: SourceFolder
    private let file: String
    private let options: ImportOptions
    private var collector = DiagnosticCollector()

    /// Reads and converts the sheet `file` of `folder`.
    static func importDocument(folder: SourceFolder, file: String, options: ImportOptions) throws(ImportError)
        -> Document
    {
        var importer = SpriteSheetImporter(folder: folder, file: file, options: options)
        return try importer.run()
    }

    private init(folder: SourceFolder, file: String, options: ImportOptions) {
        self.folder = folder
        self.file = file
        self.options = options
    }

    private mutating func run() throws(ImportError) -> Document {
        let sheet: SpriteSheet
        if file.lowercased().hasSuffix(".xml") {
            sheet = try SpriteSheetXMLReader(file: file).read(try folder.read(file))
        } else {
            let root = try folder.readJSON(file)
            sheet = try root.within(file) { (cursor) throws(JSONSchemaError) in try SpriteSheetJSONReader.read(cursor) }
        }
        for note in sheet.notes {
            collector.add(Diagnostic(severity: .warning, code: note.code, message: note.message, file: file,
                                     path: note.location.description))
        }
        guard !sheet.frames.isEmpty else {
            throw ImportError(.invalidFile(file: file, reason: "the sprite sheet has no frames"))
        }
        let image = try atlasImage(sheet)
        var sprites: [Sprite] = []
        var known = Set<String>()
        for frame in sheet.frames {
            if known.contains(frame.name) {
                collector.add(Diagnostic(severity: .warning, code: "duplicate-frame",
                                         message: "frame \"\(frame.name)\" is defined twice; the first is used",
                                         file: file, path: frame.location.description))
                continue
            }
            known.insert(frame.name)
            sprites.append(try sprite(frame, image: image))
        }
        let sidecar = SpriteSheetSidecar.find(in: folder, sheet: file, image: image.path)
        let frameRate = try self.frameRate(sidecar)
        let groups = SpriteSheetGrouping(names: sprites.map(\.name), declared: declared(sheet, sidecar),
                                         rule: options.sheetAnimations, stem: stem)
        for note in groups.notes {
            collector.add(Diagnostic(severity: .warning, code: "animation-frame-missing", message: note,
                                     file: sidecar?.file ?? file))
        }
        var compositions: [Composition] = []
        var clips: [Clip] = []
        for group in groups.animations where group.frames.count > AnimateReader.maximumTimelineFrames {
            throw ImportError(.limitExceeded(
                file: file, path: group.name,
                message: "animation \"\(group.name)\" has \(group.frames.count) frames; timelines are limited to \(AnimateReader.maximumTimelineFrames) frames"))
        }
        for group in groups.animations {
            var content = Track<NodeContent>()
            for (index, name) in group.frames.enumerated() {
                content.append(Keyframe(frame: Frames(Double(index)), value: .sprite(name)))
            }
            var tracks = NodeTracks()
            tracks.content = content
            let duration = Frames(Double(group.frames.count))
            compositions.append(Composition(id: group.name, name: group.name, duration: duration,
                                            nodes: [Node(id: "frame", name: "frame", kind: .instance, tracks: tracks)]))
            clips.append(Clip(name: group.name, composition: group.name, start: .zero, duration: duration,
                              loopCount: group.loops ? 0 : 1))
        }
        if let sidecar { collector.add(Diagnostic(severity: .info, code: "sidecar-read",
                                                   message: "animations and frame rate from \(sidecar.file)", file: sidecar.file)) }
        let width = sheet.frames.map(\.sourceSize.width).max() ?? 0
        let height = sheet.frames.map(\.sourceSize.height).max() ?? 0
        // The files the document comes from (others were only looked into while detecting).
        var files = folder.filesRead.filter { $0 == file || $0 == image.path }
        if let sidecar { files.insert(sidecar.file) }
        return Document(
            name: stem, frameRate: FrameRate(frameRate),
            stage: Rect(x: 0, y: 0, width: width / sheet.scale, height: height / sheet.scale),
            source: Provenance(format: .spriteSheet, tool: sheet.app, toolVersion: sheet.appVersion,
                               variant: sheet.layout.rawValue, files: files.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }),
            assets: Assets(images: [image], sprites: sprites), compositions: compositions,
            root: compositions[0].id, clips: clips, diagnostics: collector.diagnostics)
    }

    /// The sheet's file name without folder and extension.
    private var stem: String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        if let dot = base.lastIndex(of: "."), dot > base.startIndex { return String(base[..<dot]) }
        return base
    }

    /// The option's frame rate, else the sidecar's, else 24.
    private mutating func frameRate(_ sidecar: SpriteSheetSidecar?) throws(ImportError) -> Double {
        let rate = options.sheetFrameRate ?? sidecar?.frameRate ?? SpriteSheetImporter.defaultFrameRate
        guard rate.isFinite, rate > 0, rate <= 1000 else {
            throw ImportError(.invalidFile(file: sidecar?.file ?? file,
                                           reason: "frame rate \(JSONWriter.format(rate)) is out of range (0 < fps ≤ 1000)"))
        }
        if options.sheetFrameRate == nil, let sidecar, sidecar.otherRates.contains(where: { $0 != rate }) {
            let others = sidecar.otherRates.map(JSONWriter.format).joined(separator: ", ")
            collector.add(Diagnostic(
                severity: .warning, code: "animation-fps-differs",
                message: "animations ask for \(others) fps; every clip plays at the first one's \(JSONWriter.format(rate)) fps, so their durations are off by that ratio",
                file: sidecar.file))
        }
        return rate
    }

    /// The declared animations: the sidecar's (prefix rules), else the file's own (frame lists).
    private func declared(_ sheet: SpriteSheet, _ sidecar: SpriteSheetSidecar?) -> [SpriteSheetGrouping.Declared] {
        if let sidecar, !sidecar.animations.isEmpty { return sidecar.animations }
        return sheet.animations.map { .init(name: $0.name, selection: .frames($0.frames), loops: true) }
    }

    /// The atlas image: the one the file names, else (renamed since) the PNG named after the data file.
    private mutating func atlasImage(_ sheet: SpriteSheet) throws(ImportError) -> AtlasImage {
        let fallback = stem + ".png"
        var chosen = sheet.image ?? fallback
        var path: String
        do { path = try folder.resolve(chosen) } catch {
            throw sheet.imageLocation.error(file: file, "the atlas image " + error.message(folder: "the sheet's folder"))
        }
        if !folder.fileExists(path), chosen != fallback, folder.fileExists(fallback) {
            collector.add(Diagnostic(
                severity: .warning, code: "atlas-image-renamed",
                message: "\(chosen) not found; \(fallback), named after the sheet, is read instead",
                file: file, path: sheet.imageLocation.description))
            chosen = fallback
            path = fallback
        }
        var size = folder.pngSize(path)
        if size == nil, options.allowMissingImages, !folder.fileExists(path) {
            let extent = sheet.imageSize ?? Size(
                width: sheet.frames.map { $0.region.x + $0.region.width }.max() ?? 0,
                height: sheet.frames.map { $0.region.y + $0.region.height }.max() ?? 0)
            if extent.width > 0 && extent.height > 0 {
                collector.add(Diagnostic(
                    severity: .warning, code: "atlas-image-missing",
                    message: "\(chosen) not found; its size is taken as \(JSONWriter.format(extent.width))×\(JSONWriter.format(extent.height)) (rendering needs the image)",
                    file: file, path: sheet.imageLocation.description))
                size = extent
            }
        }
        guard let pixelSize = size else {
            let reason = folder.fileExists(path) ? "atlas image is not a PNG" : "atlas image not found"
            throw ImportError(.missingFile(path: path, reason: "\(reason) (named by \(file) at \(sheet.imageLocation))"))
        }
        return AtlasImage(id: chosen, path: path, pixelSize: pixelSize, resolution: sheet.scale)
    }

    /// The sprite of one frame; its region must lie inside the image.
    private func sprite(_ frame: SpriteSheetFrame, image: AtlasImage) throws(ImportError) -> Sprite {
        let r = frame.region
        let size = image.pixelSize
        if r.x < 0 || r.y < 0 || r.x + r.width > size.width + 1e-9 || r.y + r.height > size.height + 1e-9 {
            throw frame.location.error(
                file: file,
                "frame \"\(frame.name)\" (\(JSONWriter.format(r.x)),\(JSONWriter.format(r.y)) \(JSONWriter.format(r.width))×\(JSONWriter.format(r.height))) lies outside \(image.id) (\(JSONWriter.format(size.width))×\(JSONWriter.format(size.height)))")
        }
        let scale = image.resolution
        let upright = frame.rotated ? Size(width: r.height, height: r.width) : Size(width: r.width, height: r.height)
        return Sprite(id: frame.name, name: frame.name, image: image.id, region: r, rotated: frame.rotated,
                      origin: Vector2(x: frame.offset.x / scale, y: frame.offset.y / scale),
                      size: Size(width: upright.width / scale, height: upright.height / scale))
    }
}
