import Foundation
import KeyframeEngine
import KeyframeFiles
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender

/// Exports clips as Core Animation layer trees (docs/core-animation.md): one file per clip, JSON or a property
/// list, with the atlas images it shows copied beside it under `images/`.
///
/// Every tree is checked by ``CALayerTreeValidator`` before it is returned; a tree that fails is an error, never a
/// file. What the tree cannot show (tints, masks, blend modes, meshes, filters) becomes a warning diagnostic.
public struct CoreAnimationExporter: DocumentExporter {
    public var format: ExportFormat { .coreAnimation }

    public init() {}

    public func export(_ document: Document, assetsFolder: InputFolder, options: ExportOptions) throws(ExportError)
        -> ExportResult
    {
        let source = document.name
        guard document.frameRate.framesPerSecond > 0, document.frameRate.framesPerSecond.isFinite else {
            throw ExportError(source: source, message: "the document's frame rate must be positive")
        }
        let clips = try select(document, options.clips)
        let sampler = PoseSampler(document: CALayerTreeBuilder.samplingDocument(document))
        let cache = CALayerTreeBuilder.StateCache()
        let meshSampler = document.assets.meshes.isEmpty ? nil : PoseSampler(document: document)
        // Filtered nodes are drawn as `render` draws them, from the whole document and the decoded atlases.
        var drawing: (sampler: PoseSampler, library: AtlasLibrary)? = nil
        if LottieClipBuilder.hasFilters(document) {
            do {
                drawing = (PoseSampler(document: document), try AtlasLibrary(document: document, folder: assetsFolder))
            } catch {
                throw ExportError(message: "\(error)")
            }
        }
        // Clips are independent: their layer trees are built, and later validated and encoded, on all cores, and
        // gathered in clip order, so the files and diagnostics are the same for any number of cores. Pictures
        // (atlas copies, baked tints) are read and encoded once, in between, in clip order.
        let builds = ClipWorkers.map(clips.count, jobs: options.jobs) { index -> BuiltClip in
            var builder = CALayerTreeBuilder(document: document, sampler: sampler, cache: cache, meshSampler: meshSampler)
            if let drawing {
                builder.filterPictures = CAFilterPictures(
                    clip: clips[index], frames: max(Int(clips[index].duration.value.rounded(.up)), 1),
                    sampler: drawing.sampler, library: drawing.library)
            }
            let root = builder.build(clip: clips[index])
            let filtered = builder.filterImages.map { id, picture in (id, builder.filterPictures!.pictures[picture]) }
            var diagnostics = builder.diagnostics.diagnostics
            for path in (builder.filterPictures?.oversized ?? []).sorted() {
                diagnostics.append(Diagnostic(
                    severity: .warning, code: "ca-filter",
                    message: "clip \"\(clips[index].name)\": the filtered picture of \(path) would exceed 2²⁶ pixels; "
                        + "it is left out"))
            }
            return BuiltClip(root: root, diagnostics: diagnostics, usedImages: builder.usedImages,
                             bakes: builder.bakes, filterPictures: Dictionary(uniqueKeysWithValues: filtered))
        }
        var encoder = PNGEncoder(options: PNGEncodingOptions(preset: options.pictures))
        var filterBytes: [String: [UInt8]] = [:]
        var diagnostics = DiagnosticCollector()
        var trees: [(tree: CALayerTreeDocument, companions: [ExportedFile])] = []
        var imageBytes: [String: [UInt8]] = [:]
        var baker = TintBaker(encoding: PNGEncodingOptions(preset: options.pictures))
        var baked: [String: (bytes: [UInt8], width: Int, height: Int)] = [:]
        let spriteByID = Dictionary(document.assets.sprites.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let imageByID = Dictionary(document.assets.images.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let imageIndex = Dictionary(document.assets.images.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        for (clip, built) in zip(clips, builds) {
            let root = built.root
            for diagnostic in built.diagnostics { diagnostics.add(diagnostic) }
            var images: [CALayerTreeDocument.Image] = []
            var companions: [ExportedFile] = []
            for image in document.assets.images where built.usedImages.contains(image.id) {
                let path = "images/" + Self.fileName(for: image, in: document)
                images.append(CALayerTreeDocument.Image(id: image.id, path: path, pixelWidth: image.pixelSize.width,
                                                        pixelHeight: image.pixelSize.height))
                if imageBytes[image.id] == nil {
                    imageBytes[image.id] = try Self.readImage(image, index: imageIndex[image.id] ?? 0, in: assetsFolder,
                                                              source: source).bytes
                }
                companions.append(ExportedFile(relativePath: path, bytes: imageBytes[image.id]!))
            }
            for (id, bake) in built.bakes.sorted(by: { $0.key < $1.key }) {
                guard let sprite = spriteByID[bake.sprite], let atlas = imageByID[sprite.image] else { continue }
                let key = "\(bake.sprite)|\(bake.color)"
                if baked[key] == nil {
                    baked[key] = try baker.bake(sprite, color: bake.color, image: atlas, index: imageIndex[atlas.id] ?? 0,
                                                assetsFolder: assetsFolder, source: source)
                }
                let picture = baked[key]!
                let path = "images/" + Self.safeName(id) + ".png"
                var image = CALayerTreeDocument.Image(id: id, path: path, pixelWidth: Double(picture.width),
                                                      pixelHeight: Double(picture.height))
                image.sprite = sprite.id
                let c = bake.color
                image.colorTransform = [c.redMultiplier, c.greenMultiplier, c.blueMultiplier, c.alphaMultiplier,
                                        c.redOffset, c.greenOffset, c.blueOffset, c.alphaOffset]
                images.append(image)
                companions.append(ExportedFile(relativePath: path, bytes: picture.bytes))
            }
            for (id, picture) in built.filterPictures.sorted(by: { $0.key < $1.key }) {
                // The id names the pixels (``CAFilterPictures/imageID(_:node:)``): encoded once per export.
                if filterBytes[id] == nil {
                    do { filterBytes[id] = try encoder.encode(picture) } catch {
                        throw ExportError(source: source, message: "the filtered picture \(id) cannot be encoded: "
                                          + error.message)
                    }
                }
                let path = "images/" + Self.safeName(id) + ".png"
                images.append(CALayerTreeDocument.Image(id: id, path: path, pixelWidth: Double(picture.width),
                                                        pixelHeight: Double(picture.height)))
                companions.append(ExportedFile(relativePath: path, bytes: filterBytes[id]!))
            }
            let stage = document.stage.map { [$0.x, $0.y, $0.width, $0.height] }
            let tree = CALayerTreeDocument(
                clip: clip.name, frameRate: document.frameRate.framesPerSecond,
                frameCount: Int(clip.duration.value.rounded(.up)),
                duration: clip.duration.value / document.frameRate.framesPerSecond, loopCount: clip.loopCount,
                stage: stage, images: images, root: root)
            trees.append((tree, companions))
        }
        let encoded = ClipWorkers.map(trees.count, jobs: options.jobs) { index -> Result<[UInt8], ExportError> in
            let tree = trees[index].tree
            let problems = CALayerTreeValidator.problems(in: tree)
            guard problems.isEmpty else {
                return .failure(ExportError(source: source, message: "clip \"\(tree.clip)\": the layer tree fails "
                                            + "validation: " + problems.prefix(5).joined(separator: "; ")))
            }
            return Result { () throws(ExportError) in
                try CALayerTreeFile.encode(tree, as: options.coreAnimationFormat, pretty: options.prettyJSON)
            }
        }
        if options.coreAnimationFormat == .plist {
            for (tree, _) in trees {
                let changed = CALayerTreeFile.unrepresentableInPropertyList(tree.json)
                guard let first = changed.first else { continue }
                diagnostics.add(Diagnostic(
                    severity: .warning, code: "ca-plist-character",
                    message: "clip \"\(tree.clip)\": \(changed.count) name(s) hold characters a "
                        + "property list (XML 1.0) cannot hold, written as U+FFFD (first: \"\(first)\"); "
                        + "the JSON format keeps them"))
            }
        }
        var exported: [ExportedClip] = []
        for ((clip, file), bytes) in zip(zip(clips, trees), encoded) {
            let name = Self.safeName(clip.name) + "." + options.coreAnimationFormat.fileExtension
            exported.append(ExportedClip(clip: clip.name, main: ExportedFile(relativePath: name, bytes: try bytes.get()),
                                         companions: file.companions))
        }
        let result = ExportResult(clips: exported, diagnostics: diagnostics.diagnostics)
        if options.strict, let warning = result.diagnostics.first(where: { $0.severity == .warning }) {
            throw ExportError(source: source, message: "--strict: \(warning)")
        }
        return result
    }

    /// One clip's layer tree and what building it found.
    private struct BuiltClip {
        var root: CALayerSpec
        var diagnostics: [Diagnostic]
        var usedImages: Set<String>
        var bakes: [String: CALayerTreeBuilder.TintBake]
        /// The pictures of filtered nodes the tree shows, by image id.
        var filterPictures: [String: Bitmap]
    }

    private func select(_ document: Document, _ names: [String]?) throws(ExportError) -> [Clip] {
        guard let names else {
            guard !document.clips.isEmpty else { throw ExportError(source: document.name, message: "the document has no clips") }
            return document.clips
        }
        var clips: [Clip] = []
        for name in names {
            guard let clip = document.clip(named: name) else {
                let known = document.clips.map { "\"\($0.name)\"" }.joined(separator: ", ")
                throw ExportError(source: document.name, message: "no clip named \"\(name)\" (clips: \(known))")
            }
            clips.append(clip)
        }
        return clips
    }

    /// The bytes of atlas image `image` (element `index` of `assets.images`), read from inside `folder`, and the
    /// file as messages name it.
    static func readImage(_ image: AtlasImage, index: Int, in folder: InputFolder, source: String)
        throws(ExportError) -> (bytes: [UInt8], display: String)
    {
        do { return try AtlasLibrary.imageBytes(image, index: index, in: folder) } catch {
            // The error names the image's file, or its field of the document.
            if case .unreadableImage(_, let path, let reason) = error.kind {
                throw ExportError(source: source, message: "atlas image \"\(image.id)\" cannot be read: \(path): "
                                  + reason)
            }
            throw ExportError(message: "\(error)")
        }
    }

    /// The image's file name under `images/`: its own name, prefixed by its id when two images share a name, both
    /// made file names by Keyframe's one naming rule (``FileName/stem(_:)``).
    static func fileName(for image: AtlasImage, in document: Document) -> String {
        let name = (image.path as NSString).lastPathComponent
        let clashes = document.assets.images.filter { ($0.path as NSString).lastPathComponent == name }.count > 1
        return FileName.stem(clashes ? image.id + "-" + name : name)
    }

    /// A clip or picture name as a file name: Keyframe's one naming rule (``FileName/stem(_:)``), the same as the
    /// Lottie exporter's and `render`'s (`robot:hop` is `robot_hop`).
    static func safeName(_ name: String) -> String { FileName.stem(name) }
}
