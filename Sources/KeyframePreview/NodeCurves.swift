import KeyframeEngine
import KeyframeModel

/// A node's transform and opacity tracks over a clip, sampled by the engine's own track evaluation
/// (``KeyframeModel/Track/value(at:)`` with each keyframe's easing), for the preview's graphs.
///
/// Nodes of nested compositions (symbols, movie clips, Flump movies, child armatures) are graphed per instance, on
/// the clip's time axis: at each sample the value is the node's track at the frame the instance shows then — the
/// nested frame ``PoseSampler`` computes (first frame, loop mode, parent or own clock, holds) — so the graph shows
/// the motion as it plays in the clip, loops and holds included. ``Nesting/frames`` holds that nested frame, and a
/// sample where the instance is not shown has no value (a gap).
public struct NodeCurves: Sendable, Hashable {
    /// One graphed quantity, e.g. `position.x`.
    public struct Curve: Sendable, Hashable {
        /// `position.x`, `position.y`, `rotation`, `scale.x`, `scale.y` or `opacity`.
        public var name: String
        /// Sample times in seconds from the clip's start.
        public var times: [Double]
        /// The values at ``times``; `nil` where the node is not shown (a nested instance that is off stage).
        public var values: [Double?]
        /// The keyframes inside the clip: (seconds from the clip's start, value).
        public var keys: [KeyPoint]
    }

    /// Where a node of a nested composition plays.
    public struct Nesting: Sendable, Hashable {
        /// The names of the instance nodes from the clip's composition down to the one that shows the node's
        /// composition (`["walker", "head"]`).
        public var instances: [String]
        /// The id of the node's composition.
        public var composition: String
        /// The composition's frame the instance shows at each sample time (`nil` where it is not shown).
        public var frames: [Double?]
    }

    /// How a track travels from a keyframe to the next: what the timeline draws between two keyframe ticks.
    public enum Segment: Int, Sendable, Hashable {
        /// The value holds until the next keyframe (or this is the last one).
        case hold = 0
        /// Linear interpolation, in whatever form the source wrote it (``Easing/isLinear``).
        case linear = 1
        /// Any other easing (Bézier, Flash or Flump quadratic, …).
        case eased = 2

        init(_ easing: Easing, last: Bool) {
            if last { self = .hold; return }
            switch easing {
            case .hold: self = .hold
            case _ where easing.isLinear: self = .linear
            default: self = .eased
            }
        }
    }

    /// A keyframe's place on a graph.
    public struct KeyPoint: Sendable, Hashable {
        public var seconds: Double
        public var value: Double
        /// How the track leaves this keyframe.
        public var segment: Segment = .hold
        /// The easing of the segment that leaves this keyframe, in words (``EasingName``).
        public var easing: String = "hold"
    }

    /// The node's id.
    public var id: String
    /// The node's name.
    public var name: String
    /// The node's kind (`layer`, `instance`, `bone`, `slot`, `group`), shown beside the name.
    public var kind: String
    /// The parent node's ``id``, or `nil` for a top-level node of its composition.
    public var parent: String? = nil
    /// The curves, in the order position, rotation, scale, opacity; empty for a node without those tracks (a layer
    /// that only holds other nodes), which the timeline still lists.
    public var curves: [Curve]
    /// Whether any curve changes over the clip.
    public var isAnimated: Bool
    /// For a node of a nested composition: the instance it plays in; `nil` for a node of the clip's composition.
    public var nesting: Nesting?

    /// The most samples drawn per curve.
    public static let maximumSamples = 480
    /// The most nested instances graphed per clip (the first ones in tree order), so a crowd of instances cannot
    /// blow up the page.
    public static let maximumInstances = 64

