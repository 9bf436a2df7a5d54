import ArgumentParser
import Foundation
import KeyframeImport
import KeyframeJSON
import KeyframeModel

/// `keyframe inspect`: summarises an export.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print format, version, frame rate, size, clips, node/track/sprite counts and diagnostics.")

    @Argument(help: "The export to inspect.", completion: .file())
    var input: String

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @OptionGroup var scaleFactor: ScaleFactorOption

    @Flag(help: "Print, per Lottie profile and clip, what a Lottie export keeps exactly, approximates or drops (writes nothing).")
    var lottieReport = false

    func run() throws {
        let loaded = try InputDocument.load(input, options: ImportOptions(scaleFactor: scaleFactor.value,
                                                                          allowMissingImages: true))
        let document = loaded.document
        if lottieReport { return try printLottieReport(loaded) }
        let summary = Summary(document)
        // JSON escapes by its own rules; text goes through the terminal rule.
        if json { try Output.report(JSONWriter.write(summary.json)) } else { try Output.out(summary.text) }
    }
}

/// What `inspect` reports, computed once for both output forms.
struct Summary {
    let document: Document

    init(_ document: Document) { self.document = document }

    var json: JSONValue {
        let rate = document.frameRate
        var object: JSONObject = [
            "name": .string(document.name),
            "format": .string(document.source.format.rawValue),
            "frameRate": .number(rate.framesPerSecond),
            "compositions": .number(Double(document.compositions.count)),
            "nodes": .number(Double(document.nodeCount)),
            "tracks": .number(Double(document.trackCount)),
            "keyframes": .number(Double(document.keyframeCount)),
            "sprites": .number(Double(document.assets.sprites.count)),
            "images": .array(document.assets.images.map { .string($0.path) }),
            "clips": .array(document.clips.map { clip in
                ["name": .string(clip.name), "startFrame": .number(clip.start.value),
                 "frames": .number(clip.duration.value), "seconds": .number(rate.secondsValue(for: clip.duration)),
                 "loopCount": .number(Double(clip.loopCount))]
            }),
            "diagnostics": .array(document.diagnostics.map(\.json)),
        ]
        if let version = document.source.formatVersion { object["formatVersion"] = .string(version) }
        if let tool = document.source.tool { object["tool"] = .string(tool) }
        if let version = document.source.toolVersion { object["toolVersion"] = .string(version) }
        if let variant = document.source.variant { object["variant"] = .string(variant) }
        if let stage = document.stage { object["stage"] = stage.json }
        return .object(object)
    }

    var text: String {
        let rate = document.frameRate
        var lines: [String] = []
        var format = document.source.format.rawValue
        if let variant = document.source.variant {
            format += document.source.format == .flump ? " (\(variant))" : " (\(variant) keys)"
        }
        lines.append("name:         \(document.name)")
        lines.append("format:       \(format)")
        var versions: [String] = []
        if let version = document.source.formatVersion { versions.append("format \(version)") }
        if let tool = document.source.tool { versions.append(tool) }
        if let version = document.source.toolVersion { versions.append(version) }
        lines.append("version:      \(versions.isEmpty ? "unknown" : versions.joined(separator: ", "))")
        lines.append("frame rate:   \(JSONWriter.format(rate.framesPerSecond)) fps")
        if let stage = document.stage {
            lines.append("size:         \(JSONWriter.format(stage.width))×\(JSONWriter.format(stage.height)) px")
        } else {
            lines.append("size:         not defined by the export")
        }
        lines.append("compositions: \(document.compositions.count)")
        lines.append("nodes:        \(document.nodeCount)")
        lines.append("tracks:       \(document.trackCount) (\(document.keyframeCount) keyframes)")
        lines.append("sprites:      \(document.assets.sprites.count) in \(document.assets.images.count) image(s)")
        lines.append("clips:        \(document.clips.count)")
        for clip in document.clips {
            let seconds = rate.secondsValue(for: clip.duration)
            let loop = clip.loopCount == 0 ? "loops" : "plays \(clip.loopCount)×"
            lines.append("  \(clip.name): frames \(JSONWriter.format(clip.start.value))–\(JSONWriter.format(clip.start.value + clip.duration.value - 1)), \(JSONWriter.format(clip.duration.value)) frames, \(String(format: "%.3f", seconds)) s, \(loop)")
        }
        lines.append("diagnostics:  \(document.diagnostics.count)")
        for diagnostic in document.diagnostics { lines.append("  \(diagnostic)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
