import Foundation
import KeyframeJSON
import KeyframePNG
import KeyframeRaster

/// The `keyframe diff --html` page: one self-contained file (pictures as `data:` URLs, no network; a Content
/// Security Policy forbids any request) with the structural changes, the motion changes with their figures and the
/// values in the source's own terms, each changed channel's curves before and after (``DiffCurves``), and per clip
/// the frames, the older and newer version side by side with an overlay of both. A small inline script
/// (``DiffPageScript``) adds frame scrubbing, blink and swipe, zoom and the curves' hover readout; without it the
/// page shows the most different frame of each clip.
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
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <meta name="generator" content="keyframe diff">
            <title>keyframe diff: \(t(diff.before)) → \(t(diff.after))</title>
            <style>
            \(DiffPageScript.css)
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
            out += "<table class=\"motion\"><tr><th>channel</th><th>largest</th><th>at frame</th><th>in clips</th>"
                + "<th>before → after (normalized)</th><th>in the source's terms</th><th>frames differing</th></tr>\n"
            for change in diff.motion {
                out += "<tr class=\"node\"><td colspan=\"7\">\(t(change.displayName))</td></tr>\n"
                for channel in change.channels {
                    let source = channel.source.map { "<span class=\"terms\">\(t($0.terms)):</span> \(t($0.changedText))" }
                    out += "<tr><td>\(channel.channel.rawValue)</td>"
                        + "<td class=\"num\">\(t(Correspondence.number(channel.largest))) \(t(channel.channel.unit))</td>"
                        + "<td class=\"num\">\(channel.frame)</td><td class=\"clips\">\(t(clipText(channel.clips)))</td>"
                        + "<td>\(t(DocumentDiff.values(channel)))</td><td class=\"source\">\(source ?? "")</td>"
                        + "<td class=\"num\">\(channel.frames) of \(change.comparedFrames)</td></tr>\n"
                }
                for property in change.properties {
                    out += "<tr><td>\(property.property.rawValue)</td><td></td>"
                        + "<td class=\"num\">\(property.firstFrame)</td><td class=\"clips\">\(t(clipText(property.clips)))</td>"
                        + "<td>\(t(property.before)) → \(t(property.after))</td><td></td>"
                        + "<td class=\"num\">\(property.frames) of \(change.comparedFrames)</td></tr>\n"
                }
            }
            out += "</table>\n"
            out += "<h2>Curves</h2>\n<p>Each changed channel over its composition's frames, both versions on one plot. "
                + "Point at a plot to read both values at a frame.</p>\n"
            var index = 0
            for change in diff.motion {
                for channel in change.channels {
                    out += DiffCurves.figure(change, channel, index: index)
                    index += 1
                }
            }
        }
        if !frames.clips.isEmpty {
            out += "<h2>Frames</h2>\n<p class=\"legend\">Each clip drawn by both versions at the document's frame rate in "
                + "one framing. Overlay: grey where both draw alike,<span style=\"background:#f00\"></span>only before"
                + "<span style=\"background:#0ff\"></span>only after.</p>\n"
            for (index, clip) in frames.clips.enumerated() {
                out += clipSection(clip, index: index, picture: picture)
            }
        }
        out += "<script type=\"application/json\" id=\"diff-frames\">"
        out += String(decoding: HTMLEscape.scriptJSON(JSONWriter.writeCompact(framesData(frames))), as: UTF8.self)
        out += "</script>\n<script>\(DiffPageScript.script)</script>\n"
        out += "</body></html>\n"
        return Array(out.utf8)
    }

    private static func clipText(_ clips: [MotionChange.ClipTime]) -> String {
        guard !clips.isEmpty else { return "shown in no clip" }
        return clips.map { "\($0.clip) frame \($0.frame) (\(Correspondence.number($0.seconds)) s)" + DocumentDiff.through($0) }
            .joined(separator: "; ")
    }

    /// One clip's frames: the most different one side by side (what the page shows without its script), the tools
    /// the script reveals (scrubber, compare mode, zoom), and the differing frames worth a look as jump buttons.
    private static func clipSection(_ clip: DiffFrames.ClipFrames, index: Int,
                                    picture: (Bitmap, String) -> String) -> String {
        let t = HTMLEscape.text
        let renamed = clip.beforeClip == clip.clip ? "" : " (was \(clip.beforeClip))"
        var out = "<section class=\"clip\" data-index=\"\(index)\" data-composition=\"\(t(clip.composition))\" "
            + "data-start=\"\(clip.start)\">\n<h3>\(t(clip.clip + renamed)): \(clip.differing) of \(clip.compared) "
            + "frame(s) differ</h3>\n" + DiffPageScript.tools
        let worst = clip.shown.max { $0.difference.differingPixels < $1.difference.differingPixels }
        if let pair = worst {
            let d = pair.difference
            var caption = "frame \(pair.frame) (\(Correspondence.number(pair.seconds)) s): "
                + "\(d.differingPixels) pixel(s) differ, at most \(d.maxDifference)"
            if let b = d.bounds { caption += ", area x \(b.x) y \(b.y) \(b.width)×\(b.height)" }
            out += "<p class=\"caption\">\(t(caption))</p>\n<div class=\"row side\">\n"
            for (label, bitmap) in [("before", pair.before), ("after", pair.after),
                                    ("overlay", DiffFrames.overlay(pair.before, pair.after))] {
                out += "<figure>\(picture(bitmap, label))<figcaption>\(label)</figcaption></figure>\n"
            }
            out += "</div>\n<div class=\"stage\" hidden><canvas class=\"compare\" width=\"\(pair.before.width)\" "
                + "height=\"\(pair.before.height)\"></canvas><p class=\"which\"></p></div>\n"
            out += "<p class=\"jumps\">Frames that differ: " + clip.shown.map { shown in
                "<button type=\"button\" data-frame=\"\(shown.frame)\">frame \(shown.frame)</button>"
            }.joined(separator: " ") + (clip.differing > clip.shown.count ? " …" : "") + "</p>\n"
        } else {
            out += "<p class=\"caption\">no frame differs</p>\n"
        }
        return out + "</section>\n"
    }

    /// Every clip's scrubbable frames for the script: per moment `[frame, seconds, before, after, overlay,
    /// differing pixels, largest difference, [x, y, width, height] or null]` and the pictures as base64 PNG.
    private static func framesData(_ frames: DiffFrames) -> JSONValue {
        .array(frames.clips.map { clip in
            [
                "clip": .string(clip.clip),
                "moments": .array(clip.moments.map { m in
                    let box: JSONValue = m.bounds.map {
                        .array([$0.x, $0.y, $0.width, $0.height].map { .number(Double($0)) })
                    } ?? .null
                    return .array([.number(Double(m.frame)), .number(m.seconds), .number(Double(m.before)),
                                   .number(Double(m.after)), .number(Double(m.overlay)),
                                   .number(Double(m.differingPixels)), .number(Double(m.maxDifference)), box])
                }),
                "pictures": .array(clip.pictures.map { .string(Data($0).base64EncodedString()) }),
            ]
        })
    }
}
