import KeyframeModel

/// Evaluates a normalized document at a time: tracks with their easing, nested composition time, transforms and
/// colours concatenated down the tree, masks resolved.
///
/// Sampling is a pure function of the document and the time, so any frame can be rendered in any order or in
/// parallel.
///
/// Nested time: a composition instance's age is counted from the content keyframe that shows it. Instances on the
/// parent's clock (Animate graphics) use the parent's local time; instances on their own clock (movie clips) use
/// the global time elapsed since their span began, so they keep playing while the parent holds a frame.
public struct PoseSampler: Sendable {
    /// Compositions nested deeper than this are not descended into (cycles are rejected at import; this guards
    /// hand-written documents).
    public static let maximumDepth = 64

    public let document: Document
    private let compositions: [String: Composition]
    private let indices: [String: [String: Int]]
    /// Each composition's node hierarchy, worked out once (it does not change with time).
    private let structures: [String: Structure]
    private let sprites: [String: Sprite]
    private let meshes: [String: MeshGeometry]

    public init(document: Document) {
        self.document = document
        var compositions: [String: Composition] = [:]
        var indices: [String: [String: Int]] = [:]
        for composition in document.compositions {
            compositions[composition.id] = composition
            var map: [String: Int] = [:]
            for index in composition.nodes.indices { map[composition.nodes[index].id] = index }
            indices[composition.id] = map
        }
        self.compositions = compositions
        self.indices = indices
        var sprites: [String: Sprite] = [:]
        for sprite in document.assets.sprites where sprites[sprite.id] == nil { sprites[sprite.id] = sprite }
        self.sprites = sprites
        var meshes: [String: MeshGeometry] = [:]
        for mesh in document.assets.meshes where meshes[mesh.id] == nil { meshes[mesh.id] = mesh }
        self.meshes = meshes
        var structures: [String: Structure] = [:]
        for (id, composition) in compositions {
            structures[id] = Structure(composition, indices: indices[id] ?? [:], meshes: meshes)
        }
        self.structures = structures
    }

    /// The pose of `clip` at `time` frames after its start (clamped to the clip's range).
    public func sample(clip: Clip, time: Frames, collectNodes: Bool = false) -> Pose {
        let t = min(max(time.value, 0), max(clip.duration.value - 1e-9, 0))
        return sample(composition: clip.composition, frame: Frames(clip.start.value + t), elapsed: t,
                      playhead: Playhead(unwrapped: clip.start.value + t, range: clip.start.value,
                                         clip.start.value + clip.duration.value),
                      collectNodes: collectNodes)
    }

    /// The pose of `clip` after `playback` frames of playing it (format.md §4.10): the playhead wraps between
    /// plays and rests on the clip's last frame after `loopCount` plays, while instances that keep their own time
    /// (`keepsTime`, §4.7) go on aging for the whole playback — a one-frame clip played for 80 frames shows its
    /// nested movie's 80 frames.
    public func sample(clip: Clip, playback: Frames, collectNodes: Bool = false) -> Pose {
        let e = max(playback.value, 0)
        return sample(composition: clip.composition, frame: Frames(clip.start.value + PoseSampler.clipTime(clip, playback: e)),
                      elapsed: e, playhead: Playhead(unwrapped: clip.start.value + e, range: clip.start.value,
                                                     clip.start.value + clip.duration.value),
                      collectNodes: collectNodes)
    }

    /// Where `clip`'s playhead is after `playback` frames (§4.10): `playback mod duration` while plays remain,
    /// then the last frame (`duration − 1`, for a clip of at least one frame).
    public static func clipTime(_ clip: Clip, playback: Double) -> Double {
        let length = clip.duration.value
        guard length > 0 else { return 0 }
        let e = max(playback, 0)
        if clip.loopCount == 0 || e < Double(clip.loopCount) * length {
            let r = e.truncatingRemainder(dividingBy: length)
            return min(r, length - 1e-9)
        }
        return max(length - 1, 0)
    }

    /// The pose of composition `id` at local `frame`, `elapsed` global frames after it appeared.
    public func sample(composition id: String, frame: Frames, elapsed: Double? = nil, collectNodes: Bool = false) -> Pose {
        let length = compositions[id]?.duration.value ?? 0
        return sample(composition: id, frame: frame, elapsed: elapsed,
                      playhead: Playhead(unwrapped: frame.value, range: 0, max(length, frame.value)),
                      collectNodes: collectNodes)
    }

