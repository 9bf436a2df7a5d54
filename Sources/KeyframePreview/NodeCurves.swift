import KeyframeEngine
import KeyframeModel

/// A node's transform and opacity tracks over a clip, sampled by the engine's own track evaluation
/// (``KeyframeModel/Track/value(at:)`` with each keyframe's easing), for the preview's graphs.
public struct NodeCurves: Sendable, Hashable {
    /// One graphed quantity, e.g. `position.x`.
    public struct Curve: Sendable, Hashable {
        /// `position.x`, `position.y`, `rotation`, `scale.x`, `scale.y` or `opacity`.
        public var name: String
        /// Sample times in seconds from the clip's start.
        public var times: [Double]
        /// The values at ``times``.
        public var values: [Double]
        /// The keyframes inside the clip: (seconds from the clip's start, value).
        public var keys: [KeyPoint]
    }

    /// A keyframe's place on a graph.
    public struct KeyPoint: Sendable, Hashable {
        public var seconds: Double
        public var value: Double
    }

    /// The node's id.
    public var id: String
    /// The node's name.
    public var name: String
    /// The node's kind (`layer`, `instance`, `bone`, `slot`, `group`), shown beside the name.
    public var kind: String
    /// The curves, in the order position, rotation, scale, opacity.
    public var curves: [Curve]
    /// Whether any curve changes over the clip.
    public var isAnimated: Bool

    /// The most samples drawn per curve.
    public static let maximumSamples = 480

    /// Curves for every node of `clip`'s composition that has a position, rotation, scale or opacity track, sampled
    /// four times per document frame (at most ``maximumSamples`` per curve).
    public static func make(document: Document, clip: Clip) -> [NodeCurves] {
        guard let composition = document.composition(clip.composition) else { return [] }
        let rate = document.frameRate.framesPerSecond
        let duration = max(clip.duration.value, 0)
        let count = min(maximumSamples, max(2, Int((duration * 4).rounded(.up)) + 1))
        let localFrames = (0..<count).map { duration * Double($0) / Double(count - 1) }
        let times = localFrames.map { round($0 / rate) }
        func frames(_ local: Double) -> Frames { Frames(clip.start.value + local) }
        func inClip<V>(_ track: Track<V>, _ value: (V) -> Double) -> [KeyPoint] {
            track.keyframes.compactMap { key in
                let local = key.frame.value - clip.start.value
                guard local >= -1e-9, local <= duration + 1e-9 else { return nil }
                return KeyPoint(seconds: round(local / rate), value: round(value(key.value)))
            }
        }
        var result: [NodeCurves] = []
        for node in composition.nodes {
            let tracks = node.tracks
            var curves: [Curve] = []
            func add<V: Interpolatable>(_ name: String, _ track: Track<V>?, _ value: @escaping (V) -> Double) {
                guard let track, !track.keyframes.isEmpty else { return }
                let values = localFrames.map { round(track.value(at: frames($0)).map(value) ?? 0) }
                curves.append(Curve(name: name, times: times, values: values, keys: inClip(track, value)))
            }
            add("position.x", tracks.position) { $0.x }
            add("position.y", tracks.position) { $0.y }
            add("rotation", tracks.rotation) { $0.value }
            add("scale.x", tracks.scale) { $0.x }
            add("scale.y", tracks.scale) { $0.y }
            add("opacity", tracks.opacity) { $0 }
            guard !curves.isEmpty else { continue }
            let animated = curves.contains { curve in curve.values.contains { $0 != curve.values[0] } }
            result.append(NodeCurves(id: node.id, name: node.name, kind: node.kind.rawValue, curves: curves,
                                     isAnimated: animated))
        }
        return result
    }

    /// Six significant decimals: plenty for a graph, and a much smaller page.
    static func round(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        return (value * 1e6).rounded() / 1e6
    }
}