    /// Every node of `clip`'s composition with curves for its position, rotation, scale and opacity tracks, sampled
    /// four times per document frame (at most ``maximumSamples`` per curve), then the same for the nodes of every
    /// nested composition instance shown during the clip (see ``NodeCurves``).
    public static func make(document: Document, clip: Clip) -> [NodeCurves] {
        guard let composition = document.composition(clip.composition) else { return [] }
        let rate = document.frameRate.framesPerSecond
        let duration = max(clip.duration.value, 0)
        let count = min(maximumSamples, max(2, Int((duration * 4).rounded(.up)) + 1))
        let localFrames = (0..<count).map { duration * Double($0) / Double(count - 1) }
        let times = localFrames.map { round($0 / rate) }
        func frames(_ local: Double) -> Frames { Frames(clip.start.value + local) }
        func inClip<V>(_ track: Track<V>, _ value: (V) -> Double) -> [KeyPoint] {
            track.keyframes.enumerated().compactMap { index, key in
                let local = key.frame.value - clip.start.value
                guard local >= -1e-9, local <= duration + 1e-9 else { return nil }
                let last = index == track.keyframes.count - 1
                return KeyPoint(seconds: round(local / rate), value: round(value(key.value)),
                                segment: Segment(key.easing, last: last), easing: EasingName.of(key.easing, last: last))
            }
        }
        var result: [NodeCurves] = []
        for node in composition.nodes {
            let tracks = node.tracks
            var curves: [Curve] = []
            func add<V: Interpolatable>(_ name: String, _ track: Track<V>?, _ value: @escaping (V) -> Double) {
                guard let track, !track.keyframes.isEmpty else { return }
                let values: [Double?] = localFrames.map { round(track.value(at: frames($0)).map(value) ?? 0) }
                curves.append(Curve(name: name, times: times, values: values, keys: inClip(track, value)))
            }
            add("position.x", tracks.position) { $0.x }
            add("position.y", tracks.position) { $0.y }
            add("rotation", tracks.rotation) { $0.value }
            add("scale.x", tracks.scale) { $0.x }
            add("scale.y", tracks.scale) { $0.y }
            add("opacity", tracks.opacity) { $0 }
            result.append(NodeCurves(id: node.id, name: node.name, kind: node.kind.rawValue, parent: node.parent,
                                     curves: curves, isAnimated: isAnimated(curves)))
        }
        return result + nested(document: document, clip: clip, localFrames: localFrames, times: times)
    }

    private static func isAnimated(_ curves: [Curve]) -> Bool {
        curves.contains { curve in
            let shown = curve.values.compactMap { $0 }
            return shown.contains { $0 != shown[0] }
        }
    }

    /// One instance of a nested composition, as ``PoseSampler`` names it: `<parent path>/<node id>>` + composition id.
    private struct Instance {
        var path: String
        var instanceNode: String
        var composition: String
        var names: [String]
    }

    /// Every instance of a nested composition reachable from `id` (tree order, at most ``maximumInstances``).
    private static func instances(in document: Document, composition id: String, path: String, names: [String],
                                  depth: Int, into found: inout [Instance]) {
        guard depth < PoseSampler.maximumDepth, let composition = document.composition(id) else { return }
        for node in composition.nodes {
            guard let content = node.tracks.content else { continue }
            var seen: Set<String> = []
            for key in content.keyframes {
                guard case .composition(let instance) = key.value, seen.insert(instance.composition).inserted else { continue }
                guard found.count < maximumInstances else { return }
                let nodePath = path + "/" + node.id
                let entry = Instance(path: nodePath + ">" + instance.composition, instanceNode: nodePath,
                                     composition: instance.composition, names: names + [node.name])
                found.append(entry)
                instances(in: document, composition: instance.composition, path: entry.path, names: entry.names,
                          depth: depth + 1, into: &found)
            }
        }
    }