    /// The transform and colour of each of composition `id`'s own nodes at local `frame`, by node index: the
    /// states `sample(composition:frame:collectNodes: true)` reports for them, `nil` for a node it reports none
    /// for (hidden, a mask or under one, an ancestor missing). Nothing else is evaluated: no sprites placed, no
    /// nested composition entered, no paths named (what an exporter that keys each node layer needs, per frame).
    /// Empty when the document has no composition `id`.
    public func nodeValues(composition id: String, frame: Frames) -> [Pose.NodeValues?] {
        guard let composition = compositions[id], let structure = structures[id] else { return [] }
        let count = composition.nodes.count
        var states: [NodeFrame?] = Array(repeating: nil, count: count)
        let skeleton = structure.skeleton.map { SkeletonSolver.solve(composition, plan: $0, at: frame) }
        var result = [Pose.NodeValues?](repeating: nil, count: count)
        for index in 0..<count where !structure.underMask[index] {
            guard let state = resolve(index, in: composition, structure, at: frame,
                                      parentDefault: (.identity, .identity, .normal), states: &states,
                                      skeleton: skeleton),
                state.visible
            else { continue }
            result[index] = Pose.NodeValues(transform: state.transform, color: state.color)
        }
        return result
    }

    /// The pose of `clip` at `time` (as ``sample(clip:time:collectNodes:)``) and the values of the clip's root
    /// composition's own nodes there — what ``nodeValues(composition:frame:)`` returns for the root at the same local
    /// frame — from one evaluation (an exporter that needs both per frame does the work once).
    public func sampleWithRootValues(clip: Clip, time: Frames) -> (pose: Pose, rootValues: [Pose.NodeValues?]) {
        let t = min(max(time.value, 0), max(clip.duration.value - 1e-9, 0))
        var pose = Pose()
        var context = Context(collectNodes: false)
        context.collectsRootValues = true
        emit(compositionID: clip.composition, local: clip.start.value + t, elapsed: t,
             playhead: Playhead(unwrapped: clip.start.value + t, range: clip.start.value,
                                clip.start.value + clip.duration.value),
             linear: true, transform: .identity, color: .identity, blend: .normal, masks: [], path: clip.composition,
             depth: 0, into: &pose, context: &context)
        return (pose, context.rootValues ?? [])
    }

    /// Where a timeline's playhead runs (§4.7): its time without wraps or holds, and the range `lo ..< hi` it stays
    /// in (a clip's range for the root; the whole timeline for a nested one).
    struct Playhead {
        var unwrapped: Double
        var lo: Double, hi: Double
        init(unwrapped: Double, range lo: Double, _ hi: Double) {
            self.unwrapped = unwrapped
            self.lo = lo
            self.hi = hi
        }
    }

    private func sample(composition id: String, frame: Frames, elapsed: Double?, playhead: Playhead,
                        collectNodes: Bool) -> Pose {
        var pose = Pose()
        var context = Context(collectNodes: collectNodes)
        emit(compositionID: id, local: frame.value, elapsed: elapsed ?? frame.value, playhead: playhead, linear: true,
             transform: .identity, color: .identity, blend: .normal, masks: [], path: id, depth: 0,
             into: &pose, context: &context)
        return pose
    }

    private struct Context {
        var collectNodes: Bool
        /// Whether the root composition's node values are kept (``sampleWithRootValues(clip:time:)``).
        var collectsRootValues = false
        var rootValues: [Pose.NodeValues?]? = nil
        /// Whether filtered nodes become filter groups (not while collecting mask shapes: a mask's coverage is its
        /// shapes' own).
        var groupsFilters = true
        /// The innermost open filter group.
        var group: Int? = nil
    }

