import KeyframeEngine
import KeyframeModel

extension CALayerTreeBuilder {
    /// A node layer's geometry and transform animations written from the node's own tracks.
    struct SourceComponents {
        var bounds: [Double]
        var position: [Double]
        var transform: [Double]
        var animations: [CAKeyframeAnimationSpec]
    }

    /// The node's transform as Core Animation's component key paths keyed at the source's own keyframes
    /// (docs/core-animation.md §5.1), or `nil` when components cannot say it exactly and the caller samples the
    /// node's matrix per frame.
    ///
    /// The model's local transform is `T(position) · R(rotation) · K(skew) · S(scale) · T(−pivot)`; a layer's is
    /// `T(position) · transform · T(−bounds.origin)` (anchor point at no size). With no skew, a constant pivot (the
    /// bounds' origin), no parent node, no skeleton solving and positive scales, each track maps to one key path:
    /// `position`, `transform.rotation.z` (radians), `transform.scale.x` and `.y`. A key path whose track has an
    /// easing without an exact timing function is sampled at the plan's frames on its own; the others stay exact.
    func sourceComponents(_ node: Node, in composition: Composition, plan: Plan) -> SourceComponents? {
        guard let lo = plan.base, plan.durationFrames > 0, !Self.needsSkeleton(composition),
            let above = Self.constantAncestors(node, in: composition)
        else { return nil }
        let tracks = node.tracks
        if let skew = tracks.skew, skew.keyframes.contains(where: { abs($0.value.value) > 1e-9 }) { return nil }
        if let pivot = tracks.pivot, pivot.keyframes.contains(where: { $0.value != pivot.keyframes[0].value }) {
            return nil
        }
        if let scale = tracks.scale {
            guard scale.keyframes.allSatisfy({ $0.value.x > 0 && $0.value.y > 0 }),
                scale.keyframes.allSatisfy({ Self.staysInRange($0.easing) })
            else { return nil }
        }
        let hi = lo + plan.durationFrames
        let first = Frames(lo)
        let pivot = tracks.pivot?.keyframes.first?.value ?? .zero
        let shift = above.offset
        var position = tracks.position?.value(at: first) ?? .zero
        position = Vector2(x: position.x + shift.x, y: position.y + shift.y)
        let rotation = tracks.rotation?.value(at: first)?.radians ?? 0
        let scale = tracks.scale?.value(at: first) ?? .one
        var animations: [CAKeyframeAnimationSpec] = []
        func add<V: Interpolatable & Sendable & Hashable>(_ keyPath: String, _ type: CAKeyframeAnimationSpec.ValueType,
                                                          _ track: Track<V>?, _ value: (V) -> [Double]) {
            guard let track else { return }
            if let keys = CASourceKeys.make(track, from: lo, to: hi, value: value) {
                animations += keyed(keyPath, type, keys, lo: lo, plan: plan)
            } else {
                animations += linear(keyPath, type, plan.keys.map { value(track.value(at: Frames($0.local))!) }, plan)
            }
        }
        add("position", .point, tracks.position) { [$0.x + shift.x, $0.y + shift.y] }
        add("transform.rotation.z", .number, tracks.rotation) { [$0.radians] }
        add("transform.scale.x", .number, tracks.scale) { [$0.x] }
        add("transform.scale.y", .number, tracks.scale) { [$0.y] }
        return SourceComponents(
            bounds: [pivot.x, pivot.y, 0, 0], position: [position.x, position.y],
            transform: CALayerSpec.transform(Self.matrix(rotation: rotation, scaleX: scale.x, scaleY: scale.y)),
            animations: animations)
    }

    /// The node's opacity keyed at the source's own keyframes: the opacity track times a constant colour
    /// transform's alpha, or a colour track's alpha times a constant opacity. `nil` when both change, when a key
    /// leaves 0…1 or a segment has no exact timing function (the caller samples).
    func sourceOpacity(_ node: Node, in composition: Composition, plan: Plan) -> [CAKeyframeAnimationSpec]? {
        guard let lo = plan.base, plan.durationFrames > 0, let above = Self.constantAncestors(node, in: composition)
        else { return nil }
        let hi = lo + plan.durationFrames
        let opacity = node.tracks.opacity, color = node.tracks.color
        let keys: CASourceKeys?
        if color?.isConstant ?? true {
            guard let opacity else { return [] }
            let alpha = (color?.keyframes.first?.value.alphaMultiplier ?? 1) * above.alpha
            keys = CASourceKeys.make(opacity, from: lo, to: hi) { [$0 * alpha] }
        } else if let color, opacity?.isConstant ?? true {
            let o = (opacity?.keyframes.first?.value ?? 1) * above.alpha
            keys = CASourceKeys.make(color, from: lo, to: hi) { [$0.alphaMultiplier * o] }
        } else {
            return nil
        }
        guard let keys, keys.values.allSatisfy({ (0...1).contains($0[0]) }) else { return nil }
        return keyed("opacity", .number, keys, lo: lo, plan: plan)
    }