    /// Curves of the nodes of nested compositions, per instance, at the nested frames ``PoseSampler`` shows.
    private static func nested(document: Document, clip: Clip, localFrames: [Double], times: [Double]) -> [NodeCurves] {
        var found: [Instance] = []
        instances(in: document, composition: clip.composition, path: clip.composition, names: [], depth: 0, into: &found)
        guard !found.isEmpty else { return [] }
        // The nested frame of every instance at every sample, from the engine's own pose.
        let sampler = PoseSampler(document: document)
        var nestedFrames = Array(repeating: [Double?](repeating: nil, count: localFrames.count), count: found.count)
        for (index, local) in localFrames.enumerated() {
            let pose = sampler.sample(clip: clip, time: Frames(local), collectNodes: true)
            var states: [String: Pose.NodeState] = [:]
            for state in pose.nodes { states[state.path] = state }
            for (i, instance) in found.enumerated() {
                guard let state = states[instance.instanceNode], case .composition(let shown) = state.content,
                    shown.composition == instance.composition, let frame = state.childFrame
                else { continue }
                nestedFrames[i][index] = frame
            }
        }
        var result: [NodeCurves] = []
        for (i, instance) in found.enumerated() {
            let shownFrames = nestedFrames[i]
            guard shownFrames.contains(where: { $0 != nil }), let composition = document.composition(instance.composition)
            else { continue }
            let length = composition.duration.value
            for node in composition.nodes {
                let tracks = node.tracks
                var curves: [Curve] = []
                func add<V: Interpolatable>(_ name: String, _ track: Track<V>?, _ value: @escaping (V) -> Double) {
                    guard let track, !track.keyframes.isEmpty else { return }
                    let values: [Double?] = shownFrames.map { frame in
                        frame.map { round(track.value(at: Frames($0)).map(value) ?? 0) }
                    }
                    let last = track.keyframes.count - 1
                    let keys = keyCrossings(track.keyframes.enumerated().map { index, key in
                        (key.frame.value, value(key.value), Segment(key.easing, last: index == last),
                         EasingName.of(key.easing, last: index == last))
                    }, frames: shownFrames, times: times, length: length)
                    curves.append(Curve(name: name, times: times, values: values, keys: keys))
                }
                add("position.x", tracks.position) { $0.x }
                add("position.y", tracks.position) { $0.y }
                add("rotation", tracks.rotation) { $0.value }
                add("scale.x", tracks.scale) { $0.x }
                add("scale.y", tracks.scale) { $0.y }
                add("opacity", tracks.opacity) { $0 }
                result.append(NodeCurves(
                    id: instance.path + "/" + node.id, name: node.name, kind: node.kind.rawValue,
                    parent: node.parent.map { instance.path + "/" + $0 }, curves: curves,
                    isAnimated: isAnimated(curves),
                    nesting: Nesting(instances: instance.names, composition: instance.composition,
                                     frames: shownFrames.map { $0.map(round) })))
            }
        }
        return result
    }

    /// Where on the clip's time axis the nested playhead passes each keyframe: between two samples whose nested
    /// frames are `a` and `b`, a keyframe at nested frame `k` is placed in proportion to how far the playhead has
    /// run — forwards, backwards, or across a wrap of a looping composition of `length` frames.
    static func keyCrossings(_ keys: [(frame: Double, value: Double, segment: Segment)], frames: [Double?],
                             times: [Double], length: Double) -> [KeyPoint] {
        keyCrossings(keys.map { ($0.frame, $0.value, $0.segment, "\($0.segment)") }, frames: frames, times: times,
                     length: length)
    }

    /// ``keyCrossings(_:frames:times:length:)`` with each keyframe's easing named.
    static func keyCrossings(_ keys: [(frame: Double, value: Double, segment: Segment, easing: String)],
                             frames: [Double?], times: [Double], length: Double) -> [KeyPoint] {
        var points: [KeyPoint] = []
        func mark(_ key: (frame: Double, value: Double, segment: Segment, easing: String), at seconds: Double) {
            points.append(KeyPoint(seconds: round(seconds), value: round(key.value), segment: key.segment,
                                   easing: key.easing))
        }
        for index in frames.indices {
            guard let b = frames[index] else { continue }
            // Where the instance appears (or the clip starts), a keyframe on the shown frame is marked there.
            guard index > 0, let a = frames[index - 1] else {
                for key in keys where abs(key.frame - b) < 1e-9 { mark(key, at: times[index]) }
                continue
            }
            let t0 = times[index - 1], dt = times[index] - times[index - 1]
            let d = b - a
            guard d != 0 else { continue }
            if abs(d) <= length / 2 || length <= 0 {
                for key in keys {
                    if d > 0, key.frame > a, key.frame <= b { mark(key, at: t0 + (key.frame - a) / d * dt) }
                    if d < 0, key.frame < a, key.frame >= b { mark(key, at: t0 + (a - key.frame) / -d * dt) }
                }
            } else if d < 0 {
                // Forwards across the end of a loop: a → length, then 0 → b.
                let run = (length - a) + b
                for key in keys {
                    if key.frame > a, key.frame < length { mark(key, at: t0 + (key.frame - a) / run * dt) }
                    if key.frame >= 0, key.frame <= b { mark(key, at: t0 + (length - a + key.frame) / run * dt) }
                }
            } else {
                // Backwards across the start of a reversed loop: a → 0, then length → b.
                let run = a + (length - b)
                for key in keys {
                    if key.frame < a, key.frame >= 0 { mark(key, at: t0 + (a - key.frame) / run * dt) }
                    if key.frame >= b, key.frame < length { mark(key, at: t0 + (a + length - key.frame) / run * dt) }
                }
            }
        }
        return points.sorted { $0.seconds < $1.seconds }
    }

    /// Six significant decimals: plenty for a graph, and a much smaller page.
    static func round(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        return (value * 1e6).rounded() / 1e6
    }
}