    /// A composition's node hierarchy by node index: what sampling asked of node ids at every frame before.
    private final class Structure: Sendable {
        /// The parent's index; `nil` without a parent; ``missingParent`` when the parent id names no node.
        let parents: [Int?]
        /// Ancestor indices, nearest first (stopping at a missing parent, and after as many steps as nodes).
        let ancestors: [[Int]]
        /// Whether the node is a mask or below one (drawn only into masks).
        let underMask: [Bool]
        /// The index of the mask that limits the node (its own `maskedBy`, else its nearest ancestor's), when that
        /// names a node.
        let maskNode: [Int?]
        /// What the skeleton solver needs, when the composition needs it (``SkeletonSolver/isNeeded(for:)``).
        let skeleton: SkeletonSolver.Plan?
        /// The indices of the nodes of kind `bone` (whose world transforms weighted meshes read), in node order.
        let boneNodes: [Int]
        /// For each weighted mesh the composition's nodes show: each influence's bone node index
        /// (``MeshPlacement/influenceBones(of:boneIndex:)``; the last bone node of an id, as a lookup by id found it).
        let meshBones: [String: [Int]]
        /// Whether any node has a draw-order track.
        let hasDrawOrder: Bool

        static let missingParent = -1

        init(_ composition: Composition, indices: [String: Int], meshes: [String: MeshGeometry]) {
            let nodes = composition.nodes
            skeleton = SkeletonSolver.isNeeded(for: composition) ? SkeletonSolver.Plan(composition, indices: indices) : nil
            boneNodes = nodes.indices.filter { nodes[$0].kind == .bone }
            var boneIndex: [String: Int] = [:]
            for index in boneNodes { boneIndex[nodes[index].id] = index }
            var meshBones: [String: [Int]] = [:]
            for node in nodes {
                for keyframe in node.tracks.content?.keyframes ?? [] {
                    guard case .mesh(let id) = keyframe.value, meshBones[id] == nil, let mesh = meshes[id],
                        mesh.weights != nil
                    else { continue }
                    meshBones[id] = MeshPlacement.influenceBones(of: mesh, boneIndex: boneIndex)
                }
            }
            self.meshBones = meshBones
            hasDrawOrder = nodes.contains { $0.tracks.drawOrder != nil }
            parents = nodes.map { node in node.parent.map { indices[$0] ?? Structure.missingParent } }
            var ancestors: [[Int]] = []
            for index in nodes.indices {
                var result: [Int] = []
                var current = nodes[index].parent
                while let id = current, let parentIndex = indices[id], result.count < nodes.count {
                    result.append(parentIndex)
                    current = nodes[parentIndex].parent
                }
                ancestors.append(result)
            }
            self.ancestors = ancestors
            underMask = nodes.indices.map { i in nodes[i].isMask || ancestors[i].contains { nodes[$0].isMask } }
            maskNode = nodes.indices.map { i in
                let id = nodes[i].maskedBy ?? ancestors[i].lazy.compactMap { nodes[$0].maskedBy }.first
                return id.flatMap { indices[$0] }
            }
        }
    }

    private struct NodeFrame {
        var transform: Matrix2D
        var color: ColorTransform
        var blend: BlendMode
        var visible: Bool
    }

    // MARK: Evaluation

