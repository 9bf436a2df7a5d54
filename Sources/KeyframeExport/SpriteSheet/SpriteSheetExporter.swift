import KeyframeFiles
import KeyframeModel
import KeyframeRender

/// Exports the chosen clips as one packed sprite sheet: PNG pages and the data file of a game engine's format.
///
/// Every frame of every chosen clip is rendered as `keyframe render` renders it (same framing, same pixels), trimmed
/// to its visible pixels, stored once however many frames show the same picture, and packed with
/// ``MaxRectsPacker`` into as few and as small pages as it finds. See docs/spritesheet.md.
///
/// ```swift
/// var options = ExportOptions(clips: ["idle", "walk"])
/// options.spriteSheet.format = .jsonHash
/// let result = try SpriteSheetExporter().export(document, assetsFolder: folder, options: options)
/// ```
public struct SpriteSheetExporter: DocumentExporter {
    public var format: ExportFormat { .spriteSheet }

    public init() {}

    /// The result has one entry, named after the clips it holds: its main file is the data file (of the first page
    /// for formats with one file per page), its companions the pages, the other pages' data files and the other
    /// scales' sheets (``SpriteSheetSettings/scales``).
    public func export(_ document: Document, assetsFolder: InputFolder, options: ExportOptions) throws(ExportError)
        -> ExportResult
    {
        let settings = options.spriteSheet
        try SpriteSheetExporter.check(settings)
        let clips = try LottieExporter.chosenClips(document, options: options)
        let scene: RenderScene
        do { scene = try RenderScene(document: document, assetsFolder: assetsFolder) } catch {
            throw ExportError(source: document.name, message: "\(error)")
        }
        var files: [ExportedFile] = []
        var diagnostics: [Diagnostic] = []
        for scale in settings.scales {
            let sheet = try self.sheet(clips, scene: scene, scale: scale, options: options)
            files += sheet.files
            diagnostics += sheet.diagnostics
        }
        let name = clips.map(\.name).joined(separator: ", ")
        return ExportResult(clips: [ExportedClip(clip: name, main: files[0], companions: Array(files.dropFirst()))],
                            diagnostics: diagnostics)
    }

    /// The files of the sheet at `scale` (data files first, then pages), named `<name>` at scale 1 and
    /// `<name>@<scale>x` otherwise, and its diagnostics.
    func sheet(_ clips: [Clip], scene: RenderScene, scale: Double, options: ExportOptions) throws(ExportError)
        -> (files: [ExportedFile], diagnostics: [Diagnostic])
    {
        let settings = options.spriteSheet
        let document = scene.document
        let frames: SheetFrames
        do {
            frames = try SheetFrames.render(clips, scene: scene, scale: scale, premultiplied: settings.premultipliedAlpha,
                                            jobs: options.jobs)
        } catch {
            throw ExportError(source: document.name, message: "\(error)")
        }
        let layout = try SheetLayout.pack(frames.pictures, settings: settings)
        let entries = SheetEntry.entries(frames, layout: layout)
        let pages = try layout.encodedPages(preset: options.pictures)
        let several = pages.count > 1
        let stem = FileName.stem(settings.name) + (scale == 1 ? "" : "@\(SpriteSheetSettings.text(scale))x")
        let images = pages.indices.map { several ? "\(stem)-\($0).png" : "\(stem).png" }
        var files: [ExportedFile] = []
        let sizes = layout.pages.map { (width: $0.width, height: $0.height) }
        let scaleText = SpriteSheetSettings.text(scale)
        switch settings.format {
        case .phaser3:
            files.append(ExportedFile(relativePath: "\(stem).json", bytes: TexturePackerJSONWriter.multiAtlas(
                images: images, sizes: sizes, entries: entries, scale: scaleText,
                premultiplied: settings.premultipliedAlpha, pretty: options.prettyJSON)))
        case .aseprite:
            guard pages.count == 1 else {
                throw ExportError(source: document.name, message: "an Aseprite sheet has one page, and these frames "
                                  + "need \(pages.count) of at most \(settings.maximumPageSide) pixels; raise --max-size")
            }
            files.append(ExportedFile(relativePath: "\(stem).json", bytes: AsepriteJSONWriter.sheet(
                image: images[0], size: sizes[0], entries: entries, scale: scaleText,
                premultiplied: settings.premultipliedAlpha, pretty: options.prettyJSON)))
        case .godot:
            files.append(ExportedFile(relativePath: "\(stem).tres", bytes: GodotSpriteFramesWriter.resource(
                images: images, entries: entries, fps: document.frameRate.framesPerSecond)))
        case .sparrow, .jsonHash, .jsonArray, .cocos2d:
            let fileExtension = settings.format == .sparrow ? "xml" : settings.format == .cocos2d ? "plist" : "json"
            let names = pages.indices.map { several ? "\(stem)-\($0).\(fileExtension)" : "\(stem).\(fileExtension)" }
            for page in pages.indices {
                let onPage = entries.filter { $0.slot.page == page }
                let bytes = settings.format == .sparrow
                    ? SparrowAtlasWriter.page(image: images[page], entries: onPage)
                    : settings.format == .cocos2d
                    ? CocosPlistWriter.page(image: images[page], size: sizes[page], entries: onPage)
                    : TexturePackerJSONWriter.page(image: images[page], size: sizes[page], entries: onPage,
                                                   hash: settings.format == .jsonHash,
                                                   related: names.enumerated().filter { $0.offset != page }.map(\.element),
                                                   scale: scaleText, premultiplied: settings.premultipliedAlpha,
                                                   pretty: options.prettyJSON)
                files.append(ExportedFile(relativePath: names[page], bytes: bytes))
            }
        }
        files += zip(images, pages).map { ExportedFile(relativePath: $0, bytes: $1) }
        var diagnostics: [Diagnostic] = []
        if frames.pictures.count < frames.frames.count {
            diagnostics.append(Diagnostic(
                severity: .info, code: "sheet-duplicates",
                message: "\(stem): \(frames.frames.count) frames, \(frames.pictures.count) distinct pictures stored on "
                    + "\(pages.count) page(s) (\(layout.heuristic.rawValue) packing)"))
        }
        return (files, diagnostics)
    }

    /// Refuses settings no sheet can be made with.
    static func check(_ settings: SpriteSheetSettings) throws(ExportError) {
        guard (0...256).contains(settings.padding), (0...64).contains(settings.extrude) else {
            throw ExportError(message: "--padding must be 0...256 and --extrude 0...64 pixels")
        }
        guard (1...Framing.maximumSide).contains(settings.maximumPageSide) else {
            throw ExportError(message: "--max-size must be 1...\(Framing.maximumSide) pixels")
        }
        if settings.powerOfTwo && settings.maximumPageSide & (settings.maximumPageSide - 1) != 0 {
            throw ExportError(message: "--pot needs a power-of-two --max-size (\(settings.maximumPageSide) is not)")
        }
        guard !settings.scales.isEmpty, settings.scales.allSatisfy({ $0 > 0 && $0 <= 16 }),
              Set(settings.scales).count == settings.scales.count
        else {
            throw ExportError(message: "sheet scales must be distinct numbers in 0 < s ≤ 16 (got "
                              + settings.scales.map { SpriteSheetSettings.text($0) }.joined(separator: ", ") + ")")
        }
        if settings.rotation && !SpriteSheetSettings.allowsRotation(settings.format) {
            throw ExportError(message: "--rotate: the \(settings.format.rawValue) format cannot store rotated frames; "
                              + "use json-hash, json-array or phaser3")
        }
    }
}
