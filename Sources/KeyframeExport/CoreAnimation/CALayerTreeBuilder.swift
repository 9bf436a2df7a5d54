import Foundation
import KeyframeEngine
import KeyframeModel

/// Builds the layer tree of one clip (docs/core-animation.md §5 explains every choice made here).
///
/// Every composition instance becomes a *timeline* layer whose own `beginTime`/`timeOffset` carry the nested
/// composition's clock, holding one layer per drawable node. A node's values are sampled with the engine's
/// ``PoseSampler`` at the composition's own frames (so graphic symbols, movie clips and Flump movies keep their own
/// timing in the layer hierarchy); runs that linear interpolation reproduces exactly are collapsed. Where a nested
/// timeline's frames cannot be written as the parent layer's time plus a constant (optionally looping or clamped),
/// it is flattened: keyed at the clip's own frames, with an info diagnostic.
struct CALayerTreeBuilder {
    /// One clip frame as seen by a composition instance.
    struct Instant {
        /// The composition's local frame.
        var local: Double
        /// Global frames since the instance appeared (the sampler's `elapsed`).
        var elapsed: Double
        /// Whether `local` advances with time (the sampler's `linear`).
        var linear: Bool
        /// The timeline layer's local time, in frames.
        var layerTime: Double
        /// The composition's time without wraps or holds, and the range `lo ..< hi` its playhead stays in (the
        /// sampler's playhead, format.md §4.7): an instance that keeps its own time ages on it.
        var unwrapped: Double
        var lo: Double, hi: Double

        /// The instant without the layer time: what the nested-time rule reads.
        var clock: CompositionInstant {
            CompositionInstant(local: local, elapsed: elapsed, linear: linear, unwrapped: unwrapped, lo: lo, hi: hi)
        }
    }

    /// A key of a timeline's animations: its time in the group (frames from the group's begin) and the local frame
    /// sampled there.
    struct Key {
        var time: Double
        var local: Double
    }

    /// How a timeline's animations are timed in its layer.
    struct Plan {
        var keys: [Key]
        var beginFrame: Double
        var durationFrames: Double
        var repeatForever: Bool
        /// The local frame at group time 0 when every group time `t` shows local frame `base + t` (direct and
        /// looping plans); `nil` for a flattened timeline.
        var base: Double? = nil
    }

    let document: Document
    let sampler: PoseSampler
    let fps: Double
    /// Samples the document as it is (meshes placed), for mesh vertices; `nil` when the document has no meshes.
    let meshSampler: PoseSampler?
    let compositions: [String: Composition]
    let sprites: [String: Sprite]
    let images: [String: AtlasImage]
    var diagnostics = DiagnosticCollector()
    var usedImages: Set<String> = []
    /// Mesh vertices by composition, local frame and item path (``meshPositions``).
    var meshPoses: [String: [Double: [String: Pose.Mesh]]] = [:]
    /// Sprite pictures to write as their own images with a constant colour transform baked in, by image id.
    private(set) var bakes: [String: TintBake] = [:]
    private var bakeIDs: [TintBake: String] = [:]
    /// The pictures of the clip's filtered nodes (``CAFilterPictures``), shown in their layers instead of what the
    /// nodes show; `nil`: filters are not drawn.
    var filterPictures: CAFilterPictures? = nil
    /// The filter pictures the tree shows: image id → index into ``filterPictures``'s pictures.
    private(set) var filterImages: [String: Int] = [:]

    /// A sprite's upright picture with a colour transform (alpha multiplier 1, no alpha offset) applied.
    struct TintBake: Hashable {
        var sprite: String
        var color: ColorTransform
    }
    /// Node states already sampled, shared by the builders of one export (a composition nested in several clips is
    /// sampled once per local frame).
    let cache: StateCache

    /// The top-level node states of compositions by composition id and local frame, shared by builders that run
    /// concurrently (two that sample the same frame at once store equal states).
    final class StateCache: @unchecked Sendable {
        private let lock = NSLock()
        private var states: [String: [Double: [Pose.NodeValues?]]] = [:]
        init() {}

        subscript(id: String, local: Double) -> [Pose.NodeValues?]? {
            get {
                lock.lock(); defer { lock.unlock() }
                return states[id]?[local]
            }
            set {
                lock.lock(); defer { lock.unlock() }
                states[id, default: [:]][local] = newValue
            }
        }
    }
    var clipName = ""

    /// The clip's timeline starts this many frames into the clip, so that a display refresh landing exactly on a
    /// frame's instant never shows the previous frame (a discrete value, a loop's last instant) through rounding in
    /// the time conversion. Moving values are then 10⁻⁶ of a frame's change ahead.
    static let frameLead = 1e-6
    /// Two numbers closer than this are the same value.
    static let tolerance = 1e-9