    private func emit(compositionID: String, local: Double, elapsed: Double, playhead: Playhead, linear: Bool, transform: Matrix2D,
                      color: ColorTransform, blend: BlendMode, masks: [Int], path: String, depth: Int,
                      into pose: inout Pose, context: inout Context) {
        guard depth < PoseSampler.maximumDepth, let composition = compositions[compositionID],
            let structure = structures[compositionID]
        else { return }
        let frame = Frames(local)
        let nodes = composition.nodes
        var states: [NodeFrame?] = Array(repeating: nil, count: nodes.count)
        var maskIndex: [Int: Int] = [:]  // node index of a mask → index in pose.masks
        // Skeletons: bones placed by their inheritance flags and IK, and bone world transforms for weighted meshes.
        let skeleton = structure.skeleton.map { SkeletonSolver.solve(composition, plan: $0, at: frame) }
        var bones: [Matrix2D?] = []
        if !structure.meshBones.isEmpty {
            bones = Array(repeating: nil, count: nodes.count)
            for index in structure.boneNodes {
                bones[index] = resolve(index, in: composition, structure, at: frame,
                                       parentDefault: (transform, color, blend), states: &states,
                                       skeleton: skeleton)?.transform
            }
        }

        for nodeIndex in drawOrder(of: composition, structure, at: frame) {
            guard let state = resolve(nodeIndex, in: composition, structure, at: frame,
                                      parentDefault: (transform, color, blend), states: &states, skeleton: skeleton)
            else { continue }
            if structure.underMask[nodeIndex] { continue }
            var itemMasks = masks
            if let maskNode = structure.maskNode[nodeIndex] {
                if let existing = maskIndex[maskNode] {
                    itemMasks.append(existing)
                } else {
                    var shapes = Pose()
                    collectMask(maskNode, in: composition, structure, local: local, elapsed: elapsed, playhead: playhead,
                                linear: linear, parent: (transform, color, blend), states: &states, path: path,
                                depth: depth, into: &shapes, context: &context)
                    pose.masks.append(shapes.items)
                    pose.masks.append(contentsOf: shapes.masks)
                    maskIndex[maskNode] = pose.masks.count - 1 - shapes.masks.count
                    itemMasks.append(maskIndex[maskNode]!)
                }
            }
            guard state.visible else { continue }
            emitContent(of: nodeIndex, state: state, masks: itemMasks, composition: composition, frame: frame,
                        local: local, elapsed: elapsed, playhead: playhead, linear: linear, path: path, depth: depth, into: &pose,
                        context: &context, bones: bones, meshBones: structure.meshBones)
        }
        if depth == 0 && context.collectsRootValues {
            // Every node was resolved above, in draw order; `nodeValues(composition:frame:)` reports the same.
            var values = [Pose.NodeValues?](repeating: nil, count: nodes.count)
            for index in nodes.indices where !structure.underMask[index] {
                if let state = states[index], state.visible {
                    values[index] = Pose.NodeValues(transform: state.transform, color: state.color)
                }
            }
            context.rootValues = values
        }
    }

