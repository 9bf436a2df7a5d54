import Foundation
import KeyframeJSON
import KeyframePNG
import KeyframeRaster

/// The `keyframe diff --html` page: one self-contained file (pictures as `data:` URLs, no script, no network; a
/// Content Security Policy forbids any request) with the structural changes, the motion changes with their figures,
/// and per clip the frames that differ, the older and newer version side by side with an overlay of both.
public enum DiffPage {
    /// The page for `diff`, with the frames of `frames`.
    public static func html(_ diff: DocumentDiff, frames: DiffFrames) -> [UInt8] {
        var encoder = PNGEncoder(options: .fast)
        func picture(_ bitmap: Bitmap, _ alt: String) -> String {
            guard let bytes = try? encoder.encode(bitmap) else { return "<p>\(HTMLEscape.text(alt)): not encoded</p>" }
            // Small frames are shown enlarged (pixels stay sharp), so a few pixels' move can be seen.
            let zoom = max(1, min(3, 240 / max(1, max(bitmap.width, bitmap.height))))
            return "<img alt=\"\(HTMLEscape.text(alt))\" width=\"\(bitmap.width * zoom)\" height=\"\(bitmap.height * zoom)\" "
                + "src=\"data:image/png;base64,\(Data(bytes).base64EncodedString())\">"
        }
        let t = HTMLEscape.text
        var out = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
            <meta name="generator" content="keyframe diff">
            <title>keyframe diff: \(t(diff.before)) → \(t(diff.after))</title>
            <style>
            body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d1d1f}
            h1{font-size:19px;margin:0 0 8px} h2{font-size:16px;margin:26px 0 8px} h3{font-size:14px;margin:16px 0 6px}
            .verdict{font-weight:600} .changed{color:#b3261e} .same{color:#0a7d32}
            code{background:#f2f2f4;padding:0 3px;border-radius:3px}
            ul.structure{list-style:none;padding:0;margin:0;font-family:ui-monospace,monospace;font-size:13px}
            ul.structure li{padding:1px 0} .added{color:#0a7d32} .removed{color:#b3261e} .renamed,.changed-item{color:#7a4d00}
            table{border-collapse:collapse;font-size:13px} th,td{text-align:left;padding:3px 10px 3px 0;vertical-align:top}
            th{border-bottom:1px solid #ccc} td.num{font-variant-numeric:tabular-nums;text-align:right}
            tr.node td{padding-top:10px;font-weight:600}
            .row{display:flex;gap:14px;flex-wrap:wrap;align-items:flex-start;margin:6px 0 18px}
            figure{margin:0} figcaption{font-size:12px;color:#555}
            img{image-rendering:pixelated;border:1px solid #c7c7cc;max-width:100%;height:auto;
            background:repeating-conic-gradient(#ddd 0 25%,#fff 0 50%) 0 0/16px 16px}
            .legend span{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px;border:1px solid #999}
            </style></head><body>
            <h1>keyframe diff</h1>
            <p><code>\(t(diff.before))</code> → <code>\(t(diff.after))</code></p>
            <p class="verdict \(diff.hasChanges ? "changed" : "same")">\(t(diff.summary))</p>

            """
        for note in diff.notes { out += "<p>note: \(t(note))</p>\n" }
        if !diff.structure.isEmpty {
            out += "<h2>Structure</h2>\n<ul class=\"structure\">\n"
            for change in diff.structure {
                let style = change.kind == .changed ? "changed-item" : change.kind.rawValue
                out += "<li class=\"\(style)\">\(t(change.line))</li>\n"
            }
            out += "</ul>\n"
        }
        if !diff.motion.isEmpty {
            out += "<h2>Motion</h2>\n<p>Largest difference per channel beyond the tolerance "
                + "(\(t(Correspondence.number(diff.options.tolerance))) px, °, percentage points), the frame of its "
                + "composition where it occurs and each version's value there.</p>\n"
            out += "<table><tr><th>channel</th><th>largest</th><th>at frame</th><th>in clips</th><th>before → after</th>"
                + "<th>frames differing</th></tr>\n"
            for change in diff.motion {
                out += "<tr class=\"node\"><td colspan=\"6\">\(t(change.displayName))</td></tr>\n"
                for channel in change.channels {
                    out += "<tr><td>\(channel.channel.rawValue)</td>"
                        + "<td class=\"num\">\(t(Correspondence.number(channel.largest))) \(t(channel.channel.unit))</td>"
                        + "<td class=\"num\">\(channel.frame)</td><td>\(t(clipText(channel.clips)))</td>"
                        + "<td>\(t(DocumentDiff.values(channel)))</td>"
                        + "<td class=\"num\">\(channel.frames) of \(change.comparedFrames)</td></tr>\n"
                }
                for property in change.properties {
                    out += "<tr><td>\(property.property.rawValue)</td><td></td>"
                        + "<td class=\"num\">\(property.firstFrame)</td><td>\(t(clipText(property.clips)))</td>"
                        + "<td>\(t(property.before)) → \(t(property.after))</td>"
                        + "<td class=\"num\">\(property.frames) of \(change.comparedFrames)</td></tr>\n"
                }
            }
            out += "</table>\n"
        }
        if !frames.clips.isEmpty {
            out += "<h2>Frames</h2>\n<p class=\"legend\">Each clip drawn by both versions at the document's frame rate in "
                + "one framing. Overlay: grey where both draw alike,<span style=\"background:#f00\"></span>only before"
                + "<span style=\"background:#0ff\"></span>only after.</p>\n"
            for clip in frames.clips {
                let renamed = clip.beforeClip == clip.clip ? "" : " (was \(clip.beforeClip))"
                out += "<h3>\(t(clip.clip + renamed)): \(clip.differing) of \(clip.compared) frame(s) differ</h3>\n"
                for pair in clip.shown {
                    let d = pair.difference
                    var caption = "frame \(pair.frame) (\(Correspondence.number(pair.seconds)) s): "
                        + "\(d.differingPixels) pixel(s) differ, at most \(d.maxDifference)"
                    if let b = d.bounds { caption += ", area x \(b.x) y \(b.y) \(b.width)×\(b.height)" }
                    out += "<p>\(t(caption))</p>\n<div class=\"row\">\n"
                    for (label, bitmap) in [("before", pair.before), ("after", pair.after),
                                            ("overlay", DiffFrames.overlay(pair.before, pair.after))] {
                        out += "<figure>\(picture(bitmap, label))<figcaption>\(label)</figcaption></figure>\n"
                    }
                    out += "</div>\n"
                }
            }
        }
        out += "</body></html>\n"
        return Array(out.utf8)
    }

    private static func clipText(_ clips: [MotionChange.ClipTime]) -> String {
        clips.map { "\($0.clip) frame \($0.frame) (\(Correspondence.number($0.seconds)) s)" }.joined(separator: ", ")
    }
}