    init(document: Document, sampler: PoseSampler, cache: StateCache = StateCache(), meshSampler: PoseSampler? = nil) {
        self.document = document
        self.sampler = sampler
        self.cache = cache
        self.meshSampler = meshSampler
        fps = document.frameRate.framesPerSecond
        var compositions: [String: Composition] = [:]
        for composition in document.compositions where compositions[composition.id] == nil {
            compositions[composition.id] = composition
        }
        self.compositions = compositions
        var sprites: [String: Sprite] = [:]
        for sprite in document.assets.sprites where sprites[sprite.id] == nil { sprites[sprite.id] = sprite }
        self.sprites = sprites
        var images: [String: AtlasImage] = [:]
        for image in document.assets.images where images[image.id] == nil { images[image.id] = image }
        self.images = images
    }

    /// The document the builder samples: nested compositions and meshes replaced by empty content, mask flags off.
    ///
    /// The builder samples each composition on its own, one level at a time, and exports no meshes, so the sampler
    /// need not descend into nested compositions or place mesh vertices. A node's transform, colour and visibility
    /// do not depend on what it shows, so the node states are the same; only the work is less.
    static func samplingDocument(_ document: Document) -> Document {
        var copy = document
        copy.assets.meshes = []
        for c in copy.compositions.indices {
            for n in copy.compositions[c].nodes.indices {
                // Mask nodes are sampled like any other (the exporter turns them into mask layers).
                copy.compositions[c].nodes[n].isMask = false
                copy.compositions[c].nodes[n].maskedBy = nil
                guard var track = copy.compositions[c].nodes[n].tracks.content else { continue }
                for k in track.keyframes.indices {
                    switch track.keyframes[k].value {
                    case .composition, .mesh: track.keyframes[k].value = .none
                    case .none, .sprite: break
                    }
                }
                copy.compositions[c].nodes[n].tracks.content = track
            }
        }
        return copy
    }

    /// The root layer of `clip`: a plain layer (the loader sets its `beginTime`) holding the clip's timeline.
    mutating func build(clip: Clip) -> CALayerSpec {
        clipName = clip.name
        let frames = max(Int(clip.duration.value.rounded(.up)), 1)
        let instants = (0..<frames).map { k -> Instant? in
            let t = min(Double(k), max(clip.duration.value - 1e-9, 0))
            return Instant(local: clip.start.value + t, elapsed: t, linear: true, layerTime: clip.start.value + t,
                           unwrapped: clip.start.value + t, lo: clip.start.value,
                           hi: clip.start.value + clip.duration.value)
        }
        var root = CALayerSpec(name: clip.name)
        var timeline = timelineLayer(clip.composition, instants: instants, path: clip.composition, depth: 0)
        timeline.beginTime = 0
        timeline.timeOffset = (clip.start.value + Self.frameLead) / fps
        root.sublayers = [timeline]
        return root
    }

    // MARK: Timelines

    /// `tint`: the constant colour transform (alpha left alone) the instance's ancestors apply to everything in it.
    private mutating func timelineLayer(_ id: String, instants: [Instant?], path: String, depth: Int,
                                        tint: ColorTransform = .identity) -> CALayerSpec {
        var layer = CALayerSpec(name: id)
        guard let composition = compositions[id], depth < PoseSampler.maximumDepth else { return layer }
        let plan = self.plan(for: composition, instants: instants, path: path)
        let keyStates = plan.keys.map { nodeStates(id, local: $0.local) }
        let hasDrawOrder = composition.nodes.contains { $0.tracks.drawOrder != nil }
        var nodeLayers: [Int: CALayerSpec] = [:]
        for (index, node) in composition.nodes.enumerated() {
            guard let track = node.tracks.content,
                track.keyframes.contains(where: { if case .none = $0.value { return false } else { return true } })
            else { continue }
            nodeLayers[index] = self.nodeLayer(node, index: index, in: composition, plan: plan, keyStates: keyStates,
                                               instants: instants, hasDrawOrder: hasDrawOrder, path: path, depth: depth,
                                               tint: tint)
        }
        // Masks: a mask node and its descendants become the `mask` layer of a wrapper around each run of
        // consecutive nodes it masks (Flash masks such a run as one group).
        let masks = MaskStructure(composition)
        var maskTrees: [Int: CALayerSpec] = [:]
        for index in composition.nodes.indices {
            guard let root = masks.maskRoot[index], let nodeLayer = nodeLayers[index] else { continue }
            maskTrees[root, default: CALayerSpec(name: "mask:" + composition.nodes[root].id)].sublayers.append(nodeLayer)
        }
        var wrapper: (mask: Int, layer: CALayerSpec)? = nil
        func flush() {
            if let run = wrapper { layer.sublayers.append(run.layer) }
            wrapper = nil
        }
        for index in composition.nodes.indices {
            guard masks.maskRoot[index] == nil, let nodeLayer = nodeLayers[index] else { continue }
            guard let mask = masks.nearestMask[index] else {
                flush()
                layer.sublayers.append(nodeLayer)
                continue
            }
            if wrapper?.mask != mask {
                flush()
                var run = CALayerSpec(name: "masked-by:" + composition.nodes[mask].id)
                run.mask = CALayerSpecBox(maskTrees[mask] ?? CALayerSpec(name: "mask:" + composition.nodes[mask].id))
                wrapper = (mask, run)
            }
            wrapper!.layer.sublayers.append(nodeLayer)
        }
        flush()
        return layer
    }

