import Foundation
import KeyframeEngine
import KeyframeJSON
import KeyframeModel

/// A layer's transform written from its node's own tracks, keyed at the source's keyframes with the source's easing
/// (docs/lottie.md, "Keyframes and tolerances"), instead of sampled per frame and reduced.
///
/// The model's local transform is `T(position) · R(rotation) · K(skew) · S(scale) · T(−pivot)`; a Lottie layer's is
/// `T(p) · R(r) · Sk · S(s/100) · T(−a)`, the same order. So, for a node without skew whose transform is the product
/// of its own tracks (no skeleton solving: no IK, every bone inherits everything) and whose pivot is constant, each
/// track is one Lottie property: position → `p`, rotation → `r` (degrees), scale → `s` (percent), pivot → `a`. What
/// the layer adds around the node is folded in without changing any easing, because it is affine in each track's
/// value: the asset's base (the canvas framing or a precomp's content shift: a uniform scale σ and a translation,
/// only for top-level nodes) maps position to `b + σ·p` and scale to `σ·s`; the picture's placement (its origin o
/// and the atlas resolution k) maps scale to `s·k` and the anchor to `(pivot − o)/k`.
///
/// Each property is keyed by ``CASourceKeys`` (the decision the Core Animation exporter makes: linear, hold, cubic
/// Bézier, Flash's and Flump's quadratics raised to cubics, unsampled Bézier paths, cut at the layer's range); a
/// property whose track has an easing Lottie cannot say exactly (DragonBones' sampled curves, springs) is sampled at
/// the layer's keys and reduced as before, on its own.
struct LottieSourceTransform {
    let tracks: NodeTracks
    /// A key's time on the asset's axis is its local frame minus this.
    let offset: Double
    /// Local frames of the layer's keys (first and last bound the range).
    let locals: [Double]
    /// The asset base's uniform scale and translation (identity for a node with a parent node).
    let baseScale: Double
    let baseShift: Vector2
    /// The picture's placement inside the layer: origin and atlas-resolution scale (zero and one for nulls).
    let origin: Vector2
    let resolution: Vector2
    /// Whether unit scale is written as ``LottieClipBuilder/unitScale`` (portable image layers, for rlottie).
    let nudgesUnitScale: Bool
    /// A constant skew k (degrees), written as `sk` = k with the y scale times cos k (`full` only; 0: none).
    let skew: Double

    /// The source form of a layer, or `nil` when the layer must be sampled: the node has skew, a changing pivot, or
    /// a skeleton places it; a key's local frame does not advance with its time (reversed or held nested time,
    /// ranks with gaps); the base or placement is not a uniform scale and translation.
    ///
    /// With `constantSkew` (the `full` profile) a skew that never changes is kept: the model's `K(k) · S` is
    /// `[[sx, −sin k · sy], [0, cos k · sy]]`, Lottie's `X(−tan sk) · S′` with `sk` = k and the y scale times cos k —
    /// still the scale track times a constant, so its easing stays exact.
    static func make(node: Node, composition: Composition, keys: [(time: Double, local: Double)], base: Matrix2D?,
                     placement: Matrix2D, nudgesUnitScale: Bool, constantSkew: Bool = false) -> LottieSourceTransform? {
        guard keys.count > 1 else { return nil }
        if !composition.ik.isEmpty || composition.nodes.contains(where: { !($0.bone?.inheritsEverything ?? true) }) {
            return nil
        }
        let tracks = node.tracks
        var skew = 0.0
        if let track = tracks.skew, track.keyframes.contains(where: { abs($0.value.value) > 1e-12 }) {
            let k = track.keyframes[0].value.value
            guard constantSkew, track.keyframes.allSatisfy({ $0.value.value == k }), abs(cos(k * .pi / 180)) > 1e-6
            else { return nil }
            skew = k
        }
        if let pivot = tracks.pivot, pivot.keyframes.contains(where: { $0.value != pivot.keyframes[0].value }) {
            return nil
        }
        let offset = keys[0].local - keys[0].time
        for (k, key) in keys.enumerated() {
            guard abs(key.local - key.time - offset) < 1e-9 else { return nil }
            if k > 0 && !(key.local > keys[k - 1].local) { return nil }
        }
        var baseScale = 1.0, baseShift = Vector2.zero
        if let base {
            guard base.b == 0, base.c == 0, base.a == base.d, base.a > 0 else { return nil }
            baseScale = base.a
            baseShift = Vector2(x: base.tx, y: base.ty)
        }
        guard placement.b == 0, placement.c == 0, placement.a > 0, placement.d > 0 else { return nil }
        return LottieSourceTransform(
            tracks: tracks, offset: offset, locals: keys.map(\.local), baseScale: baseScale, baseShift: baseShift,
            origin: Vector2(x: placement.tx, y: placement.ty), resolution: Vector2(x: placement.a, y: placement.d),
            nudgesUnitScale: nudgesUnitScale, skew: skew)
    }

