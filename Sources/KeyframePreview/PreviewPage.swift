import Foundation
import KeyframeJSON

/// Builds the self-contained preview page: the frames (each distinct picture once, as `data:` URLs or as files
/// beside the page), the player, the curves and the script graph, with no network access (a Content Security
/// Policy forbids any).
///
/// ```swift
/// let html = PreviewPage(title: "walker", clips: clips, images: store).html()
/// ```
public struct PreviewPage: Sendable {
    /// Above this size the CLI warns that the page may be slow to open and suggests `--frames-folder` (64 MiB).
    public static let sizeWarningThreshold = 64 * 1024 * 1024

    /// The page title.
    public var title: String
    /// The clips, in selector order.
    public var clips: [PreviewClip]
    /// The pictures the clips' frames refer to.
    public var images: PreviewImageStore

    public init(title: String, clips: [PreviewClip], images: PreviewImageStore) {
        self.title = title
        self.clips = clips
        self.images = images
    }

    /// The page's data as JSON: images (a `data:` URL or a relative file path each) and clips.
    public var data: JSONValue {
        var imageList: [JSONValue] = []
        for (bytes, reference) in zip(images.images, images.references) {
            if let reference {
                imageList.append(.string(reference))
            } else {
                imageList.append(.string("data:image/png;base64," + Data(bytes).base64EncodedString()))
            }
        }
        let clipList: [JSONValue] = clips.map { clip in
            var object: [String: JSONValue] = [
                "name": .string(clip.name),
                "fps": .number(clip.fps),
                "width": .number(Double(clip.width)),
                "height": .number(Double(clip.height)),
                "numbers": .array(clip.frames.map { .number(Double($0.number)) }),
                "seconds": .array(clip.frames.map { .number(NodeCurves.round($0.seconds)) }),
                "images": .array(clip.frames.map { .number(Double($0.image)) }),
                "nodes": .array(clip.curves.map { node in
                    .object([
                        "id": .string(node.id),
                        "name": .string(node.name),
                        "animated": .bool(node.isAnimated),
                        "curves": .array(node.curves.map { curve in
                            .object([
                                "name": .string(curve.name),
                                "times": .array(curve.times.map { .number($0) }),
                                "values": .array(curve.values.map { .number($0) }),
                                "keys": .array(curve.keys.map { .array([.number($0.seconds), .number($0.value)]) }),
                            ])
                        }),
                    ])
                }),
            ]
            if let script = clip.script {
                object["script"] = .object([
                    "lines": .array(script.lines.map { line in
                        .object([
                            "name": .string(line.name),
                            "times": .array(line.times.map { .number($0) }),
                            "fractions": .array(line.fractions.map { .number($0) }),
                            "reversed": .array(line.reversed.map { .bool($0) }),
                        ])
                    }),
                    "marks": .array(script.marks.map { .object(["t": .number($0.seconds), "label": .string($0.label)]) }),
                ])
            }
            return .object(object)
        }
        return .object(["title": .string(title), "images": .array(imageList), "clips": .array(clipList)])
    }

    /// The whole page. Deterministic: the same clips and images give the same bytes.
    public func html() -> String {
        // `</` cannot appear inside the data block, or it could end the script element early.
        let json = String(decoding: JSONWriter.writeCompact(data), as: UTF8.self).replacingOccurrences(of: "</", with: "<\\/")
        let usesFiles = images.references.contains { $0 != nil }
        let imageSources = usesFiles ? "data: 'self'" : "data:"
        let policy = "default-src 'none'; img-src \(imageSources); style-src 'unsafe-inline'; "
            + "script-src 'unsafe-inline'; connect-src 'none'; form-action 'none'; base-uri 'none'"
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(policy)">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="keyframe preview">
            <title>\(PreviewPage.escape(title)) — Keyframe preview</title>
            <style>\(PreviewPlayer.css)</style>
            </head><body>
            \(PreviewPlayer.body)
            <script type="application/json" id="kf-data">\(json)</script>
            <script>\(PreviewPlayer.script)</script>
            </body></html>

            """
    }

    /// Text made safe for HTML.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