    /// Chooses how a timeline's keys map onto its layer time: directly (clamped at both ends), looping, or
    /// flattened onto the clip's frames.
    private mutating func plan(for composition: Composition, instants: [Instant?], path: String) -> Plan {
        let active = instants.compactMap { $0 }
        guard let first = active.first else { return Plan(keys: [], beginFrame: 0, durationFrames: 0, repeatForever: false) }
        let locals = Self.unique(active.map(\.local))
        let lo = locals.first ?? first.local, hi = locals.last ?? first.local
        let tol = 1e-7
        if active.allSatisfy({ abs($0.local - min(max($0.layerTime, lo), hi)) <= tol }) {
            return Plan(keys: locals.map { Key(time: $0 - lo, local: $0) }, beginFrame: lo, durationFrames: hi - lo,
                        repeatForever: false, base: lo)
        }
        let length = composition.duration.value
        if length > 0, active.allSatisfy({ $0.layerTime >= -tol && abs($0.local - Self.wrap($0.layerTime, length)) <= tol }) {
            var keys = locals.map { Key(time: $0, local: $0) }
            if keys.first.map({ $0.local > tol }) ?? true { keys.insert(Key(time: 0, local: 0), at: 0) }
            // The cycle's last instant holds the last frame's values (the sampler shows no frame between them).
            if let last = keys.last, last.time < length - tol { keys.append(Key(time: length, local: last.local)) }
            return Plan(keys: keys, beginFrame: 0, durationFrames: length, repeatForever: true, base: 0)
        }
        diagnostics.add(Diagnostic(
            severity: .info, code: "ca-timeline-flattened",
            message: "clip \"\(clipName)\": the nested timeline \(path) cannot be written as its parent's time plus "
                + "an offset (a reversed, held or restarted loop); its frames are keyed on the clip's own frames"))
        let times = active.map(\.layerTime)
        let begin = times.min() ?? 0
        var keys: [Key] = []
        for instant in active where keys.last.map({ instant.layerTime - begin > $0.time + tol }) ?? true {
            keys.append(Key(time: instant.layerTime - begin, local: instant.local))
        }
        return Plan(keys: keys, beginFrame: begin, durationFrames: (times.max() ?? begin) - begin, repeatForever: false)
    }

    /// The top-level node states of composition `id` at `local` by node index (nil: not drawn), sampled once.
    private mutating func nodeStates(_ id: String, local: Double) -> [Pose.NodeValues?] {
        if let known = cache[id, local] { return known }
        let count = compositions[id]?.nodes.count ?? 0
        var result = sampler.nodeValues(composition: id, frame: Frames(local))
        if result.count != count { result = [Pose.NodeValues?](repeating: nil, count: count) }
        cache[id, local] = result
        return result
    }

    // MARK: Nodes

