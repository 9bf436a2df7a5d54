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

    /// The page's data as JSON, without the pictures (``imageSources`` holds those): title and clips.
    public var data: JSONValue {
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
                    var members: [String: JSONValue] = [
                        "id": .string(node.id),
                        "name": .string(node.name),
                        "kind": .string(node.kind),
                        "animated": .bool(node.isAnimated),
                        "curves": .array(node.curves.map { curve in
                            .object([
                                "name": .string(curve.name),
                                "times": .array(curve.times.map { .number($0) }),
                                "values": .array(curve.values.map { $0.map { .number($0) } ?? .null }),
                                "keys": .array(curve.keys.map { .array([.number($0.seconds), .number($0.value)]) }),
                            ])
                        }),
                    ]
                    if let nesting = node.nesting {
                        members["nested"] = .object([
                            "instances": .array(nesting.instances.map { .string($0) }),
                            "composition": .string(nesting.composition),
                            "frames": .array(nesting.frames.map { $0.map { .number($0) } ?? .null }),
                        ])
                    }
                    return .object(members)
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
        return .object(["title": .string(title), "clips": .array(clipList)])
    }

    /// Each picture as the page refers to it: a relative file path, or a `data:` URL of its PNG.
    public var imageSources: [String] {
        zip(images.images, images.references).map { bytes, reference in
            reference ?? "data:image/png;base64," + Data(bytes).base64EncodedString()
        }
    }

    /// The whole page. Deterministic: the same clips and images give the same bytes.
    public func html() -> String { String(decoding: htmlBytes(), as: UTF8.self) }

    /// The whole page as UTF-8. The pictures go into their own JSON block, written directly (base64 needs no
    /// escaping), so a page of many megabytes costs little more than encoding its pictures.
    public func htmlBytes() -> [UInt8] {
        // No `<` inside a data block: it could end the script element early or swallow the scripts after it.
        let json = String(decoding: HTMLEscape.scriptJSON(JSONWriter.writeCompact(data)), as: UTF8.self)
        let usesFiles = images.references.contains { $0 != nil }
        let sources = usesFiles ? "data: 'self'" : "data:"
        let policy = "default-src 'none'; img-src \(sources); style-src 'unsafe-inline'; "
            + "script-src 'unsafe-inline'; connect-src 'none'; form-action 'none'; base-uri 'none'"
        var out: [UInt8] = []
        out.reserveCapacity(images.byteCount * 4 / 3 + 64 * 1024 + json.utf8.count)
        out += Array("""
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(policy)">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="keyframe preview">
            <title>\(HTMLEscape.text(title)) — Keyframe preview</title>
            <style>\(PreviewPlayer.css)</style>
            </head><body>
            \(PreviewPlayer.body)
            <script type="application/json" id="kf-data">\(json)</script>
            <script type="application/json" id="kf-images">[
            """.utf8)
        let prefix = Array("\"data:image/png;base64,".utf8)
        for (index, (bytes, reference)) in zip(images.images, images.references).enumerated() {
            if index > 0 { out += Array(",\n".utf8) }
            if let reference {
                out += HTMLEscape.scriptJSON(JSONWriter.writeCompact(.string(reference)))
            } else {
                out += prefix
                Base64.append(bytes, to: &out)
                out.append(UInt8(ascii: "\""))
            }
        }
        out += Array("""
            ]</script>
            <script>\(PreviewPlayer.script)</script>
            </body></html>

            """.utf8)
        return out
    }

}
