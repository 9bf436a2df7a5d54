import Foundation
import KeyframeJSON
import KeyframePNG

/// A self-contained HTML page of a verification — every image embedded as a `data:` URL, no script, no network —
/// that a CI system can publish as an artefact: the totals, then for each failing frame the expected, actual and
/// diff pictures side by side with its figures.
public enum VerifyHTMLReport {
    /// One verification on a page with several (`keyframe batch --verify`: one per export).
    public struct Section: Sendable {
        /// The heading above its frames (an export's id), or `nil` for a page with one verification.
        public var heading: String?
        /// The verification. Pictures are read from its paths: the golden file, the saved (or rendered) actual frame,
        /// and the diff picture in memory or saved.
        public var report: VerifyReport
        /// Why the verification could not run (no golden folder, a render error); shown instead of the totals.
        public var error: String?
        /// A verdict line to show instead of the one computed from ``report`` (when the report holds only the
        /// failing frames).
        public var verdict: String?

        public init(heading: String?, report: VerifyReport, error: String? = nil, verdict: String? = nil) {
            self.heading = heading
            self.report = report
            self.error = error
            self.verdict = verdict
        }
    }

    /// The page for `report`.
    public static func html(for report: VerifyReport, title: String = "Keyframe frame verification") -> String {
        html(sections: [Section(heading: nil, report: report)], title: title)
    }

    /// One page for several verifications: for each, its totals and its failing frames.
    public static func html(sections: [Section], title: String = "Keyframe frame verification") -> String {
        var encoder = PNGEncoder(options: .fast)
        func dataURL(path: String?) -> String? {
            guard let path, let bytes = FileManager.default.contents(atPath: path) else { return nil }
            return "data:image/png;base64," + bytes.base64EncodedString()
        }
        var out = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
            <title>\(escape(title))</title>
            <style>
            body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222}
            h1{font-size:20px} h2{font-size:17px;margin-top:28px} h3{font-size:15px} .ok{color:#0a7d32} .bad{color:#b3261e}
            table.figures td{padding:0 12px 0 0} section{border-top:1px solid #ddd;padding:12px 0}
            .row{display:flex;gap:16px;flex-wrap:wrap;align-items:flex-start}
            figure{margin:0} figcaption{font-size:12px;color:#555}
            img{image-rendering:pixelated;min-width:160px;max-width:480px;height:auto;border:1px solid #ccc;
            background:repeating-conic-gradient(#ddd 0 25%,#fff 0 50%) 0 0/16px 16px}
            code{background:#f4f4f4;padding:0 3px}
            </style></head><body>
            <h1>\(escape(title))</h1>

            """
        for section in sections {
            let report = section.report
            if let heading = section.heading {
                let passed = report.passed && section.error == nil
                out += "<h2 class=\"\(passed ? "ok" : "bad")\">\(escape(heading))</h2>\n"
            }
            if let error = section.error {
                out += "<p><span class=\"bad\">failed</span>: \(escape(error))</p>\n"
                continue
            }
            let verdict = report.passed ? "<span class=\"ok\">passed</span>" : "<span class=\"bad\">failed</span>"
            if let line = section.verdict {
                out += "<p>\(verdict): \(escape(line))</p>\n"
            } else {
                out += "<p>\(verdict): \(report.count(.match)) of \(report.frames.count - report.count(.extraGolden)) "
                    + "frame(s) match <code>\(escape(report.goldenFolder))</code> (tolerance \(report.criteria.tolerance) "
                    + "per channel, at most \(VerifyReport.percent(report.criteria.maxDifferingShare)) of pixels may "
                    + "differ).</p>\n"
            }
            for frame in report.failures {
                out += "<section><h3 class=\"bad\">\(escape(frame.fileName)) — \(escape(frame.status.rawValue))</h3>\n"
                out += "<p>\(escape(frame.message))</p>\n"
                if let difference = frame.difference {
                    out += "<table class=\"figures\"><tr><td>max difference</td><td>\(difference.maxDifference)</td></tr>"
                    out += "<tr><td>mean difference</td><td>\(VerifyReport.decimal(difference.meanDifference))</td></tr>"
                    out += "<tr><td>differing pixels</td><td>\(difference.differingPixels) "
                        + "(\(VerifyReport.percent(difference.differingShare)))</td></tr>"
                    if let b = difference.bounds {
                        out += "<tr><td>changed area</td><td>x \(b.x), y \(b.y), \(b.width)×\(b.height)</td></tr>"
                    }
                    out += "</table>\n"
                }
                out += "<div class=\"row\">\n"
                var pictures: [(String, String?)] = [
                    ("expected", frame.status == .missingGolden || frame.status == .unreadableGolden
                        ? nil : dataURL(path: frame.goldenPath)),
                    ("actual", dataURL(path: frame.savedActualPath ?? frame.actualPath)),
                ]
                if let diff = frame.diffImage, let bytes = try? encoder.encode(diff) {
                    pictures.append(("diff", "data:image/png;base64," + Data(bytes).base64EncodedString()))
                } else if let saved = dataURL(path: frame.savedDiffPath) {
                    pictures.append(("diff", saved))
                }
                for (caption, url) in pictures {
                    if let url {
                        out += "<figure><img alt=\"\(caption)\" src=\"\(url)\"><figcaption>\(caption)</figcaption></figure>\n"
                    } else {
                        out += "<figure><figcaption>\(caption): none</figcaption></figure>\n"
                    }
                }
                out += "</div></section>\n"
            }
        }
        out += "</body></html>\n"
        return out
    }

    /// Text made safe for HTML content and attribute values (``HTMLEscape/text(_:)``, shared by every page).
    public static func escape(_ text: String) -> String { HTMLEscape.text(text) }
}