    private mutating func nodeLayer(_ node: Node, index: Int, in composition: Composition, plan: Plan,
                                    keyStates: [[Pose.NodeValues?]], instants: [Instant?], hasDrawOrder: Bool,
                                    path: String, depth: Int, tint: ColorTransform) -> CALayerSpec? {
        var layer = CALayerSpec(name: node.id)
        let nodeStates = keyStates.map { $0[index] }
        report(node, path: path)
        guard let firstVisible = nodeStates.firstIndex(where: { $0 != nil }) else {
            layer.isHidden = true
            return layer
        }
        // Values where the node is hidden repeat the nearest shown ones (they are never seen).
        var filled: [Pose.NodeValues] = []
        var last = nodeStates[firstVisible]!
        for state in nodeStates {
            if let state { last = state }
            filled.append(last)
        }
        var animations: [CAKeyframeAnimationSpec] = []
        let matrices = filled.map(\.transform)
        let source = sourceComponents(node, in: composition, plan: plan)
        if let source {
            layer.bounds = source.bounds
            layer.position = source.position
            layer.transform = source.transform
            animations += source.animations
        } else if let components = Self.components(matrices) {
            layer.position = [components[0].tx, components[0].ty]
            layer.transform = CALayerSpec.transform(Self.matrix(rotation: components[0].rotation,
                                                                 scaleX: components[0].sx, scaleY: components[0].sy))
            var position = Rows(width: 2, capacity: components.count)
            var rotation = Rows(width: 1, capacity: components.count)
            var scaleX = rotation, scaleY = rotation
            for c in components {
                position.append(c.tx, c.ty)
                rotation.append(c.rotation)
                scaleX.append(c.sx)
                scaleY.append(c.sy)
            }
            animations += linear("position", .point, position, plan)
            animations += linear("transform.rotation.z", .number, rotation, plan)
            animations += linear("transform.scale.x", .number, scaleX, plan)
            animations += linear("transform.scale.y", .number, scaleY, plan)
        } else {
            layer.transform = CALayerSpec.transform(matrices[0])
            var transforms = Rows(width: 16, capacity: matrices.count)
            for m in matrices { transforms.append(transform: m) }
            animations += linear("transform", .transform, transforms, plan)
        }
        // Core Animation clamps opacity to 0…1; a colour transform can multiply alpha beyond it.
        var opacity = Rows(width: 1, capacity: filled.count)
        for state in filled { opacity.append(min(max(state.color.alphaMultiplier, 0), 1)) }
        if filled.contains(where: { !(0...1).contains($0.color.alphaMultiplier) }) {
            diagnostics.add(Diagnostic(
                severity: .warning, code: "ca-opacity-range",
                message: "clip \"\(clipName)\": \(path)/\(node.id) multiplies alpha outside 0…1; its opacity is clamped"))
        }
        layer.opacity = opacity[0, 0]
        if let exact = source == nil ? nil : sourceOpacity(node, in: composition, plan: plan),
            !filled.contains(where: { !(0...1).contains($0.color.alphaMultiplier) }) {
            animations += exact
        } else {
            animations += linear("opacity", .number, opacity, plan)
        }
        var hidden = Rows(width: 1, capacity: nodeStates.count)
        for state in nodeStates { hidden.append(state == nil ? 1.0 : 0.0) }
        layer.isHidden = hidden[0, 0] != 0
        animations += discrete("hidden", .bool, hidden, plan)
        if hasDrawOrder {
            var z = Rows(width: 1, capacity: plan.keys.count)
            for key in plan.keys { z.append(Double(node.tracks.drawOrder?.heldValue(at: Frames(key.local)) ?? index)) }
            layer.zPosition = z[0, 0]
            animations += discrete("zPosition", .number, z, plan)
        }
        layer.animation = group(animations, plan)

        // Contents: one sublayer per sprite and per composition span, shown while the content track holds it and
        // no drawn filter is on the node (its pictures show then).
        let contents = plan.keys.map { node.tracks.content?.heldKeyframe(at: Frames($0.local))?.keyframe }
        let pictures = filterPictures?.nodes["\(path)/\(node.id)"]
        let filtered = plan.keys.map { key in
            pictures != nil
                && (node.tracks.filters?.heldValue(at: Frames(key.local))?.contains { $0.effect != nil } ?? false)
        }
        var spriteOrder: [String] = []
        var spanOrder: [Double] = []
        var meshOrder: [String] = []
        for case let keyframe? in contents {
            switch keyframe.value {
            case .sprite(let id): if !spriteOrder.contains(id) { spriteOrder.append(id) }
            case .composition: if !spanOrder.contains(keyframe.frame.value) { spanOrder.append(keyframe.frame.value) }
            case .mesh(let id): if !meshOrder.contains(id) { meshOrder.append(id) }
            case .none: break
            }
        }
        layer.sublayers += meshLayers(meshOrder, contents: contents,
                                      shown: nodeStates.indices.map { nodeStates[$0] != nil && !filtered[$0] }, node: node,
                                      composition: composition.id, plan: plan, nodeMatrices: matrices, path: path)
        for id in spriteOrder {
            // A colour transform beyond alpha that stays the same while this sprite shows is baked into a copy of
            // the picture; one that changes cannot be shown (a warning).
            let tints = contents.indices.compactMap { i -> ColorTransform? in
                guard case .sprite(let shown)? = contents[i]?.value, shown == id, nodeStates[i] != nil else { return nil }
                return tint.concatenating(Self.withoutAlpha(filled[i].color))
            }
            var bake: TintBake? = nil
            if let first = tints.first, tints.contains(where: Self.isTint) {
                let rgb = Self.withoutAlpha(first)
                let offsets = contents.indices.contains { i in
                    if case .sprite(let shown)? = contents[i]?.value, shown == id, nodeStates[i] != nil {
                        return abs(filled[i].color.alphaOffset) > Self.tolerance
                    }
                    return false
                }
                if !offsets, tints.allSatisfy({ Self.close(Self.withoutAlpha($0), rgb) }) {
                    bake = TintBake(sprite: id, color: rgb)
                } else {
                    diagnostics.add(Diagnostic(
                        severity: .warning, code: "ca-color-transform",
                        message: "clip \"\(clipName)\": Core Animation has no per-layer colour multiply; the changing tint "
                            + "or colour offset of \(path)/\(node.id) is not exported (its alpha is)"))
                }
            }
            guard var sprite = spriteLayer(id, bake: bake) else { continue }
            var hiddenValues = Rows(width: 1, capacity: contents.count)
            for (i, keyframe) in contents.enumerated() {
                if case .sprite(let shown)? = keyframe?.value, shown == id, !filtered[i] {
                    hiddenValues.append(0)
                } else {
                    hiddenValues.append(1)
                }
            }
            sprite.isHidden = hiddenValues[0, 0] != 0
            sprite.animation = group(discrete("hidden", .bool, hiddenValues, plan), plan)
            layer.sublayers.append(sprite)
        }
        for start in spanOrder {
            guard let keyframe = node.tracks.content?.keyframes.first(where: { $0.frame.value == start }),
                case .composition(let instance) = keyframe.value
            else { continue }
            var span = CALayerSpec(name: "\(instance.composition)@\(Self.number(start))")
            var hiddenValues = Rows(width: 1, capacity: contents.count)
            for (i, keyframe) in contents.enumerated() {
                hiddenValues.append(keyframe?.frame.value == start && !filtered[i] ? 0.0 : 1.0)
            }
            span.isHidden = hiddenValues[0, 0] != 0
            span.animation = group(discrete("hidden", .bool, hiddenValues, plan), plan)
            // The node's colour (alpha left to opacity) passes into the nested symbol when it stays the same while
            // the span shows; a changing one cannot be baked (a warning).
            let spanTints = contents.indices.compactMap { i -> ColorTransform? in
                contents[i]?.frame.value == start && nodeStates[i] != nil
                    ? tint.concatenating(Self.withoutAlpha(filled[i].color)) : nil
            }
            var childTint = spanTints.first ?? tint
            if !spanTints.allSatisfy({ Self.close($0, childTint) }) || filled.contains(where: { abs($0.color.alphaOffset) > Self.tolerance }) {
                diagnostics.add(Diagnostic(
                    severity: .warning, code: "ca-color-transform",
                    message: "clip \"\(clipName)\": Core Animation has no per-layer colour multiply; the changing tint "
                        + "or colour offset of \(path)/\(node.id) on its nested symbol is not exported (its alpha is)"))
                childTint = tint
            }
            span.sublayers = [childTimeline(instance, spanStart: start, node: node, instants: instants,
                                            path: "\(path)/\(node.id)>\(instance.composition)", depth: depth,
                                            tint: childTint)]
            layer.sublayers.append(span)
        }
        if let pictures, !pictures.isEmpty {
            layer.sublayers += filterLayers(pictures, node: node, instants: instants)
            diagnostics.add(Diagnostic(
                severity: .info, code: "ca-filter-baked",
                message: "clip \"\(clipName)\": the filters of \(path)/\(node.id) are drawn into pictures at one pixel per "
                    + "document pixel; a layer tree shown larger scales them"))
        }
        return layer
    }

