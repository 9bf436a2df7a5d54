import KeyframeJSON

/// Builds the self-contained preview page: the frames (key pictures and patches, each picture once, embedded or as
/// files beside the page), the player, the timeline, the curves and the script graph, with no network access (a
/// Content Security Policy forbids any).
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

    /// The page's data as JSON: title, clips, the number of pictures and, when they are files beside the page, their
    /// paths (embedded pictures are blocks of their own, see ``htmlBytes()``).
    public var data: JSONValue {
        let clipList: [JSONValue] = clips.map { clip in
            var object: JSONObject = [
                "name": .string(clip.name),
                "composition": .string(clip.composition),
                "fps": .number(clip.fps),
                "width": .number(Double(clip.width)),
                "height": .number(Double(clip.height)),
                "numbers": .array(clip.frames.map { .number(Double($0.number)) }),
                "seconds": .array(clip.frames.map { .number(NodeCurves.round($0.seconds)) }),
                "layers": .array(clip.frames.map { frame in
                    .array(frame.layers.map { .array([.number(Double($0.image)), .number(Double($0.x)), .number(Double($0.y))]) })
                }),
                "nodes": .array(clip.curves.map { node in
                    var members: JSONObject = [
                        "id": .string(node.id),
                        "name": .string(node.name),
                        "kind": .string(node.kind),
                        "animated": .bool(node.isAnimated),
                        "parent": node.parent.map { .string($0) } ?? .null,
                        "curves": .array(node.curves.map { curve in
                            .object([
                                "name": .string(curve.name),
                                "times": .array(curve.times.map { .number($0) }),
                                "values": .array(curve.values.map { $0.map { .number($0) } ?? .null }),
                                "keys": .array(curve.keys.map {
                                    .array([.number($0.seconds), .number($0.value), .number(Double($0.segment.rawValue)), .string($0.easing)])
                                }),
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
        var page: JSONObject = [
            "title": .string(title), "clips": .array(clipList), "pictures": .number(Double(images.images.count)),
        ]
        if usesFiles {
            // Files beside the page (`--frames-folder`): their paths; embedded pictures are blocks of their own.
            page["sources"] = .array(images.references.map { .string($0 ?? "") })
        }
        return .object(page)
    }

    /// Whether the pictures are files beside the page rather than embedded.
    var usesFiles: Bool { !images.references.isEmpty && images.references.allSatisfy { $0 != nil } }

    /// The whole page. Deterministic: the same clips and images give the same bytes.
    public func html() -> String { String(decoding: htmlBytes(), as: UTF8.self) }

    /// The whole page as UTF-8: the markup, the data block, the player's script, then each embedded picture as a
    /// block of its own (base64 needs no escaping) followed by a one-line script announcing it, so the player draws
    /// the frame it opens on as soon as that frame's pictures have arrived, while the rest of a large page is still
    /// being read. A page of many megabytes costs little more than encoding its pictures.
    public func htmlBytes() -> [UInt8] {
        // No `<` inside a data block: it could end the script element early or swallow the scripts after it.
        let json = HTMLEscape.scriptJSON(JSONWriter.writeCompact(data))
        let sources = usesFiles ? "data: 'self'" : "data:"
        let policy = "default-src 'none'; img-src \(sources); style-src 'unsafe-inline'; "
            + "script-src 'unsafe-inline'; connect-src 'none'; form-action 'none'; base-uri 'none'"
        var out: [UInt8] = []
        out.reserveCapacity(images.byteCount * 4 / 3 + 64 * 1024 + json.count + images.images.count * 100)
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
            <script type="application/json" id="kf-data">
            """.utf8)
        out += json
        out += Array("""
            </script>
            <script>\(PreviewPlayer.script)</script>

            """.utf8)
        if !usesFiles {
            let open = Array("<script type=\"text/plain\" class=\"kf-picture\">".utf8)
            let close = Array("</script><script>keyframePreview.arrived()</script>\n".utf8)
            for bytes in images.images {
                out += open
                Base64.append(bytes, to: &out)
                out += close
            }
        }
        out += Array("</body></html>\n".utf8)
        return out
    }
}
