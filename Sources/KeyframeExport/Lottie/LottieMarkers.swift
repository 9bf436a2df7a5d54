import KeyframeJSON
import KeyframeModel
import KeyframeRender

/// Lottie markers (`markers`: name `cm`, start frame `tm`, length `dr`) for a document's labels, so that apps can
/// `play(fromMarker:toMarker:)` (lottie-ios), `setMinAndMaxFrame(markerName)` (lottie-android) or
/// `goToAndStop(markerName)` (lottie-web).
///
/// A label is a clip of the model: an Animate frame label, a Flump label (`<movie>:<label>`), a DragonBones
/// animation. A clip's own file marks every other clip of the same composition whose frames lie within it, at its
/// frames relative to the file's first frame (the whole-timeline clip of an Animate export marks each label; a Flump
/// movie marks its labels, named without the `<movie>:` prefix). The single file of an export
/// (``LottieExportSettings/singleFile``) marks every clip it holds by its full name.
enum LottieMarkers {
    /// One marker.
    struct Marker: Equatable {
        var name: String
        /// First frame, in the file's frames.
        var start: Double
        /// Length in frames.
        var duration: Double

        var json: JSONValue {
            .object(["cm": .string(name), "tm": .number(start), "dr": .number(duration)])
        }
    }

    /// How many frames clip `clip` has in a Lottie file (the frames `keyframe render` draws of it).
    static func frameCount(_ clip: Clip, document: Document) -> Int {
        let plans = try? FramePlan.plans(for: clip, documentRate: document.frameRate,
                                         fps: document.frameRate.framesPerSecond, selection: .all)
        return max(plans?.count ?? Int(clip.duration.value.rounded(.up)), 1)
    }

    /// Whether `inner` is a label within `outer`: the same composition, every frame of `inner` inside `outer`.
    static func contains(_ outer: Clip, _ inner: Clip) -> Bool {
        outer.composition == inner.composition && inner.start.value >= outer.start.value - 1e-9
            && inner.start.value + inner.duration.value <= outer.start.value + outer.duration.value + 1e-9
    }

    /// The markers of `clip`'s own file: every other clip of the document within it.
    static func markers(of clip: Clip, document: Document) -> [Marker] {
        var result: [Marker] = []
        for other in document.clips where other.name != clip.name && contains(clip, other) {
            let prefix = clip.name + ":"
            let name = other.name.hasPrefix(prefix) && other.name.count > prefix.count
                ? String(other.name.dropFirst(prefix.count)) : other.name
            result.append(Marker(name: name, start: other.start.value - clip.start.value,
                                 duration: Double(frameCount(other, document: document))))
        }
        return result
    }

    /// Whether lottie-web 5.13 finds a marker named `name` by that name. Its `markerParser` reads `cm` as JSON first,
    /// then as lines of `key:value` (a line split at `:` into exactly two parts), and only otherwise as the name:
    /// `12`, `true`, `"x"` or `robot:hop` come out as data without a `name`.
    static func lottieWebReadsName(_ name: String) -> Bool {
        if (try? JSONParser.parse(Array(name.utf8))) != nil { return false }
        return !name.components(separatedBy: "\r\n").contains { $0.split(separator: ":", omittingEmptySubsequences: false).count == 2 }
    }

    /// The warning for a marker lottie-web cannot find by name.
    static func nameWarning(_ name: String) -> Diagnostic {
        Diagnostic(severity: .warning, code: "lottie-marker-name",
                   message: "lottie-web reads the marker name \"\(name)\" as data (JSON, or a "
                       + "key:value line), so goToAndStop(\"\(name)\") does not find it there; lottie-ios, "
                       + "lottie-android and rlottie read the name as written",
                   path: name)
    }
}