    /// One layer per picture of a filtered node (``CAFilterPictures``): shown at the clip frames it stands for,
    /// placed by its transform then. Its own `beginTime` turns the node layer's time back into the clip's, so
    /// its animations are keyed on the clip's frames whatever timeline the node is in.
    private mutating func filterLayers(_ shown: [Int: CAFilterPictures.Shown], node: Node, instants: [Instant?])
        -> [CALayerSpec]
    {
        guard let pictures = filterPictures,
            let first = instants.indices.first(where: { instants[$0] != nil }), let instant = instants[first]
        else { return [] }
        // A timeline's layer time is the clip's frame plus a constant (§4).
        let offset = instant.layerTime - Double(first)
        let frames = instants.count
        let plan = Plan(keys: (0..<frames).map { Key(time: Double($0), local: Double($0)) }, beginFrame: 0,
                        durationFrames: Double(max(frames - 1, 0)), repeatForever: false)
        var order: [Int] = []
        for frame in 0..<frames {
            if let picture = shown[frame]?.picture, !order.contains(picture) { order.append(picture) }
        }
        var layers: [CALayerSpec] = []
        for picture in order {
            let id = pictures.imageID(picture, node: node.id)
            filterImages[id] = picture
            var layer = CALayerSpec(name: "filtered:" + node.id)
            layer.anchorPoint = [0, 0]
            layer.contents = id
            layer.bounds = [0, 0, Double(pictures.pictures[picture].width), Double(pictures.pictures[picture].height)]
            layer.beginTime = offset / fps
            var hidden = Rows(width: 1, capacity: frames)
            var transforms = Rows(width: 16, capacity: frames)
            // Frames where another picture shows keep the nearest placement of this one (never seen).
            var last = (0..<frames).lazy.compactMap { shown[$0]?.picture == picture ? shown[$0]?.transform : nil }.first!
            for frame in 0..<frames {
                if let here = shown[frame], here.picture == picture {
                    last = here.transform
                    hidden.append(0)
                } else {
                    hidden.append(1)
                }
                transforms.append(transform: last)
            }
            layer.isHidden = hidden[0, 0] != 0
            layer.transform = Array(transforms.row(0))
            layer.animation = group(discrete("hidden", .bool, hidden, plan)
                                        + discrete("transform", .transform, transforms, plan), plan)
            layers.append(layer)
        }
        return layers
    }