    /// How many of the four transform properties came out keyed at the source (the rest were sampled).
    private(set) var exactProperties = 0
    /// Whether a property keyed at the source interpolates somewhere (a linear or eased segment): then the source
    /// form says something the sampled form cannot (the motion between frames); otherwise both are holds at the
    /// same frames and the caller may keep whichever has fewer keyframes.
    private(set) var interpolates = false

    /// `p`, `a`, `s`, `r` of the layer; `tolerance` gives the reduction's tolerances for sampled properties.
    mutating func properties(position positionTolerance: Double, scale scaleTolerance: Double, degrees: Double)
        -> JSONObject
    {
        let pivot = tracks.pivot?.keyframes.first?.value ?? .zero
        let anchor = JSONValue.array([
            .number(LottieKeyframeReducer.clean((pivot.x - origin.x) / resolution.x)),
            .number(LottieKeyframeReducer.clean((pivot.y - origin.y) / resolution.y)),
        ])
        let σ = baseScale, b = baseShift, k = resolution
        let lean = cos(skew * .pi / 180)
        let position = property(tracks.position, default: .zero, tolerance: [positionTolerance, positionTolerance],
                                scalar: false) { [b.x + σ * $0.x, b.y + σ * $0.y] }
        let nudge = nudgesUnitScale
        let scale = property(tracks.scale, default: .one, tolerance: [scaleTolerance, scaleTolerance],
                             scalar: false) { s -> [Double] in
            let v = [100 * σ * s.x * k.x, 100 * σ * s.y * k.y * lean]
            return nudge && v == [100, 100] ? [100 * LottieClipBuilder.unitScale, 100 * LottieClipBuilder.unitScale] : v
        }
        let rotation = property(tracks.rotation, default: Degrees(0), tolerance: [degrees], scalar: true) { [$0.value] }
        var result: JSONObject = ["a": .object(["a": 0, "k": anchor]), "p": position, "s": scale, "r": rotation]
        if skew != 0 {
            result["sk"] = .object(["a": 0, "k": .number(LottieKeyframeReducer.clean(skew))])
            result["sa"] = .object(["a": 0, "k": 0])
        }
        return result
    }

    /// The layer's opacity in percent from the node's opacity or colour track: `factor` (everything above the
    /// node, constant) times the one that changes; `nil` when both change or a colour key has an alpha offset.
    mutating func opacity(factor: Double, tolerance: Double) -> JSONValue? {
        let opacity = tracks.opacity, color = tracks.color
        if let color, color.keyframes.contains(where: { $0.value.alphaOffset != 0 }) { return nil }
        if color?.isConstant ?? true {
            let c = (color?.keyframes.first?.value.alphaMultiplier ?? 1) * factor * 100
            return property(opacity, default: 1, tolerance: [tolerance], scalar: true) { [c * $0] }
        }
        guard let color, opacity?.isConstant ?? true else { return nil }
        let o = (opacity?.keyframes.first?.value ?? 1) * factor * 100
        return property(color, default: .identity, tolerance: [tolerance], scalar: true) { [o * $0.alphaMultiplier] }
    }

    /// One property: keyed at the source when every segment in range has an exact Lottie easing, otherwise sampled
    /// at the layer's keys and reduced.
    private mutating func property<V: Interpolatable & Sendable & Hashable>(
        _ track: Track<V>?, default fallback: V, tolerance: [Double], scalar: Bool, value: (V) -> [Double]
    ) -> JSONValue {
        let reducer = LottieKeyframeReducer(tolerance: tolerance)
        let times = locals.map { $0 - offset }
        guard let track, !track.keyframes.isEmpty else {
            exactProperties += 1
            return reducer.property([value(fallback)], held: [], times: [times[0]], scalar: scalar)
        }
        if let keys = CASourceKeys.make(track, from: locals.first!, to: locals.last!, value: value),
            let json = Self.keyframes(keys, offset: offset, scalar: scalar, interpolates: &interpolates)
        {
            exactProperties += 1
            return json
        }
        let samples = locals.map { value(track.value(at: Frames($0))!) }
        // Between two keys the track holds exactly when its value halfway equals the value at the first key.
        let held = zip(locals, locals.dropFirst()).map { a, b in
            value(track.value(at: Frames((a + b) / 2))!) == value(track.value(at: Frames(a))!)
        }
        return reducer.property(samples, held: held, times: times, scalar: scalar)
    }

