import Foundation
import KeyframeJSON
import KeyframePNG
import KeyframeRaster

/// A self-contained HTML page of a verification — every image embedded as a `data:` URL, no network — that a CI
/// system can publish as an artefact: the totals and the command that accepts the change, then for each failing
/// frame its figures, the expected and actual frames and a heat map of the difference on one fixed, labelled scale
/// (so a change of 5 and one of 60 never look alike), with the changed area outlined.
///
/// A small inline script adds, per frame, swipe, blink and onion-skin comparison of expected and actual, zoom to
/// single pixels (fit, 1× to 16×) and a jump to the changed area; without it the page still shows everything side
/// by side.
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

    /// The difference values labelled under the heat map's scale.
    static let scaleTicks = [1, 2, 4, 8, 16, 32, 64, 128, 255]

    /// The page for `report`. `recordCommand` is the command line that records the rendered frames as the new
    /// goldens, shown when something failed.
    public static func html(for report: VerifyReport, title: String = "Keyframe frame verification",
                            recordCommand: String? = nil) -> String {
        html(sections: [Section(heading: nil, report: report)], title: title, recordCommand: recordCommand)
    }

    /// One page for several verifications: for each, its totals and its failing frames.
    public static func html(sections: [Section], title: String = "Keyframe frame verification",
                            recordCommand: String? = nil) -> String {
        var encoder = PNGEncoder(options: .fast)
        let decoder = PNGDecoder()
        func dataURL(path: String?) -> String? {
            guard let path, let bytes = FileManager.default.contents(atPath: path) else { return nil }
            return "data:image/png;base64," + bytes.base64EncodedString()
        }
        func dataURL(_ bitmap: Bitmap) -> String? {
            guard let bytes = try? encoder.encode(bitmap) else { return nil }
            return "data:image/png;base64," + Data(bytes).base64EncodedString()
        }
        let t = HTMLEscape.text
        let failing = sections.contains { !$0.report.passed || $0.error != nil }
        let tolerances = Set(sections.map(\.report.criteria.tolerance))
        var out = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <meta name="generator" content="keyframe verify">
            <title>\(t(title))</title>
            <style>\(css)</style></head><body>
            <h1>\(t(title))</h1>

            """
        if failing, let recordCommand {
            out += "<p>To accept the rendered frames as the new golden frames, run:</p>\n"
                + "<pre class=\"command\"><code id=\"record-command\">\(t(recordCommand))</code></pre>\n"
        }
        // The scale, once per page: every heat map uses it.
        let needsScale = sections.contains { $0.report.failures.contains { $0.difference != nil } }
        if needsScale, let legend = dataURL(BitmapDifference.heatLegend()) {
            out += "<div class=\"scale\" id=\"heat-scale\"><p>Heat maps: each pixel coloured by its largest channel "
                + "difference (0–255, premultiplied RGBA), on this logarithmic scale; pixels within the tolerance "
                + "(\(tolerances.sorted().map(String.init).joined(separator: ", "))) "
                + "<span class=\"swatch\" style=\"background:\(css(BitmapDifference.withinToleranceColor))\"></span> "
                + "pale, unchanged ones as the expected frame in grey.</p>\n"
                + "<div class=\"bar\"><img alt=\"difference scale\" src=\"\(legend)\">"
            for tick in scaleTicks {
                let position = BitmapDifference.heatPosition(tick) * 100
                out += "<span style=\"left:\(format(position))%\">\(tick)</span>"
            }
            out += "</div></div>\n"
        }
        for section in sections {
            let report = section.report
            if let heading = section.heading {
                let passed = report.passed && section.error == nil
                out += "<h2 class=\"\(passed ? "ok" : "bad")\">\(t(heading))</h2>\n"
            }
            if let error = section.error {
                out += "<p><span class=\"bad\">failed</span>: \(t(error))</p>\n"
                continue
            }
            let verdict = report.passed ? "<span class=\"ok\">passed</span>" : "<span class=\"bad\">failed</span>"
            if let line = section.verdict {
                out += "<p>\(verdict): \(t(line))</p>\n"
            } else {
                out += "<p>\(verdict): \(report.count(.match)) of \(report.frames.count - report.count(.extraGolden)) "
                    + "frame(s) match <code>\(t(report.goldenFolder))</code> (tolerance \(report.criteria.tolerance) "
                    + "per channel, at most \(VerifyReport.percent(report.criteria.maxDifferingShare)) of pixels may "
                    + "differ).</p>\n"
            }
            for frame in report.failures {
                let expected = frame.status == .missingGolden || frame.status == .unreadableGolden
                    ? nil : dataURL(path: frame.goldenPath)
                let actualPath = frame.savedActualPath ?? frame.actualPath
                let actual = dataURL(path: actualPath)
                var attributes = ""
                var heat: String? = nil
                // The changed area's outline, in percent of the picture, so it fits at every zoom.
                var outline = "<div class=\"box\"></div>"
                if let difference = frame.difference {
                    attributes = " data-width=\"\(difference.width)\" data-height=\"\(difference.height)\""
                    if let b = difference.bounds, difference.width > 0, difference.height > 0 {
                        attributes += " data-box=\"\(b.x),\(b.y),\(b.width),\(b.height)\""
                        let w = Double(difference.width), h = Double(difference.height)
                        outline = "<div class=\"box\" style=\"display:block;left:\(format(Double(b.x) / w * 100))%;"
                            + "top:\(format(Double(b.y) / h * 100))%;width:\(format(Double(b.width) / w * 100))%;"
                            + "height:\(format(Double(b.height) / h * 100))%\"></div>"
                    }
                    // Decoded again from the files, so batch reports (built from saved pictures) get the same map.
                    if let goldenBitmap = try? decoder.decode(contentsOf: frame.goldenPath), let actualPath,
                        let actualBitmap = try? decoder.decode(contentsOf: actualPath)
                    {
                        heat = dataURL(difference.heatMap(actual: actualBitmap, expected: goldenBitmap))
                    }
                }
                out += "<section class=\"frame\"\(attributes)><h3 class=\"bad\">\(t(frame.fileName)) — "
                    + "\(t(frame.status.rawValue))</h3>\n<p>\(t(frame.message))</p>\n"
                if let difference = frame.difference {
                    out += "<table class=\"figures\"><tr><td>max difference</td><td>\(difference.maxDifference) "
                        + "of 255</td></tr>"
                    out += "<tr><td>mean difference</td><td>\(VerifyReport.decimal(difference.meanDifference))</td></tr>"
                    out += "<tr><td>differing pixels</td><td>\(difference.differingPixels) "
                        + "(\(VerifyReport.percent(difference.differingShare)))</td></tr>"
                    if let b = difference.bounds {
                        out += "<tr><td>changed area</td><td>x \(b.x), y \(b.y), \(b.width)×\(b.height)</td></tr>"
                    }
                    out += "</table>\n"
                }
                if expected != nil, actual != nil, frame.difference != nil {
                    out += tools
                }
                out += "<div class=\"row side\">\n"
                var pictures: [(String, String?)] = [("expected", expected), ("actual", actual)]
                if frame.difference != nil {
                    pictures.append(("heat map", heat))
                } else if let diff = frame.diffImage {
                    pictures.append(("diff", dataURL(diff)))
                } else if let saved = dataURL(path: frame.savedDiffPath) {
                    pictures.append(("diff", saved))
                }
                for (caption, url) in pictures {
                    if let url {
                        out += "<figure><div class=\"pic\"><img alt=\"\(caption)\" src=\"\(url)\">"
                            + "\(outline)</div><figcaption>\(caption)</figcaption></figure>\n"
                    } else {
                        out += "<figure><figcaption>\(caption): none</figcaption></figure>\n"
                    }
                }
                out += "</div>\n"
                if expected != nil, actual != nil, frame.difference != nil {
                    out += "<figure class=\"stage\" hidden><div class=\"pic\"><img class=\"under\" alt=\"expected\">"
                        + "<img class=\"over\" alt=\"actual\">\(outline)</div>"
                        + "<figcaption class=\"which\"></figcaption></figure>\n"
                }
                out += "</section>\n"
            }
        }
        out += "<script>\(script)</script>\n</body></html>\n"
        return out
    }

    /// Text made safe for HTML content and attribute values (`HTMLEscape/text(_:)`, shared by every page).
    public static func escape(_ text: String) -> String { HTMLEscape.text(text) }

    private static func css(_ colour: RGBAColor) -> String { "rgb(\(colour.r),\(colour.g),\(colour.b))" }

    private static func format(_ value: Double) -> String { JSONWriter.format((value * 100).rounded() / 100) }

    /// The controls above a frame's pictures (shown by the script).
    static let tools = """
        <div class="tools" hidden><span role="group" aria-label="compare">\
        <button type="button" data-mode="side" aria-pressed="true">side by side</button>\
        <button type="button" data-mode="swipe" aria-pressed="false">swipe</button>\
        <button type="button" data-mode="blink" aria-pressed="false">blink</button>\
        <button type="button" data-mode="onion" aria-pressed="false">onion skin</button></span>
        <label class="amount" hidden><span></span> <input type="range" min="0" max="100" value="50"></label>
        <label>zoom <select class="zoom"><option value="fit">fit</option><option value="1">1×</option>\
        <option value="2">2×</option><option value="4">4×</option><option value="8">8×</option>\
        <option value="16">16×</option></select></label>
        <button type="button" class="to-change">zoom to the change</button></div>

        """

    static let css = #"""
        body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222}
        h1{font-size:20px} h2{font-size:17px;margin-top:28px} h3{font-size:15px} .ok{color:#0a7d32} .bad{color:#b3261e}
        table.figures td{padding:0 12px 0 0} section{border-top:1px solid #ddd;padding:12px 0}
        .row{display:flex;gap:16px;flex-wrap:wrap;align-items:flex-start}
        figure{margin:0} figcaption{font-size:12px;color:#555}
        .pic{position:relative;display:inline-block;line-height:0;overflow:hidden;border:1px solid #ccc;
        background:repeating-conic-gradient(#ddd 0 25%,#fff 0 50%) 0 0/16px 16px}
        .pic img{display:block;image-rendering:pixelated;min-width:160px;max-width:480px;height:auto}
        .stage .pic img{max-width:none;min-width:0}
        .stage .pic img.over{position:absolute;left:0;top:0}
        .box{position:absolute;display:none;outline:1px solid #f0f;box-shadow:0 0 0 2px rgba(255,255,255,.85);pointer-events:none}
        .tools{display:flex;gap:10px;align-items:center;flex-wrap:wrap;margin:6px 0}
        .tools button{margin-right:3px} .tools button[aria-pressed=true]{font-weight:600;background:#dde6f5}
        .stage{overflow:auto;max-width:100%;max-height:85vh}
        code{background:#f4f4f4;padding:0 3px} pre.command{background:#f4f4f4;padding:8px;white-space:pre-wrap}
        .scale .bar{position:relative;width:512px;height:36px}
        .scale .bar img{width:512px;height:14px;image-rendering:pixelated;display:block}
        .scale .bar span{position:absolute;top:16px;transform:translateX(-50%);font-size:11px;color:#444}
        .swatch{display:inline-block;width:10px;height:10px;border:1px solid #999}
        """#

    static let script = #"""
        "use strict";
        (function () {
          for (const section of document.querySelectorAll("section.frame")) {
            const tools = section.querySelector(".tools");
            const stage = section.querySelector(".stage");
            if (!tools || !stage) continue;
            tools.hidden = false;
            const side = section.querySelector(".row.side");
            const pictures = [...side.querySelectorAll("img")];
            const under = stage.querySelector("img.under"), over = stage.querySelector("img.over");
            under.src = pictures[0].src; over.src = pictures[1].src;
            const width = Number(section.dataset.width), height = Number(section.dataset.height);
            const box = (section.dataset.box || "").split(",").map(Number);
            const amount = tools.querySelector(".amount"), slider = amount.querySelector("input");
            const zoom = tools.querySelector("select.zoom");
            const which = stage.querySelector(".which");
            let mode = "side", timer = null, showingActual = true;
            // Scales every picture of the frame and places the outline of the changed area on each.
            function scale() {
              let z = zoom.value === "fit" ? null : Number(zoom.value);
              if (z === null) {
                z = mode === "side" ? Math.min(3, Math.max(160 / width, Math.min(1, 480 / Math.max(width, height))))
                  : Math.min(4, (section.clientWidth - 20) / width);
              }
              for (const img of [...pictures, under, over]) {
                img.style.width = width * z + "px"; img.style.height = height * z + "px";
                img.style.maxWidth = "none"; img.style.minWidth = "0";
              }
              section.dataset.zoom = String(z);
              return z;
            }
            function apply() {
              for (const b of tools.querySelectorAll("button[data-mode]")) b.setAttribute("aria-pressed", String(b.dataset.mode === mode));
              side.hidden = mode !== "side";
              stage.hidden = mode === "side";
              clearInterval(timer); timer = null;
              over.style.clipPath = ""; over.style.opacity = ""; over.style.visibility = "";
              amount.hidden = mode !== "swipe" && mode !== "onion";
              amount.querySelector("span").textContent = mode === "swipe" ? "swipe" : "actual over expected";
              const v = Number(slider.value);
              if (mode === "swipe") { over.style.clipPath = "inset(0 0 0 " + v + "%)"; which.textContent = "expected | actual"; }
              if (mode === "onion") { over.style.opacity = String(v / 100); which.textContent = "actual at " + v + "% over expected"; }
              if (mode === "blink") {
                const flip = () => { showingActual = !showingActual; over.style.visibility = showingActual ? "" : "hidden";
                                     which.textContent = showingActual ? "actual" : "expected"; };
                showingActual = false; flip();
                timer = setInterval(flip, 600);
              }
              scale();
            }
            tools.addEventListener("click", (e) => {
              const button = e.target.closest("button");
              if (!button) return;
              if (button.dataset.mode) { mode = button.dataset.mode; apply(); }
              if (button.classList.contains("to-change") && box.length === 4 && box[2] > 0) {
                // The largest power-of-two zoom (up to 16×) at which the changed area fits the view, then scroll to it.
                const room = Math.max(60, Math.min(section.clientWidth - 20, window.innerHeight - 120));
                let z = 1;
                while (z < 16 && box[2] * z * 2 <= room && box[3] * z * 2 <= room) z *= 2;
                zoom.value = String(z);
                if (mode === "side") { mode = "swipe"; }
                apply();
                const target = stage.hidden ? pictures[0] : under;
                const rect = target.getBoundingClientRect();
                window.scrollTo({ left: 0, top: window.scrollY + rect.top + box[1] * z - 40 });
              }
            });
            slider.addEventListener("input", apply);
            zoom.addEventListener("change", apply);
            stage.addEventListener("click", () => { if (mode === "blink") { clearInterval(timer); timer = null;
              showingActual = !showingActual; over.style.visibility = showingActual ? "" : "hidden";
              which.textContent = showingActual ? "actual" : "expected"; } });
            section.keyframeCompare = { setMode: (m) => { mode = m; apply(); } };
            apply();
          }
          window.keyframeVerifyReport = { ready: true };
        })();
        """#
}