    /// The timeline layer of a composition span, with the time conversion from its parent's layer time.
    private mutating func childTimeline(_ instance: CompositionInstance, spanStart: Double, node: Node,
                                        instants: [Instant?], path: String, depth: Int,
                                        tint: ColorTransform) -> CALayerSpec {
        let length = compositions[instance.composition]?.duration.value ?? 0
        var child: [Instant?] = []
        var origin: (parent: Double, child: Double)? = nil
        for instant in instants {
            guard let instant, let held = node.tracks.content?.heldKeyframe(at: Frames(instant.local)),
                held.keyframe.frame.value == spanStart
            else {
                child.append(nil)
                continue
            }
            let nested = instant.clock.child(instance, spanStart: spanStart, spanEnd: held.next?.value, length: length)
            if origin == nil { origin = (instant.layerTime, nested.local) }
            let layerTime = instant.layerTime - origin!.parent + origin!.child
            child.append(Instant(local: nested.local, elapsed: nested.elapsed, linear: nested.linear,
                                 layerTime: layerTime, unwrapped: nested.unwrapped, lo: nested.lo, hi: nested.hi))
        }
        var layer = timelineLayer(instance.composition, instants: child, path: path, depth: depth + 1, tint: tint)
        layer.beginTime = (origin?.parent ?? 0) / fps
        layer.timeOffset = (origin?.child ?? 0) / fps
        return layer
    }

    private mutating func spriteLayer(_ id: String, bake: TintBake? = nil) -> CALayerSpec? {
        guard let sprite = sprites[id], let image = images[sprite.image],
            image.pixelSize.width > 0, image.pixelSize.height > 0
        else { return nil }
        var layer = CALayerSpec(name: id)
        layer.anchorPoint = [0, 0]
        if let bake {
            // The baked copy is the upright picture: no region, no rotation.
            let bakeID: String
            if let known = bakeIDs[bake] {
                bakeID = known
            } else {
                // Named by the colour so that clips exported into one folder never give one name two pictures.
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                let c = bake.color
                for number in [c.redMultiplier, c.greenMultiplier, c.blueMultiplier, c.redOffset, c.greenOffset, c.blueOffset] {
                    var bits = number.bitPattern
                    for _ in 0..<8 {
                        hash = (hash ^ (bits & 0xff)) &* 0x100_0000_01b3
                        bits >>= 8
                    }
                }
                bakeID = "\(id)~tint-" + String(hash, radix: 16)
                bakeIDs[bake] = bakeID
                bakes[bakeID] = bake
            }
            layer.contents = bakeID
            layer.bounds = [0, 0, sprite.size.width, sprite.size.height]
            layer.position = [sprite.origin.x, sprite.origin.y]
            return layer
        }
        usedImages.insert(image.id)
        layer.contents = image.id
        let r = sprite.region
        layer.contentsRect = [r.x / image.pixelSize.width, r.y / image.pixelSize.height,
                              r.width / image.pixelSize.width, r.height / image.pixelSize.height]
        if sprite.rotated {
            // The region holds the picture turned 90° clockwise: show it as stored and turn the layer back.
            let width = sprite.size.height, height = sprite.size.width
            layer.bounds = [0, 0, width, height]
            layer.transform = CALayerSpec.transform(Matrix2D(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: 0))
            layer.position = [sprite.origin.x, sprite.origin.y + width]
        } else {
            layer.bounds = [0, 0, sprite.size.width, sprite.size.height]
            layer.position = [sprite.origin.x, sprite.origin.y]
        }
        return layer
    }

    /// Diagnostics for what a layer cannot show.
    private mutating func report(_ node: Node, path: String) {
        var name: String { "\(path)/\(node.id)" }
        if let modes = node.tracks.blendMode?.keyframes, modes.contains(where: { $0.value != .normal }) {
            // CALayer.compositingFilter takes a Core Image filter on macOS only; iOS layers always blend normally.
            let used = Set(modes.map(\.value)).subtracting([.normal]).map(\.rawValue).sorted().joined(separator: ", ")
            diagnostics.add(Diagnostic(
                severity: .warning, code: "ca-blend-mode",
                message: "clip \"\(clipName)\": \(name) uses blend mode \(used), which is not exported (iOS layers have "
                    + "no blend mode; compositingFilter is macOS-only); it blends normally"))
        }
        // Filters `render` draws are in the node's pictures when they are drawn (``filterPictures``).
        if let filters = node.tracks.filters?.keyframes,
            filters.contains(where: { $0.value.contains { filterPictures == nil || $0.effect == nil } })
        {
            diagnostics.add(Diagnostic(
                severity: .warning, code: "ca-filter",
                message: "clip \"\(clipName)\": filters \(filterPictures == nil ? "" : "that render does not draw ")"
                    + "are not exported; \(name) is drawn without them"))
        }
    }

