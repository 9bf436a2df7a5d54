import KeyframeJSON
import KeyframeModel

/// Packs Lottie files into one dotLottie archive (`.lottie`, the dotLottie 1.0 layout that lottie-ios, lottie-android
/// and dotlottie-web read): `manifest.json`, each animation as `animations/<id>.json`, each picture once as
/// `images/<id>.png` (the animations refer to `/images/`), in that order, through ``ZipWriter`` — the same files give
/// the same bytes.
enum DotLottieArchive {
    /// The archive of `files` (each a Lottie JSON file and its pictures), named after the document.
    ///
    /// - Parameters:
    ///   - clips: the clips `files` were exported from, in order (their repeat counts go into the manifest), or
    ///     `nil` for the single file of ``LottieExportSettings/singleFile``.
    static func pack(_ files: [ExportedClip], clips: [Clip]?, document: Document) throws(ExportError) -> ExportedClip {
        var zip = ZipWriter()
        var animations: [JSONValue] = []
        var entries: [(String, [UInt8])] = []
        var images: [String: [UInt8]] = [:]
        var imageOrder: [String] = []
        for (index, file) in files.enumerated() {
            let id = String(file.main.relativePath.dropLast(".json".count))
            // A clip played a set number of times beyond one has no dotLottie equivalent: it loops.
            let loops = clips.map { $0[index].loopCount != 1 } ?? true
            animations.append(.object(["id": .string(id), "speed": 1, "direction": 1, "mode": "normal",
                                       "loop": .bool(loops)]))
            entries.append(("animations/\(file.main.relativePath)", file.main.bytes))
            for picture in file.companions {
                if let known = images[picture.relativePath] {
                    guard known == picture.bytes else {
                        throw ExportError(source: document.name,
                                          message: "two pictures named \(picture.relativePath) differ; cannot pack them")
                    }
                    continue
                }
                images[picture.relativePath] = picture.bytes
                imageOrder.append(picture.relativePath)
            }
        }
        let manifest: JSONValue = .object([
            "version": "1", "generator": "Keyframe", "animations": .array(animations),
            "activeAnimationId": animations.first?["id"] ?? .null,
        ])
        do {
            try zip.add("manifest.json", JSONWriter.writeCompact(manifest))
            for (name, bytes) in entries { try zip.add(name, bytes) }
            // PNG data is compressed already: stored.
            for name in imageOrder { try zip.add(name, images[name]!, deflate: false) }
            let archive = try zip.finish()
            return ExportedClip(clip: document.name,
                                main: ExportedFile(relativePath: LottieExporter.fileName(for: document.name,
                                                                                         pathExtension: "lottie"),
                                                   bytes: archive))
        } catch {
            throw ExportError(source: document.name, message: "dotLottie archive: \(error.message)")
        }
    }
}