    /// Lottie keyframes for source keys: a segment whose ends are equal holds (`h: 1`), a linear one gets linear
    /// handles, an eased one its timing function as `o` (x1, y1) on its first key and `i` (x2, y2) on its last,
    /// the same for every dimension. A jump (two keys at one frame) ends a held segment. `nil` when a jump follows a
    /// segment that moves (cannot happen for ``CASourceKeys``' holds, checked anyway).
    static func keyframes(_ keys: CASourceKeys, offset: Double, scalar: Bool) -> JSONValue? {
        var interpolates = false
        return keyframes(keys, offset: offset, scalar: scalar, interpolates: &interpolates)
    }

    /// ``keyframes(_:offset:scalar:)``, telling whether a segment interpolates.
    static func keyframes(_ keys: CASourceKeys, offset: Double, scalar: Bool, interpolates: inout Bool) -> JSONValue? {
        let n = keys.values.count
        guard n > 0 else { return nil }
        let first = keys.values[0]
        if keys.values.allSatisfy({ $0 == first }) {
            return .object(["a": 0, "k": scalar ? .number(LottieKeyframeReducer.clean(first[0]))
                                                : .array(first.map { .number(LottieKeyframeReducer.clean($0)) })])
        }
        // (key index, whether its segment holds)
        var emitted: [(index: Int, hold: Bool)] = []
        for i in 0..<n {
            if i + 1 < n, keys.frames[i + 1] == keys.frames[i] {
                // Superseded by the key at the same frame: the segment before must already be a hold.
                if let last = emitted.last, !last.hold { return nil }
                continue
            }
            let hold = i + 1 < n && keys.values[i + 1] == keys.values[i]
            // A held key repeating the held value before it adds nothing.
            if hold, let last = emitted.last, last.hold, keys.values[last.index] == keys.values[i] { continue }
            emitted.append((i, hold))
        }
        // Lottie holds the first value before the first key and the last after the last: a held key at either end
        // that repeats its neighbour adds nothing.
        if emitted.count > 2, emitted[0].hold, keys.values[emitted[0].index] == keys.values[emitted[1].index] {
            emitted.removeFirst()
        }
        if emitted.count > 2, emitted[emitted.count - 2].hold,
            keys.values[emitted[emitted.count - 2].index] == keys.values[emitted[emitted.count - 1].index]
        {
            emitted.removeLast()
        }
        guard emitted.count > 1 else { return nil }
        let dimension = first.count
        func handle(_ x: Double, _ y: Double) -> JSONValue {
            .object(["x": .array(Array(repeating: .number(clean(x)), count: dimension)),
                     "y": .array(Array(repeating: .number(clean(y)), count: dimension))])
        }
        var result: [JSONValue] = []
        for (position, entry) in emitted.enumerated() {
            var keyframe: JSONObject = [
                "t": .number(LottieKeyframeReducer.clean(keys.frames[entry.index] - offset)),
                "s": .array(keys.values[entry.index].map { .number(LottieKeyframeReducer.clean($0)) }),
            ]
            if position < emitted.count - 1 {
                if entry.hold {
                    keyframe["h"] = 1
                } else {
                    let f = keys.functions[entry.index]
                    interpolates = true
                    keyframe["o"] = handle(f[0], f[1])
                    keyframe["i"] = handle(f[2], f[3])
                }
            }
            result.append(.object(keyframe))
        }
        return .object(["a": 1, "k": .array(result)])
    }

    /// How many keyframes the animated properties of a transform hold in all.
    static func keyframeCount(_ ks: JSONObject) -> Int {
        var count = 0
        for (_, property) in ks where property["a"]?.doubleValue == 1 {
            count += property["k"]?.arrayValue?.count ?? 0
        }
        return count
    }

    /// Handles to 10⁻⁹: their error is multiplied by the value change of the segment.
    private static func clean(_ v: Double) -> Double { LottieKeyframeReducer.clean(v, precision: 1e9) }
}