    /// The colour transform with alpha left alone (multiplier 1, offset 0).
    static func withoutAlpha(_ c: ColorTransform) -> ColorTransform {
        var rgb = c
        rgb.alphaMultiplier = 1
        rgb.alphaOffset = 0
        return rgb
    }

    static func close(_ a: ColorTransform, _ b: ColorTransform) -> Bool {
        let x = [a.redMultiplier, a.greenMultiplier, a.blueMultiplier, a.alphaMultiplier, a.redOffset, a.greenOffset,
                 a.blueOffset, a.alphaOffset]
        let y = [b.redMultiplier, b.greenMultiplier, b.blueMultiplier, b.alphaMultiplier, b.redOffset, b.greenOffset,
                 b.blueOffset, b.alphaOffset]
        return zip(x, y).allSatisfy { abs($0 - $1) <= tolerance }
    }

    static func isTint(_ c: ColorTransform) -> Bool {
        abs(c.redMultiplier - 1) > tolerance || abs(c.greenMultiplier - 1) > tolerance
            || abs(c.blueMultiplier - 1) > tolerance || abs(c.redOffset) > tolerance || abs(c.greenOffset) > tolerance
            || abs(c.blueOffset) > tolerance || abs(c.alphaOffset) > tolerance
    }

    // MARK: Animations

    func group(_ animations: [CAKeyframeAnimationSpec], _ plan: Plan) -> CAAnimationGroupSpec? {
        guard !animations.isEmpty else { return nil }
        return CAAnimationGroupSpec(beginTime: plan.beginFrame / fps, duration: plan.durationFrames / fps,
                                    repeatCount: plan.repeatForever ? CAAnimationGroupSpec.forever : 0,
                                    animations: animations)
    }

    /// A linear animation through `values` at the plan's keys, without the keys linear interpolation reproduces;
    /// none when the value never changes.
    func linear(_ keyPath: String, _ type: CAKeyframeAnimationSpec.ValueType, _ values: [[Double]],
                _ plan: Plan) -> [CAKeyframeAnimationSpec] {
        linear(keyPath, type, Rows(values), plan)
    }

    /// The same, for values stored as rows.
    func linear(_ keyPath: String, _ type: CAKeyframeAnimationSpec.ValueType, _ values: Rows,
                _ plan: Plan) -> [CAKeyframeAnimationSpec] {
        guard plan.durationFrames > 0, values.count > 1, !values.allEqual else { return [] }
        let times = plan.keys.map { $0.time / plan.durationFrames }
        var kept = [0]
        var i = 1
        while i < values.count - 1 {
            let a = kept.last!
            // Drop key i when every key from a to i + 1 lies on the line from a to i + 1.
            let b = i + 1
            var onLine = b - a <= 256
            var j = a + 1
            while onLine && j < b {
                let u = (times[j] - times[a]) / max(times[b] - times[a], 1e-300)
                for c in 0..<values.width
                where abs(values[a, c] + (values[b, c] - values[a, c]) * u - values[j, c]) > 1e-9 * max(1, abs(values[j, c])) {
                    onLine = false
                }
                j += 1
            }
            if !onLine { kept.append(i) }
            i += 1
        }
        kept.append(values.count - 1)
        var keyTimes = kept.map { times[$0] }
        keyTimes[0] = 0
        keyTimes[keyTimes.count - 1] = 1
        return [CAKeyframeAnimationSpec(
            keyPath: keyPath, valueType: type, values: kept.map { values.row($0) }, keyTimes: keyTimes,
            timingFunctions: Array(repeating: [0, 0, 1, 1], count: kept.count - 1), calculationMode: "linear",
            duration: plan.durationFrames / fps)]
    }

    /// A discrete animation switching to each new value at its key.
    func discrete(_ keyPath: String, _ type: CAKeyframeAnimationSpec.ValueType, _ values: Rows,
                          _ plan: Plan) -> [CAKeyframeAnimationSpec] {
        guard plan.durationFrames > 0, values.count > 1, !values.allEqual else { return [] }
        var kept: [[Double]] = [values.row(0)]
        var last = 0
        var keyTimes: [Double] = [0]
        for index in 1..<values.count where !values.rowsEqual(index, last) {
            let time = max(plan.keys[index].time / plan.durationFrames, keyTimes.last!)
            kept.append(values.row(index))
            last = index
            keyTimes.append(min(time, 1))
        }
        keyTimes.append(1)
        return [CAKeyframeAnimationSpec(
            keyPath: keyPath, valueType: type, values: kept, keyTimes: keyTimes,
            timingFunctions: Array(repeating: [0, 0, 1, 1], count: kept.count - 1), calculationMode: "discrete",
            duration: plan.durationFrames / fps)]
    }

