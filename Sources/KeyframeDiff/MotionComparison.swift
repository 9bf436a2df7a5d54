import KeyframeEngine
import KeyframeModel

/// Samples two versions of a node's tracks at every frame of its composition and keeps, per channel, the largest
/// difference and where it is.
struct MotionComparison {
    let correspondence: Correspondence
    let tolerance: Double
    let before: Document
    let after: Document
    /// Samples the newer document's clips to find where nested compositions show.
    let sampler: PoseSampler
    /// Where each nested composition's frames show, worked out once per composition.
    private let showings = Showings()

    /// Per nested composition id: per composition frame, the clip moments that show it.
    private final class Showings {
        var byComposition: [String: [Int: [MotionChange.ClipTime]]] = [:]
    }

    init(correspondence: Correspondence, tolerance: Double, before: Document, after: Document) {
        self.correspondence = correspondence
        self.tolerance = tolerance
        self.before = before
        self.after = after
        sampler = PoseSampler(document: after)
    }

    /// The motion changes of every matched node of every matched composition, in the newer document's order.
    func changes() -> [MotionChange] {
        var result: [MotionChange] = []
        for composition in after.compositions {
            guard let map = correspondence.nodes[composition.id],
                let old = before.compositions.first(where: { correspondence.compositions[$0.id] == composition.id })
            else { continue }
            let frames = max(Self.frameCount(old.duration), Self.frameCount(composition.duration))
            let oldNodes = Dictionary(old.nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let newNodes = Dictionary(composition.nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let reverse = Dictionary(map.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            for node in composition.nodes {
                guard let oldID = reverse[node.id], let oldNode = oldNodes[oldID] else { continue }
                let channels = compare(oldNode.tracks, node.tracks, frames: frames, composition: composition.id,
                                       kind: node.kind)
                let properties = compareHeld(oldNode.tracks, node.tracks, frames: frames, composition: composition.id)
                guard !channels.isEmpty || !properties.isEmpty else { continue }
                result.append(MotionChange(
                    composition: composition.id, compositionName: composition.name, node: node.id,
                    path: Correspondence.namePath(node, in: newNodes), channels: channels, properties: properties,
                    comparedFrames: frames))
            }
        }
        return result
    }

    static func frameCount(_ duration: Frames) -> Int {
        guard duration.value.isFinite, duration.value > 0 else { return 1 }
        return min(PoseLimits.frames, Int(duration.value.rounded(.up)))
    }

    // MARK: - Numeric channels

    /// Each channel's values at one frame: x and y for position and scale, one value otherwise.
    private func values(_ tracks: NodeTracks, _ channel: MotionChange.Channel, at frame: Frames) -> [Double] {
        switch channel {
        case .position:
            let p = tracks.position?.value(at: frame) ?? .zero
            return [p.x, p.y]
        case .rotation: return [tracks.rotation?.value(at: frame)?.value ?? 0]
        case .skew: return [tracks.skew?.value(at: frame)?.value ?? 0]
        case .scale:
            let s = tracks.scale?.value(at: frame) ?? .one
            return [s.x, s.y]
        case .alpha:
            let opacity = tracks.opacity?.value(at: frame) ?? 1
            let multiplier = tracks.color?.value(at: frame)?.alphaMultiplier ?? 1
            return [opacity * multiplier]
        }
    }

    /// The difference in the channel's unit: distance for position, percentage points for scale and alpha.
    private func difference(_ channel: MotionChange.Channel, _ a: [Double], _ b: [Double]) -> Double {
        switch channel {
        case .position:
            let dx = b[0] - a[0], dy = b[1] - a[1]
            return (dx * dx + dy * dy).squareRoot()
        case .rotation, .skew: return abs(b[0] - a[0])
        case .scale: return max(abs(b[0] - a[0]), abs(b[1] - a[1])) * 100
        case .alpha: return abs(b[0] - a[0]) * 100
        }
    }

    private func present(_ tracks: NodeTracks, _ channel: MotionChange.Channel) -> Bool {
        switch channel {
        case .position: return tracks.position != nil
        case .rotation: return tracks.rotation != nil
        case .skew: return tracks.skew != nil
        case .scale: return tracks.scale != nil
        case .alpha: return tracks.opacity != nil || tracks.color != nil
        }
    }

    private func compare(_ a: NodeTracks, _ b: NodeTracks, frames: Int, composition: String, kind: NodeKind)
        -> [MotionChange.ChannelDifference]
    {
        var result: [MotionChange.ChannelDifference] = []
        for channel in MotionChange.Channel.allCases where present(a, channel) || present(b, channel) {
            var largest = 0.0, at = 0, count = 0
            var before: [Double] = [], after: [Double] = []
            var series = MotionChange.Series(before: [], after: [], differing: [])
            for frame in 0..<frames {
                let time = Frames(Double(frame))
                let va = values(a, channel, at: time), vb = values(b, channel, at: time)
                series.before.append(va)
                series.after.append(vb)
                let d = difference(channel, va, vb)
                guard d.isFinite || !(va + vb).allSatisfy(\.isFinite) else { continue }
                if d > tolerance || d.isNaN {
                    count += 1
                    series.differing.append(frame)
                }
                if d > largest || (d.isNaN && !largest.isNaN) {
                    largest = d
                    at = frame
                    before = va
                    after = vb
                }
            }
            guard count > 0 else { continue }
            let source = channel == .alpha
                ? nil : SourceValues.at(Frames(Double(at)), before: a, after: b, format: self.after.source.format,
                                         kind: kind)
            result.append(MotionChange.ChannelDifference(
                channel: channel, largest: largest, frame: at, before: before, after: after, frames: count,
                clips: clipTimes(composition: composition, frame: at), source: source, series: series))
        }
        return result
    }

    // MARK: - Held properties (and colour and deform, compared at their interpolated values)

    private func compareHeld(_ a: NodeTracks, _ b: NodeTracks, frames: Int, composition: String)
        -> [MotionChange.PropertyDifference]
    {
        var result: [MotionChange.PropertyDifference] = []
        func check<V: Sendable & Hashable>(_ property: MotionChange.Property, _ ta: Track<V>?, _ tb: Track<V>?,
                                           fallback: V, mapped: (V) -> V = { $0 },
                                           equal: (V, V) -> Bool = { $0 == $1 }, describe: (V) -> String)
        {
            guard ta != nil || tb != nil else { return }
            firstDifference(property, frames: frames, composition: composition, into: &result, equal: equal,
                            describe: describe) { time in
                (mapped(ta?.heldValue(at: time) ?? fallback), tb?.heldValue(at: time) ?? fallback)
            }
        }
        check(.content, a.content, b.content, fallback: NodeContent.none, mapped: mapContent,
              describe: describe)
        check(.visible, a.visible, b.visible, fallback: true, describe: { $0 ? "shown" : "hidden" })
        check(.drawOrder, a.drawOrder, b.drawOrder, fallback: Int.min,
              describe: { $0 == Int.min ? "default" : "\($0)" })
        check(.blendMode, a.blendMode, b.blendMode, fallback: BlendMode.normal,
              describe: { "\($0.rawValue)" })
        check(.pivot, a.pivot, b.pivot, fallback: Vector2.zero,
              equal: { abs($0.x - $1.x) <= tolerance && abs($0.y - $1.y) <= tolerance },
              describe: { "(\(Correspondence.number($0.x)), \(Correspondence.number($0.y)))" })
        // Colour and deform interpolate: compared frame by frame at their interpolated values.
        interpolated(.color, a.color, b.color, frames: frames, composition: composition, into: &result,
                     fallback: ColorTransform.identity, equal: colorsEqual, describe: describe)
        check(.filters, a.filters, b.filters, fallback: [], describe: { $0.isEmpty ? "none" : "\($0.count) filter(s)" })
        interpolated(.deform, a.deform, b.deform, frames: frames, composition: composition, into: &result,
                     fallback: nil, equal: { $0 == $1 }, describe: { $0 == nil ? "none" : "deformed" })
        return result
    }

    private func interpolated<V: Interpolatable & Sendable & Hashable>(
        _ property: MotionChange.Property, _ ta: Track<V>?, _ tb: Track<V>?, frames: Int, composition: String,
        into result: inout [MotionChange.PropertyDifference], fallback: V?, equal: (V?, V?) -> Bool,
        describe: (V?) -> String)
    {
        guard ta != nil || tb != nil else { return }
        firstDifference(property, frames: frames, composition: composition, into: &result, equal: equal,
                        describe: describe) { time in (ta?.value(at: time) ?? fallback, tb?.value(at: time) ?? fallback) }
    }

    /// Compares the two versions' values of `property` at every frame (`values` reads both at a time) and records, when
    /// any frame differs, the first such frame with both values described and how many frames differ.
    private func firstDifference<V>(
        _ property: MotionChange.Property, frames: Int, composition: String,
        into result: inout [MotionChange.PropertyDifference], equal: (V, V) -> Bool, describe: (V) -> String,
        values: (Frames) -> (V, V))
    {
        var first: Int? = nil, count = 0
        var before = "", after = ""
        for frame in 0..<frames {
            let (va, vb) = values(Frames(Double(frame)))
            guard !equal(va, vb) else { continue }
            count += 1
            if first == nil {
                first = frame
                before = describe(va)
                after = describe(vb)
            }
        }
        if let first {
            result.append(MotionChange.PropertyDifference(
                property: property, firstFrame: first, frames: count, before: before, after: after,
                clips: clipTimes(composition: composition, frame: first)))
        }
    }

    /// Colours compared without their alpha multiplier (that is the alpha channel's), multipliers to the tolerance in
    /// percentage points, offsets in channel units.
    private func colorsEqual(_ a: ColorTransform?, _ b: ColorTransform?) -> Bool {
        let x = a ?? .identity, y = b ?? .identity
        let multipliers = [(x.redMultiplier, y.redMultiplier), (x.greenMultiplier, y.greenMultiplier),
                           (x.blueMultiplier, y.blueMultiplier)]
        let offsets = [(x.redOffset, y.redOffset), (x.greenOffset, y.greenOffset), (x.blueOffset, y.blueOffset),
                       (x.alphaOffset, y.alphaOffset)]
        return multipliers.allSatisfy { abs($0 - $1) * 100 <= tolerance } && offsets.allSatisfy { abs($0 - $1) <= tolerance }
    }

    private func describe(_ color: ColorTransform?) -> String {
        let c = color ?? .identity
        if c == .identity { return "none" }
        let n = Correspondence.number
        return "×(\(n(c.redMultiplier)), \(n(c.greenMultiplier)), \(n(c.blueMultiplier))) "
            + "+(\(n(c.redOffset)), \(n(c.greenOffset)), \(n(c.blueOffset)), \(n(c.alphaOffset)))"
    }

    /// The older content in the newer document's terms: sprites, meshes and compositions through their matches.
    private func mapContent(_ content: NodeContent) -> NodeContent {
        switch content {
        case .none: return .none
        case .sprite(let id): return .sprite(correspondence.sprites[id] ?? "\u{0}" + id)
        case .mesh(let id): return .mesh(correspondence.meshes[id] ?? "\u{0}" + id)
        case .composition(var instance):
            instance.composition = correspondence.compositions[instance.composition] ?? "\u{0}" + instance.composition
            return .composition(instance)
        }
    }

    private func describe(_ content: NodeContent) -> String {
        func sprite(_ id: String) -> String {
            let bare = id.hasPrefix("\u{0}") ? String(id.dropFirst()) : id
            let named = (after.assets.sprites.first { $0.id == bare } ?? before.assets.sprites.first { $0.id == bare })?.name
            return named ?? bare
        }
        switch content {
        case .none: return "nothing"
        case .sprite(let id): return "sprite \(sprite(id))"
        case .mesh(let id): return "mesh \(id.hasPrefix("\u{0}") ? String(id.dropFirst()) : id)"
        case .composition(let instance):
            let id = instance.composition.hasPrefix("\u{0}") ? String(instance.composition.dropFirst()) : instance.composition
            let name = (after.composition(id) ?? before.composition(id))?.name ?? id
            return "\(name) from frame \(Correspondence.number(instance.firstFrame.value)), \(instance.loop.rawValue)"
        }
    }

    // MARK: - Time

    /// Where `frame` of composition `id` (newer document) falls in the newer document's clips: the clips that play
    /// the composition itself, and, for a nested composition, the first frame of each clip where an instance shows
    /// that frame (through which instances, and on how many of the clip's frames).
    func clipTimes(composition id: String, frame: Int) -> [MotionChange.ClipTime] {
        let rate = after.frameRate.framesPerSecond
        let direct = after.clips.compactMap { clip -> MotionChange.ClipTime? in
            let local = Double(frame) - clip.start.value
            guard clip.composition == id, local >= 0, local < clip.duration.value else { return nil }
            return MotionChange.ClipTime(clip: clip.name, frame: Int(local.rounded(.down)),
                                         seconds: (local / rate * 1000).rounded() / 1000)
        }
        return direct + nestedTimes(composition: id, frame: frame)
    }

    /// The clip frames where an instance of nested composition `id` shows its frame `frame`, per clip and instance
    /// path, found by sampling each clip's pose (the engine's nested frame: first frame, loop mode, clock).
    private func nestedTimes(composition id: String, frame: Int) -> [MotionChange.ClipTime] {
        if let known = showings.byComposition[id] { return known[frame] ?? [] }
        let rate = after.frameRate.framesPerSecond
        // Per composition frame: per (clip, instance path) the first clip frame showing it and how many do.
        var found: [Int: [MotionChange.ClipTime]] = [:]
        for clip in after.clips where clip.composition != id {
            let count = min(DiffFrames.maximumFrames, Self.frameCount(clip.duration))
            var index: [String: (frame: Int, slot: Int)] = [:]
            for local in 0..<count {
                let pose = sampler.sample(clip: clip, time: Frames(Double(local)), collectNodes: true)
                for state in pose.nodes {
                    guard case .composition(let shown) = state.content, shown.composition == id,
                        let nested = state.childFrame, nested.isFinite
                    else { continue }
                    let shownFrame = Int((nested + 1e-9).rounded(.down))
                    let key = "\(shownFrame)>\(state.path)"
                    if let (at, slot) = index[key] { found[at]?[slot].count += 1; continue }
                    index[key] = (shownFrame, found[shownFrame, default: []].count)
                    found[shownFrame, default: []].append(MotionChange.ClipTime(
                        clip: clip.name, frame: local, seconds: (Double(local) / rate * 1000).rounded() / 1000,
                        through: instanceNames(state.path)))
                }
            }
        }
        showings.byComposition[id] = found
        return found[frame] ?? []
    }

    /// The names of the instance nodes along a pose path (`walker/3:arm/0>walker_arm/…` → `["arm #0"]`).
    private func instanceNames(_ path: String) -> [String] {
        path.split(separator: ">").compactMap { step -> String? in
            let parts = step.split(separator: "/", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            let compositionID = String(parts[0]), nodeID = String(parts[1])
            let composition = after.composition(compositionID)
            return composition?.nodes.first { $0.id == nodeID }?.name ?? nodeID
        }
    }
}

/// Bounds that keep a comparison finite whatever a damaged document says.
enum PoseLimits {
    /// The most frames of one composition compared (the importers' own timeline limit).
    static let frames = 100_000
}
