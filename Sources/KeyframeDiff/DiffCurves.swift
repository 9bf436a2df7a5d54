import KeyframeJSON

/// The `diff` page's curve of one changed channel: both versions over the node's composition on one plot (the older
/// dashed, the newer solid; x and y of position and scale as two pairs of lines), the frames that differ marked in
/// red under the plot, a tick per frame, and the frame of the largest difference. The page's script reads the
/// values from `data-values` for the hover readout and moves the playhead when a clip is scrubbed.
enum DiffCurves {
    /// The most points drawn per line (longer compositions are sampled every few frames).
    static let maximumPoints = 600

    static let width = 660.0, height = 190.0
    static let left = 80.0, right = 12.0, top = 20.0, bottom = 30.0

    /// The SVG figure for `channel` of `change`, or `""` when the channel has no series.
    static func figure(_ change: MotionChange, _ channel: MotionChange.ChannelDifference, index: Int) -> String {
        guard let series = channel.series, !series.after.isEmpty else { return "" }
        let t = HTMLEscape.text, n = Correspondence.number
        let frames = series.after.count
        let step = max(1, (frames + maximumPoints - 1) / maximumPoints)
        let sampled = stride(from: 0, to: frames, by: step).map { $0 } + (frames > 1 && (frames - 1) % step != 0 ? [frames - 1] : [])
        let names = channel.channel == .position || channel.channel == .scale ? ["x", "y"] : [channel.channel.rawValue]
        let scale = channel.channel == .scale || channel.channel == .alpha ? 100.0 : 1.0
        func value(_ side: [[Double]], _ frame: Int, _ component: Int) -> Double {
            let v = side[frame]
            return (component < v.count ? v[component] : v.first ?? 0) * scale
        }
        // Each component (x, y) in a band of its own with its own range, so a small change is not flattened by the
        // distance between x and y.
        let ranges: [(lo: Double, hi: Double)] = names.indices.map { c in
            var lo = Double.infinity, hi = -Double.infinity
            for frame in sampled {
                for v in [value(series.before, frame, c), value(series.after, frame, c)] where v.isFinite {
                    lo = min(lo, v); hi = max(hi, v)
                }
            }
            if !(hi > lo) { let m = lo.isFinite ? lo : 0; lo = m - 1; hi = m + 1 }
            return (lo, hi)
        }
        let plotW = width - left - right, plotH = height - top - bottom
        let band = plotH / Double(names.count), gap = names.count > 1 ? 6.0 : 0
        let span = Double(max(1, frames - 1))
        func x(_ frame: Int) -> Double { left + Double(frame) / span * plotW }
        func y(_ v: Double, _ c: Int) -> Double {
            let (lo, hi) = ranges[c]
            return top + Double(c) * band + gap / 2 + (1 - (v - lo) / (hi - lo)) * (band - gap)
        }
        func f(_ v: Double) -> String { JSONWriter.format((v * 10).rounded() / 10) }
        let unit = channel.channel == .scale || channel.channel == .alpha ? "%" : channel.channel.unit

        // The values for the page's hover readout: frame numbers and both versions' values, rounded.
        func rounded(_ v: Double) -> JSONValue { v.isFinite ? .number((v * 1000).rounded() / 1000) : .null }
        let data: JSONValue = [
            "frames": .array(sampled.map { .number(Double($0)) }),
            "names": .array(names.map { .string($0) }),
            "unit": .string(unit),
            "before": .array(names.indices.map { c in .array(sampled.map { rounded(value(series.before, $0, c)) }) }),
            "after": .array(names.indices.map { c in .array(sampled.map { rounded(value(series.after, $0, c)) }) }),
            "differing": .array(series.differing.prefix(5000).map { .number(Double($0)) }),
            "left": .number(left), "plot": .number(plotW), "span": .number(span),
        ]
        let json = String(decoding: JSONWriter.writeCompact(data), as: UTF8.self)
        var svg = "<figure class=\"curve\" id=\"curve-\(index)\" data-composition=\"\(t(change.composition))\" "
            + "data-node=\"\(t(change.displayName))\" data-channel=\"\(channel.channel.rawValue)\" data-values=\"\(t(json))\">"
            + "<svg width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" "
            + "aria-label=\"\(t(change.displayName)) \(channel.channel.rawValue), before and after\">"
            + "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(plotW))\" height=\"\(f(plotH))\" fill=\"#fff\" stroke=\"#ccc\"/>"
            + "<text x=\"\(f(left))\" y=\"13\">\(t(change.displayName)) — \(channel.channel.rawValue) (\(t(unit)))</text>"
        for c in names.indices {
            let prefix = names.count > 1 ? names[c] + " " : ""
            svg += "<text x=\"\(f(left - 4))\" y=\"\(f(y(ranges[c].hi, c) + 4))\" text-anchor=\"end\">\(t(prefix + n(ranges[c].hi)))</text>"
                + "<text x=\"\(f(left - 4))\" y=\"\(f(y(ranges[c].lo, c)))\" text-anchor=\"end\">\(t(prefix + n(ranges[c].lo)))</text>"
            if c > 0 {
                svg += "<line x1=\"\(f(left))\" x2=\"\(f(left + plotW))\" y1=\"\(f(top + Double(c) * band))\" "
                    + "y2=\"\(f(top + Double(c) * band))\" stroke=\"#e5e5ea\"/>"
            }
        }
        // A tick per frame (every few on long compositions), numbered at a readable interval.
        let tickEvery = max(1, frames / 120), labelEvery = Self.labelInterval(frames)
        for frame in stride(from: 0, to: frames, by: tickEvery) {
            let long = frame % labelEvery == 0
            svg += "<line x1=\"\(f(x(frame)))\" x2=\"\(f(x(frame)))\" y1=\"\(f(top + plotH))\" y2=\"\(f(top + plotH + (long ? 5 : 3)))\" stroke=\"#999\"/>"
            if long { svg += "<text x=\"\(f(x(frame)))\" y=\"\(f(height - 11))\" text-anchor=\"middle\">\(frame)</text>" }
        }
        // The differing frames: a red mark under the plot for each run.
        var runs: [(Int, Int)] = []
        for frame in series.differing {
            if let last = runs.last, last.1 == frame - 1 { runs[runs.count - 1].1 = frame } else { runs.append((frame, frame)) }
        }
        let half = plotW / span / 2
        for (first, last) in runs.prefix(2000) {
            let x0 = max(left, x(first) - half), x1 = min(left + plotW, x(last) + half)
            svg += "<rect class=\"differs\" x=\"\(f(x0))\" y=\"\(f(top + plotH + 6))\" width=\"\(f(max(1.5, x1 - x0)))\" height=\"4\" fill=\"#d7261e\"/>"
        }
        svg += "<line class=\"largest\" x1=\"\(f(x(channel.frame)))\" x2=\"\(f(x(channel.frame)))\" y1=\"\(f(top))\" "
            + "y2=\"\(f(top + plotH))\" stroke=\"#d7261e\" stroke-dasharray=\"2 3\"/>"
        let colours = ["#0a64d8", "#1d9a3a"]
        for c in names.indices {
            for (side, dashed) in [(series.before, true), (series.after, false)] {
                let points = sampled.compactMap { frame -> String? in
                    let v = value(side, frame, c)
                    return v.isFinite ? "\(f(x(frame))),\(f(y(v, c)))" : nil
                }.joined(separator: " ")
                svg += "<polyline class=\"\(dashed ? "before" : "after")\" points=\"\(points)\" fill=\"none\" "
                    + "stroke=\"\(colours[c % colours.count])\" stroke-width=\"\(dashed ? "1.5" : "1.8")\""
                    + (dashed ? " stroke-dasharray=\"5 3\" opacity=\"0.75\"" : "") + "/>"
            }
        }
        let legend = names.count > 1 ? "x (blue) above, y (green) below, each on its own scale; " : ""
        svg += "<text x=\"\(f(width - right))\" y=\"13\" text-anchor=\"end\" class=\"readout\"></text>"
            + "<line class=\"hover\" y1=\"\(f(top))\" y2=\"\(f(top + plotH))\" stroke=\"#555\" visibility=\"hidden\"/>"
            + "<line class=\"playhead\" y1=\"\(f(top))\" y2=\"\(f(top + plotH))\" stroke=\"#e00\" visibility=\"hidden\"/>"
            + "</svg><figcaption>\(legend)dashed before, solid after; red under the plot: the "
            + "\(series.differing.count) frame(s) that differ; dotted: frame \(channel.frame), the largest difference"
            + "</figcaption></figure>\n"
        return svg
    }

    /// A frame-number interval that labels a timeline of `frames` frames about ten times.
    static func labelInterval(_ frames: Int) -> Int {
        for candidate in [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000] where frames / candidate <= 12 {
            return candidate
        }
        return 20000
    }
}