    // MARK: Helpers

    /// Values at a timeline's keys, `width` numbers per key, stored in one array (not one array per key: a layer
    /// tree has thousands of keys).
    struct Rows {
        private(set) var numbers: [Double] = []
        let width: Int

        init(width: Int, capacity: Int) {
            self.width = width
            numbers.reserveCapacity(width * capacity)
        }

        /// The rows of `values`, which all hold the same count.
        init(_ values: [[Double]]) {
            width = values.first?.count ?? 0
            numbers.reserveCapacity(width * values.count)
            for row in values { numbers += row }
        }

        var count: Int { width == 0 ? 0 : numbers.count / width }
        subscript(row: Int, column: Int) -> Double { numbers[row * width + column] }
        func row(_ index: Int) -> [Double] { Array(numbers[index * width ..< (index + 1) * width]) }

        mutating func append(_ value: Double) { numbers.append(value) }
        mutating func append(_ x: Double, _ y: Double) {
            numbers.append(x)
            numbers.append(y)
        }
        /// The `CATransform3D` of `m`, as ``CALayerSpec/transform(_:)`` writes it.
        mutating func append(transform m: Matrix2D) {
            append(m.a, m.b)
            append(0, 0)
            append(m.c, m.d)
            append(0, 0)
            append(0, 0)
            append(1, 0)
            append(m.tx, m.ty)
            append(0, 1)
        }

        /// Whether two rows hold equal numbers.
        func rowsEqual(_ a: Int, _ b: Int) -> Bool {
            for c in 0..<width where numbers[a * width + c] != numbers[b * width + c] { return false }
            return true
        }

        /// Whether every row is within 10⁻¹² of the first, number by number (``allEqual(_:)``).
        var allEqual: Bool {
            for i in 0..<count {
                for c in 0..<width where !(abs(numbers[i * width + c] - numbers[c]) <= 1e-12) { return false }
            }
            return true
        }
    }

    struct Components {
        var tx: Double, ty: Double, rotation: Double, sx: Double, sy: Double
    }

    /// Position, rotation (radians, unwrapped from key to key) and scale for every matrix, or `nil` when one has a
    /// skew or a reflection that Core Animation's transform decomposition would not give back.
    static func components(_ matrices: [Matrix2D]) -> [Components]? {
        var result: [Components] = []
        var previous: Double? = nil
        for m in matrices {
            let sx = (m.a * m.a + m.b * m.b).squareRoot()
            let det = m.determinant
            let norm = m.a * m.a + m.b * m.b + m.c * m.c + m.d * m.d
            guard sx > 1e-12, det > 1e-12 * max(norm, 1e-300), abs(m.a * m.c + m.b * m.d) <= 1e-9 * norm else { return nil }
            var rotation = atan2(m.b, m.a)
            if let previous {
                rotation += (2 * Double.pi) * ((previous - rotation) / (2 * Double.pi)).rounded()
            }
            previous = rotation
            let component = Components(tx: m.tx, ty: m.ty, rotation: rotation, sx: sx, sy: det / sx)
            // The recomposed matrix must give the source back.
            let back = matrix(rotation: rotation, scaleX: component.sx, scaleY: component.sy)
            guard abs(back.c - m.c) <= 1e-9 * max(1, norm.squareRoot()), abs(back.d - m.d) <= 1e-9 * max(1, norm.squareRoot())
            else { return nil }
            result.append(component)
        }
        return result
    }

    /// `rotate(rotation) · scale(scaleX, scaleY)`: how Core Animation composes the transform's components.
    static func matrix(rotation: Double, scaleX: Double, scaleY: Double) -> Matrix2D {
        let (s, c) = (sin(rotation), cos(rotation))
        return Matrix2D(a: c * scaleX, b: s * scaleX, c: -s * scaleY, d: c * scaleY, tx: 0, ty: 0)
    }

    static func wrap(_ value: Double, _ length: Double) -> Double {
        let r = value.truncatingRemainder(dividingBy: length)
        return r < 0 ? r + length : r
    }

    static func unique(_ values: [Double]) -> [Double] {
        var result: [Double] = []
        for value in values.sorted() where result.last.map({ value - $0 > 1e-7 }) ?? true { result.append(value) }
        return result
    }

    static func allEqual(_ values: [[Double]]) -> Bool {
        guard let first = values.first else { return true }
        return values.allSatisfy { $0.count == first.count && zip($0, first).allSatisfy { abs($0 - $1) <= 1e-12 } }
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
