import Foundation
import KeyframeEngine
import KeyframeModel
import KeyframePNG

/// Exports clips as Core Animation layer trees (docs/core-animation.md): one file per clip, JSON or a property
/// list, with the atlas images it shows copied beside it under `images/`.
///
/// Every tree is checked by ``CALayerTreeValidator`` before it is returned; a tree that fails is an error, never a
/// file. What the tree cannot show (tints, masks, blend modes, meshes, filters) becomes a warning diagnostic.
public struct CoreAnimationExporter: DocumentExporter {
    public var format: ExportFormat { .coreAnimation }

    public init() {}

    public func export(_ document: Document, assetsFolder: URL, options: ExportOptions) throws(ExportError) -> ExportResult {
        let source = document.name
        guard document.frameRate.framesPerSecond > 0, document.frameRate.framesPerSecond.isFinite else {
            throw ExportError(source: source, message: "the document's frame rate must be positive")
        }
        let clips = try select(document, options.clips)
        let sampler = PoseSampler(document: CALayerTreeBuilder.samplingDocument(document))
        let cache = CALayerTreeBuilder.StateCache()
        var diagnostics = DiagnosticCollector()
        var exported: [ExportedClip] = []
        var imageBytes: [String: [UInt8]] = [:]
        var baker = TintBaker(encoding: PNGEncodingOptions(preset: options.pictures))
        var baked: [String: (bytes: [UInt8], width: Int, height: Int)] = [:]
        let spriteByID = Dictionary(document.assets.sprites.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let imageByID = Dictionary(document.assets.images.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for clip in clips {
            var builder = CALayerTreeBuilder(document: document, sampler: sampler, cache: cache)
            let root = builder.build(clip: clip)
            for diagnostic in builder.diagnostics.diagnostics { diagnostics.add(diagnostic) }
            var images: [CALayerTreeDocument.Image] = []
            var companions: [ExportedFile] = []
            for image in document.assets.images where builder.usedImages.contains(image.id) {
                let path = "images/" + Self.fileName(for: image, in: document)
                images.append(CALayerTreeDocument.Image(id: image.id, path: path, pixelWidth: image.pixelSize.width,
                                                        pixelHeight: image.pixelSize.height))
                if imageBytes[image.id] == nil {
                    let url = assetsFolder.appendingPathComponent(image.path)
                    guard let data = FileManager.default.contents(atPath: url.path) else {
                        throw ExportError(source: source, message: "atlas image \"\(image.id)\" cannot be read at \(url.path)")
                    }
                    imageBytes[image.id] = [UInt8](data)
                }
                companions.append(ExportedFile(relativePath: path, bytes: imageBytes[image.id]!))
            }
            for (id, bake) in builder.bakes.sorted(by: { $0.key < $1.key }) {
                guard let sprite = spriteByID[bake.sprite], let atlas = imageByID[sprite.image] else { continue }
                let key = "\(bake.sprite)|\(bake.color)"
                if baked[key] == nil {
                    baked[key] = try baker.bake(sprite, color: bake.color, image: atlas, assetsFolder: assetsFolder, source: source)
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
            let stage = document.stage.map { [$0.x, $0.y, $0.width, $0.height] }
            let tree = CALayerTreeDocument(
                clip: clip.name, frameRate: document.frameRate.framesPerSecond,
                frameCount: Int(clip.duration.value.rounded(.up)),
                duration: clip.duration.value / document.frameRate.framesPerSecond, loopCount: clip.loopCount,
                stage: stage, images: images, root: root)
            let problems = CALayerTreeValidator.problems(in: tree)
            guard problems.isEmpty else {
                throw ExportError(source: source, message: "clip \"\(clip.name)\": the layer tree fails validation: "
                                  + problems.prefix(5).joined(separator: "; "))
            }
            let bytes = try CALayerTreeFile.encode(tree, as: options.coreAnimationFormat,
                                                   pretty: options.prettyJSON)
            let name = Self.safeName(clip.name) + "." + options.coreAnimationFormat.fileExtension
            exported.append(ExportedClip(clip: clip.name, main: ExportedFile(relativePath: name, bytes: bytes),
                                         companions: companions))
        }
        let result = ExportResult(clips: exported, diagnostics: diagnostics.diagnostics)
        if options.strict, let warning = result.diagnostics.first(where: { $0.severity == .warning }) {
            throw ExportError(source: source, message: "--strict: \(warning)")
        }
        return result
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

    /// The image's file name under `images/`: its own name, prefixed by its id when two images share a name.
    static func fileName(for image: AtlasImage, in document: Document) -> String {
        let name = (image.path as NSString).lastPathComponent
        let clashes = document.assets.images.filter { ($0.path as NSString).lastPathComponent == name }.count > 1
        return clashes ? safeName(image.id) + "-" + name : name
    }

    /// A clip or image name usable as one path component on every platform the files go to (the same rule as the
    /// Lottie exporter's file names: `/`, `:`, `\\` and NUL become `_`, so `robot:hop` is `robot_hop`).
    static func safeName(_ name: String) -> String {
        let cleaned = String(name.map { $0 == "/" || $0 == ":" || $0 == "\\" || $0 == "\0" ? "_" : $0 })
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "clip" : cleaned
    }
}