    /// Emits what node `index` shows (its content) in the state resolved for it.
    private func emitContent(of index: Int, state: NodeFrame, masks: [Int], composition: Composition, frame: Frames,
                             local: Double, elapsed: Double, playhead: Playhead, linear: Bool, path: String, depth: Int,
                             into pose: inout Pose, context: inout Context, bones: [Matrix2D?] = [],
                             meshBones: [String: [Int]] = [:]) {
        // The node is read through the array (not `let node = …`), which would copy it.
        let nodes = composition.nodes
        guard let held = nodes[index].tracks.content?.heldKeyframe(at: frame) else {
            if context.collectNodes {
                pose.nodes.append(Pose.NodeState(path: "\(path)/\(nodes[index].id)", transform: state.transform,
                                                 color: state.color, visible: state.visible, content: .none,
                                                 filters: nodes[index].tracks.filters?.heldValue(at: frame) ?? []))
            }
            return
        }
        var childFrame: Double? = nil
        // A node with filters that are drawn, or with a blend mode of its own that shows a nested composition: what
        // it shows is drawn as one picture (a group), with colours and blend modes inside it relative to the group;
        // the group's own are applied when the picture is composited (Flash blends and filters a display object's
        // content as a whole). (Filters apply to the node's content, not to child nodes linked by `parent`.)
        var color = state.color, blend = state.blend
        var group: (index: Int, items: Int, masks: Int, nodes: Int)? = nil
        var filters: [Filter] = [], blended = false
        if context.groupsFilters {
            filters = nodes[index].tracks.filters?.heldValue(at: frame) ?? []
            if !filters.contains(where: { $0.effect != nil }) { filters = [] }
            if case .composition = held.keyframe.value {
                blended = (nodes[index].tracks.blendMode?.heldValue(at: frame) ?? .normal) != .normal
            }
        }
        if !filters.isEmpty || blended {
            group = (pose.filterGroups.count, pose.items.count, pose.masks.count, pose.nodes.count)
            pose.filterGroups.append(Pose.FilterGroup(filters: filters, color: state.color, blendMode: state.blend,
                                                      masks: masks, parent: context.group,
                                                      path: "\(path)/\(nodes[index].id)"))
            context.group = group!.index
            color = .identity
            blend = .normal
        }
        let member = context.group.map { Pose.GroupMember(group: $0, color: color, blendMode: blend) }
        switch held.keyframe.value {
        case .none:
            break
        case .sprite(let id):
            guard let sprite = sprites[id] else { break }
            let placed = state.transform.concatenating(
                Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: sprite.origin.x, ty: sprite.origin.y))
            pose.items.append(Pose.Item(sprite: id, transform: placed, color: color, blendMode: blend,
                                        masks: masks, path: "\(path)/\(nodes[index].id)", inGroup: member))
        case .mesh(let id):
            guard let mesh = meshes[id], sprites[mesh.sprite] != nil else { break }
            let positions = MeshPlacement.positions(mesh, node: state.transform,
                                                    bones: MeshPlacement.Bones(transforms: bones,
                                                                               influenceBones: meshBones[id] ?? []),
                                                    deform: nodes[index].tracks.deform?.value(at: frame))
            pose.items.append(Pose.Item(sprite: mesh.sprite, transform: state.transform, color: color,
                                        blendMode: blend, masks: masks, path: "\(path)/\(nodes[index].id)",
                                        mesh: Pose.Mesh(positions: positions, uvs: mesh.uvs, triangles: mesh.triangles),
                                        inGroup: member))
        case .composition(let instance):
            guard let child = compositions[instance.composition] else { break }
            let parent = CompositionInstant(local: local, elapsed: elapsed, linear: linear,
                                            unwrapped: playhead.unwrapped, lo: playhead.lo, hi: playhead.hi)
            let nested = parent.child(instance, spanStart: held.keyframe.frame.value, spanEnd: held.next?.value,
                                      length: child.duration.value)
            childFrame = nested.local
            let childPlayhead = Playhead(unwrapped: nested.unwrapped, range: nested.lo, nested.hi)
            emit(compositionID: child.id, local: nested.local, elapsed: nested.elapsed, playhead: childPlayhead,
                 linear: nested.linear,
                 transform: state.transform, color: color, blend: blend, masks: masks,
                 path: "\(path)/\(nodes[index].id)>\(child.id)", depth: depth + 1, into: &pose, context: &context)
        }
        if let group {
            // Close the group: what was emitted inside it gets the accumulated colour and blend mode back.
            context.group = pose.filterGroups[group.index].parent
            PoseSampler.applyGroupPaint(state.color, state.blend, to: &pose.items[group.items...])
            for mask in group.masks..<pose.masks.count {
                PoseSampler.applyGroupPaint(state.color, state.blend, to: &pose.masks[mask][...])
            }
            for node in group.nodes..<pose.nodes.count {
                pose.nodes[node].color = state.color.concatenating(pose.nodes[node].color)
            }
        }
        if context.collectNodes {
            pose.nodes.append(Pose.NodeState(path: "\(path)/\(nodes[index].id)", transform: state.transform, color: state.color,
                                             visible: state.visible, content: held.keyframe.value, childFrame: childFrame,
                                             filters: nodes[index].tracks.filters?.heldValue(at: frame) ?? []))
        }
    }

    /// Gives items emitted relative to a filter group the group's accumulated colour transform (applied after
    /// theirs) and blend mode (where they set none).
    private static func applyGroupPaint(_ color: ColorTransform, _ blend: BlendMode,
                                        to items: inout ArraySlice<Pose.Item>) {
        for index in items.indices {
            items[index].color = color.concatenating(items[index].color)
            if items[index].blendMode == .normal { items[index].blendMode = blend }
        }
    }

    /// The nested composition's frame for an instance `age` frames old, and whether that frame advances with time.
    public static func childFrame(_ instance: CompositionInstance, age: Double, length: Double,
                                  parentLinear: Bool = true) -> (frame: Double, linear: Bool) {
        guard length > 0 else { return (0, false) }
        let first = instance.firstFrame.value
        func wrap(_ value: Double) -> Double {
            let r = value.truncatingRemainder(dividingBy: length)
            return r < 0 ? r + length : r
        }
        switch instance.loop {
        case .loop: return (wrap(first + age), parentLinear)
        case .playOnce:
            let value = first + age
            return value >= length - 1 ? (length - 1, false) : (max(value, 0), parentLinear)
        case .singleFrame: return (min(max(first, 0), length - 1), false)
        case .loopReverse: return (wrap(first - age), false)
        case .playOnceReverse:
            let value = first - age
            return value <= 0 ? (0, false) : (min(value, length - 1), false)
        }
    }

    /// The local state of node `index`, with its ancestors resolved first; `nil` when an ancestor is missing.
    private func resolve(_ index: Int, in composition: Composition, _ structure: Structure, at frame: Frames,
                         parentDefault: (Matrix2D, ColorTransform, BlendMode), states: inout [NodeFrame?],
                         skeleton: [Matrix2D?]? = nil) -> NodeFrame? {
        if let known = states[index] { return known }
        var parentState = NodeFrame(transform: parentDefault.0, color: parentDefault.1, blend: parentDefault.2,
                                    visible: true)
        if let parentIndex = structure.parents[index] {
            guard parentIndex != Structure.missingParent else { return nil }
            if let known = states[parentIndex] {
                // Parents usually come before their children and are resolved already: no call needed.
                parentState = known
            } else {
                guard let resolved = resolve(parentIndex, in: composition, structure, at: frame,
                                             parentDefault: parentDefault, states: &states, skeleton: skeleton)
                else { return nil }
                parentState = resolved
            }
        }
        // Tracks are read through the array (not `let tracks = …`), which would copy the node's tracks.
        let nodes = composition.nodes
        let transform: Matrix2D
        if let solved = skeleton?[index] {
            // A bone placed by the skeleton solver: its transform is relative to the composition, not to its parent.
            transform = parentDefault.0.concatenating(solved)
        } else {
            let components = TransformComponents(
                position: nodes[index].tracks.position?.value(at: frame) ?? .zero,
                scale: nodes[index].tracks.scale?.value(at: frame) ?? .one,
                rotation: nodes[index].tracks.rotation?.value(at: frame) ?? Degrees(0),
                skew: nodes[index].tracks.skew?.value(at: frame) ?? Degrees(0),
                pivot: nodes[index].tracks.pivot?.heldValue(at: frame) ?? .zero)
            transform = parentState.transform.concatenating(components.matrix)
        }
        var color = nodes[index].tracks.color?.value(at: frame) ?? .identity
        if let opacity = nodes[index].tracks.opacity?.value(at: frame) {
            color = ColorTransform(alphaMultiplier: opacity).concatenating(color)
        }
        var blend = parentState.blend
        if let own = nodes[index].tracks.blendMode?.heldValue(at: frame), own != .normal { blend = own }
        let state = NodeFrame(
            transform: transform, color: parentState.color.concatenating(color), blend: blend,
            visible: parentState.visible && (nodes[index].tracks.visible?.heldValue(at: frame) ?? true))
        states[index] = state
        return state
    }

    /// Node indices in draw order: list order, or sorted by the draw-order track where nodes have one.
    private func drawOrder(of composition: Composition, _ structure: Structure, at frame: Frames) -> [Int] {
        let nodes = composition.nodes
        guard structure.hasDrawOrder else { return Array(nodes.indices) }
        return nodes.indices.sorted { a, b in
            let ka = nodes[a].tracks.drawOrder?.heldValue(at: frame) ?? a
            let kb = nodes[b].tracks.drawOrder?.heldValue(at: frame) ?? b
            return ka != kb ? ka < kb : a < b
        }
    }

    /// Samples the mask node and its descendants into a list of shapes.
    private func collectMask(_ maskIndex: Int, in composition: Composition, _ structure: Structure, local: Double,
                             elapsed: Double, playhead: Playhead, linear: Bool, parent: (Matrix2D, ColorTransform, BlendMode),
                             states: inout [NodeFrame?], path: String, depth: Int, into pose: inout Pose,
                             context: inout Context) {
        let frame = Frames(local)
        var quiet = Context(collectNodes: false, groupsFilters: false)
        for index in composition.nodes.indices where index == maskIndex || structure.ancestors[index].contains(maskIndex) {
            guard let state = resolve(index, in: composition, structure, at: frame, parentDefault: parent, states: &states),
                state.visible
            else { continue }
            emitContent(of: index, state: state, masks: [], composition: composition, frame: frame,
                        local: local, elapsed: elapsed, playhead: playhead, linear: linear, path: path, depth: depth, into: &pose,
                        context: &quiet)
        }
    }
}