    /// What a node's ancestors do to it when that is the same at every frame and Core Animation's components can
    /// carry it: a translation (added to the node's position) and an alpha factor; `nil` when an ancestor's
    /// transform, colour or opacity changes, or its constant transform turns, scales or skews.
    static func constantAncestors(_ node: Node, in composition: Composition) -> (offset: Vector2, alpha: Double)? {
        var matrix = Matrix2D.identity
        var alpha = 1.0
        var current = node.parent
        var depth = 0
        while let id = current {
            guard depth < composition.nodes.count, let ancestor = composition.nodes.first(where: { $0.id == id })
            else { return nil }
            let t = ancestor.tracks
            guard t.position?.isConstant ?? true, t.scale?.isConstant ?? true, t.rotation?.isConstant ?? true,
                t.skew?.isConstant ?? true, t.pivot?.isConstant ?? true, t.opacity?.isConstant ?? true,
                t.color?.isConstant ?? true, ancestor.bone?.inheritsEverything ?? true
            else { return nil }
            let local = TransformComponents(
                position: t.position?.keyframes.first?.value ?? .zero, scale: t.scale?.keyframes.first?.value ?? .one,
                rotation: t.rotation?.keyframes.first?.value ?? Degrees(0),
                skew: t.skew?.keyframes.first?.value ?? Degrees(0), pivot: t.pivot?.keyframes.first?.value ?? .zero)
            matrix = local.matrix.concatenating(matrix)
            if let color = t.color?.keyframes.first?.value {
                guard color.alphaOffset == 0 else { return nil }
                alpha *= color.alphaMultiplier
            }
            alpha *= t.opacity?.keyframes.first?.value ?? 1
            current = ancestor.parent
            depth += 1
        }
        guard matrix.a == 1, matrix.b == 0, matrix.c == 0, matrix.d == 1 else { return nil }
        return (Vector2(x: matrix.tx, y: matrix.ty), alpha)
    }

    /// A keyframe animation at the source keys (none when the value never changes): `discrete` when every change
    /// is a jump (all segments hold), otherwise `linear` with each segment's timing function.
    func keyed(_ keyPath: String, _ type: CAKeyframeAnimationSpec.ValueType, _ keys: CASourceKeys, lo: Double,
               plan: Plan) -> [CAKeyframeAnimationSpec] {
        guard keys.values.count > 1, !Self.allEqual(keys.values) else { return [] }
        func time(_ frame: Double) -> Double { min(max((frame - lo) / plan.durationFrames, 0), 1) }
        var steps: [[Double]] = [keys.values[0]]
        var stepTimes: [Double] = [0]
        for i in 1..<keys.values.count where keys.values[i] != steps.last! {
            guard keys.frames[i] == keys.frames[i - 1] else {
                steps = []
                break
            }
            steps.append(keys.values[i])
            stepTimes.append(time(keys.frames[i]))
        }
        if !steps.isEmpty {
            return [CAKeyframeAnimationSpec(
                keyPath: keyPath, valueType: type, values: steps, keyTimes: stepTimes + [1],
                timingFunctions: Array(repeating: CASourceKeys.linear, count: steps.count - 1),
                calculationMode: "discrete", duration: plan.durationFrames / fps)]
        }
        var keyTimes = keys.frames.map(time)
        keyTimes[0] = 0
        keyTimes[keyTimes.count - 1] = 1
        return [CAKeyframeAnimationSpec(
            keyPath: keyPath, valueType: type, values: keys.values, keyTimes: keyTimes,
            timingFunctions: keys.functions, calculationMode: "linear", duration: plan.durationFrames / fps)]
    }

    /// Whether the engine's skeleton solver places this composition's bones (IK, or bones that do not inherit
    /// everything from their parent): then nodes are not the product of their own tracks.
    static func needsSkeleton(_ composition: Composition) -> Bool {
        !composition.ik.isEmpty || composition.nodes.contains { !($0.bone?.inheritsEverything ?? true) }
    }

    /// Whether an easing's progress stays within 0…1 (values between two keys stay between them).
    static func staysInRange(_ easing: Easing) -> Bool {
        switch easing {
        case .hold, .linear: return true
        case .cubicBezier(_, let y1, _, let y2): return (0...1).contains(y1) && (0...1).contains(y2)
        case .flashQuadratic(let s): return abs(s) <= 1
        case .flumpQuadratic(let e): return abs(e) <= 1
        case .quadraticInOut(let s): return (0...1).contains(s)
        case .bezierPath(let points, _): return points.allSatisfy { (0...1).contains($0.y) }
        }
    }
}
