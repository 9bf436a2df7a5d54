import Foundation
import KeyframeJSON
import KeyframeModel

/// Maps DragonBones wire data onto the model: one composition per armature animation (with the armature's whole
/// bone and slot tree), one clip per animation, sprites from the atlases, meshes into assets.
///
/// Timing follows DragonBonesJS 5.7: keyframe `i` starts where the runtime's frame-index table puts it, the last
/// keyframe spans to the animation's end and, when the animation repeats, tweens back to the first keyframe;
/// animation `scale` multiplies every frame number; easing keeps DragonBones' quantization (percent strengths,
/// per-frame curve samples). Bone values are stored absolute: setup pose plus animation offset (scale multiplies).
struct DragonBonesNormalizer {
    let data: DragonBonesWire.Data
    let atlas: DragonBonesAtlasReader.Result
    let file: String
    var diagnostics: DiagnosticCollector

    private var meshes: [MeshGeometry] = []
    /// The length in document frames of each child-armature composition a slot shows.
    private var childLengths: [String: Double] = [:]
    /// Mesh ids by armature, slot and display name.
    private var meshIDs: [String: String] = [:]
    private var spriteIDs: Set<String> = []
    /// One warning as ``warn(_:_:_:info:)`` takes it.
    private typealias Warning = (code: String, message: String, path: JSONPath?, info: Bool)
    /// The tracks of the current armature's slots that no animation changes (by slot index), made once and reused
    /// by every animation, with the warnings making them gave (added again at each reuse, so counts stay).
    private var slotSetupTracks: [Int: (tracks: NodeTracks, warnings: [Warning])] = [:]
    /// Where warnings are also recorded while a slot's setup tracks are made.
    private var recordedWarnings: [Warning]? = nil

    /// Takes `data` as DragonBonesJS does: an armature, or an animation of an armature, that repeats an earlier
    /// one's name is left out with a warning (the runtime keeps the first and logs "Same armature" / "Same
    /// animation").
    init(data: DragonBonesWire.Data, atlas: DragonBonesAtlasReader.Result, file: String, diagnostics: DiagnosticCollector) {
        var kept = data
        var repeats: [(kind: String, name: String, path: JSONPath)] = []
        var armatureNames = Set<String>()
        kept.armatures = data.armatures.filter { armature in
            if armatureNames.insert(armature.name).inserted { return true }
            repeats.append(("armature", armature.name, armature.path))
            return false
        }
        for index in kept.armatures.indices {
            var animationNames = Set<String>()
            kept.armatures[index].animations = kept.armatures[index].animations.filter { animation in
                if animationNames.insert(animation.name).inserted { return true }
                repeats.append(("animation", animation.name, animation.path))
                return false
            }
        }
        self.data = kept
        self.atlas = atlas
        self.file = file
        self.diagnostics = diagnostics
        self.spriteIDs = Set(atlas.sprites.map(\.id))
        for repeated in repeats {
            warn("duplicate-\(repeated.kind)",
                 "\(repeated.kind) \"\(repeated.name)\" has the name of an earlier one and is left out (the runtime keeps the first)",
                 repeated.path)
        }
    }

    private mutating func warn(_ code: String, _ message: String, _ path: JSONPath?, info: Bool = false) {
        recordedWarnings?.append((code, message, path, info))
        diagnostics.add(severity: info ? .info : .warning, code: code, message: message, file: file,
                        path: { path?.description })
    }

    private func fail(_ path: JSONPath, _ message: String) -> ImportError {
        ImportError(.schema(file: file, JSONSchemaError(path: path, message: message)))
    }

    // MARK: Document

    mutating func run() throws(ImportError) -> Document {
        guard !data.armatures.isEmpty else {
            throw fail(JSONPath.root.appending("armature"), "the data has no armature")
        }
        try checkArmatureCycles()
        var compositions: [Composition] = []
        var clips: [Clip] = []
        let clipPrefix = data.armatures.count > 1
        for armature in data.armatures {
            let skeleton = try Skeleton(armature, file: file)
            slotSetupTracks = [:]
            try buildMeshes(armature, skeleton: skeleton)
            if armature.animations.isEmpty {
                compositions.append(try composition(armature, skeleton: skeleton, animation: nil))
                continue
            }
            for animation in armature.animations {
                let composition = try composition(armature, skeleton: skeleton, animation: animation)
                compositions.append(composition)
                let scaled = animationLength(armature, animation) * Double(Self.repeatsForTimelineScales(animation))
                let finite = animation.playTimes > 0
                clips.append(Clip(
                    name: clipPrefix ? "\(armature.name)/\(animation.name)" : animation.name,
                    composition: composition.id, start: .zero,
                    duration: Frames(max(finite && animation.playTimes == 1 ? scaled + 1 : scaled, 1)),
                    loopCount: max(animation.playTimes, 0)))
            }
        }
        // Clip names must be unique: a repeated animation name gets a suffix.
        var used = Set<String>()
        for index in clips.indices {
            var name = clips[index].name
            var counter = 2
            while used.contains(name) {
                name = "\(clips[index].name)-\(counter)"
                counter += 1
            }
            used.insert(name)
            clips[index].name = name
        }
        let first = data.armatures[0]
        let rootID = defaultCompositionID(first)
        if let index = compositions.firstIndex(where: { $0.id == rootID }), index != 0 {
            compositions.insert(compositions.remove(at: index), at: 0)
        }
        return Document(
            name: data.name.isEmpty ? first.name : data.name, frameRate: FrameRate(data.frameRate),
            source: Provenance(format: .dragonBones, formatVersion: data.version),
            assets: Assets(images: atlas.images, sprites: atlas.sprites, meshes: meshes),
            compositions: compositions, root: rootID, clips: clips, diagnostics: diagnostics.diagnostics)
    }

    /// The animation's length in document frames (animation `scale` and frame-rate ratio applied).
    private func animationLength(_ armature: DragonBonesWire.Armature, _ animation: DragonBonesWire.Animation) -> Double {
        Double(animation.duration) * animation.scale * rateFactor(armature)
    }

    private func rateFactor(_ armature: DragonBonesWire.Armature) -> Double {
        data.frameRate / (armature.frameRate ?? data.frameRate)
    }

    /// The composition an armature shows by default: its default action's animation, else its first animation.
    private func defaultCompositionID(_ armature: DragonBonesWire.Armature) -> String {
        if let name = armature.defaultAnimation, armature.animations.contains(where: { $0.name == name }) {
            return "\(armature.name)/\(name)"
        }
        if let first = armature.animations.first { return "\(armature.name)/\(first.name)" }
        return armature.name
    }

    private func checkArmatureCycles() throws(ImportError) {
        var edges: [String: [String]] = [:]
        for armature in data.armatures {
            for skin in armature.skins.prefix(1) {
                // In slot order, so a reported cycle names the same chain every time.
                for slot in armature.slots {
                    for display in skin.displays[slot.name] ?? [] where display.type == "armature" {
                        edges[armature.name, default: []].append(display.path)
                    }
                }
            }
        }
        for start in data.armatures.map(\.name) {
            var chain = [start]
            var stack: [(String, Int)] = [(start, 0)]
            var onChain = Set([start])
            while let (node, next) = stack.last {
                let children = edges[node] ?? []
                if next >= children.count {
                    stack.removeLast()
                    onChain.remove(node)
                    chain.removeLast()
                    continue
                }
                stack[stack.count - 1].1 += 1
                let child = children[next]
                if onChain.contains(child) { throw ImportError(.symbolCycle(chain + [child])) }
                if chain.count < 256, edges[child] != nil {
                    stack.append((child, 0))
                    onChain.insert(child)
                    chain.append(child)
                }
            }
        }
    }

    // MARK: Skeleton

    /// An armature's bones in parent-first order, with ids and setup transforms.
    struct Skeleton {
        var bones: [DragonBonesWire.Bone]
        var indexByName: [String: Int]
        var slots: [DragonBonesWire.Slot]
        var displays: [String: [DragonBonesWire.Display]]
        /// Each bone's tracks in the setup pose (in the order of ``bones``): what an animation without a timeline
        /// for the bone gives it, made once for all the armature's animations.
        var boneSetupTracks: [NodeTracks]
        /// Each bone's node id and its parent's (in the order of ``bones``), and each slot's node id and its bone's:
        /// the same in every animation's composition.
        var boneNodes: [(id: String, parent: String?)]
        var slotNodes: [(id: String, parent: String)]

        init(_ armature: DragonBonesWire.Armature, file: String) throws(ImportError) {
            func fail(_ path: JSONPath, _ message: String) -> ImportError {
                ImportError(.schema(file: file, JSONSchemaError(path: path, message: message)))
            }
            for (list, kind) in [(armature.bones.count, "bones"), (armature.slots.count, "slots")]
            where list > ModelLimits.maximumNodes {
                throw ImportError(.limitExceeded(
                    file: file, path: armature.path.appending(kind == "bones" ? "bone" : "slot").description,
                    message: "the armature has \(list) \(kind), more than the \(ModelLimits.maximumNodes) a model holds"))
            }
            var byName: [String: DragonBonesWire.Bone] = [:]
            for bone in armature.bones {
                guard byName[bone.name] == nil else { throw fail(bone.path.appending("name"), "duplicate bone \"\(bone.name)\"") }
                byName[bone.name] = bone
            }
            for bone in armature.bones {
                if let parent = bone.parent, !parent.isEmpty, byName[parent] == nil {
                    throw fail(bone.path.appending("parent"), "bone \"\(bone.name)\" names an unknown parent \"\(parent)\"")
                }
            }
            // Parents first, keeping file order otherwise; a cycle is reported with its chain, a chain deeper than
            // the model's nesting budget with the bone where it goes too deep. Walked without recursion, each bone
            // once: the cost is linear in the bones whatever their depth.
            var ordered: [DragonBonesWire.Bone] = []
            var depth: [String: Int] = [:]
            for start in armature.bones where depth[start.name] == nil {
                // The chain of bones not placed yet, from `start` up to the first placed bone or the root.
                var chain: [DragonBonesWire.Bone] = [start]
                var onChain: Set<String> = [start.name]
                while let parent = chain.last!.parent, !parent.isEmpty, depth[parent] == nil, let parentBone = byName[parent] {
                    guard onChain.insert(parent).inserted else {
                        let names = chain.map(\.name).drop { $0 != parent } + [parent]
                        throw fail(chain.last!.path.appending("parent"), "bone cycle: \(names.joined(separator: " → "))")
                    }
                    chain.append(parentBone)
                    guard chain.count <= ModelLimits.maximumNesting + 1 else {
                        throw ImportError(.limitExceeded(
                            file: file, path: start.path.appending("parent").description,
                            message: "bone \"\(start.name)\" is nested more than \(ModelLimits.maximumNesting) bones deep"))
                    }
                }
                for bone in chain.reversed() {
                    let above = bone.parent.flatMap { $0.isEmpty ? nil : depth[$0] } ?? -1
                    guard above + 1 < ModelLimits.maximumNesting else {
                        throw ImportError(.limitExceeded(
                            file: file, path: bone.path.appending("parent").description,
                            message: "bone \"\(bone.name)\" is nested more than \(ModelLimits.maximumNesting) bones deep"))
                    }
                    depth[bone.name] = above + 1
                    ordered.append(bone)
                }
            }
            bones = ordered
            var index: [String: Int] = [:]
            for (i, bone) in armature.bones.enumerated() { index[bone.name] = i }
            indexByName = index
            var slotNames = Set<String>()
            for slot in armature.slots {
                guard slotNames.insert(slot.name).inserted else {
                    throw fail(slot.path.appending("name"), "duplicate slot \"\(slot.name)\"")
                }
                guard byName[slot.parent] != nil else {
                    throw fail(slot.path.appending("parent"), "slot \"\(slot.name)\" names an unknown bone \"\(slot.parent)\"")
                }
            }
            slots = armature.slots
            displays = armature.skins.first?.displays ?? [:]
            boneSetupTracks = ordered.map(DragonBonesNormalizer.boneSetupTracks)
            boneNodes = ordered.map { bone in
                (DragonBonesNormalizer.boneID(bone.name),
                 bone.parent.flatMap { $0.isEmpty ? nil : DragonBonesNormalizer.boneID($0) })
            }
            slotNodes = armature.slots.map { (DragonBonesNormalizer.slotID($0.name), DragonBonesNormalizer.boneID($0.parent)) }
        }
    }

    static func boneID(_ name: String) -> String { "bone:\(name)" }
    static func slotID(_ name: String) -> String { "slot:\(name)" }

    // MARK: Meshes

    private mutating func buildMeshes(_ armature: DragonBonesWire.Armature, skeleton: Skeleton) throws(ImportError) {
        if armature.pathConstraintCount > 0 {
            warn("path-not-supported", "path constraints are not supported; the bones they drive keep their animated pose",
                 armature.path.appending("constraint"))
        }
        if armature.skins.count > 1 {
            warn("extra-skins-not-converted",
                 "armature \"\(armature.name)\" has \(armature.skins.count) skins; only the first (\"\(armature.skins[0].name)\") is converted",
                 armature.path.appending("skin"), info: true)
        }
        for slot in skeleton.slots {
            for display in skeleton.displays[slot.name] ?? [] where display.type == "mesh" {
                guard let wire = display.mesh else {
                    if display.packedGeometry != nil {
                        warn("binary-mesh-not-converted", "the binary mesh's geometry could not be read; not drawn",
                             display.jsonPath)
                    } else {
                        warn("shared-mesh-not-converted",
                             "mesh display \"\(display.name)\" shares another mesh's geometry; not drawn", display.jsonPath)
                    }
                    continue
                }
                guard spriteIDs.contains(display.path) else {
                    warn("missing-texture", "texture \"\(display.path)\" is not in the texture atlas; the mesh is not drawn",
                         display.jsonPath)
                    continue
                }
                let id = "\(armature.name)/\(slot.name)/\(display.name)"
                let count = wire.vertices.count / 2
                guard wire.vertices.count % 2 == 0, wire.uvs.count == wire.vertices.count else {
                    throw fail(display.jsonPath.appending("uvs"), "a mesh needs as many uvs as vertices (x, y pairs)")
                }
                guard wire.triangles.count % 3 == 0, wire.triangles.allSatisfy({ $0 >= 0 && $0 < count }) else {
                    throw fail(display.jsonPath.appending("triangles"), "triangle indices must name vertices 0..<\(count)")
                }
                var vertices: [Vector2] = []
                var uvs: [Vector2] = []
                for i in 0..<count {
                    vertices.append(Vector2(x: wire.vertices[2 * i], y: wire.vertices[2 * i + 1]))
                    uvs.append(Vector2(x: wire.uvs[2 * i], y: wire.uvs[2 * i + 1]))
                }
                var weights: [[MeshGeometry.Influence]]? = nil
                if let raw = wire.weights {
                    weights = try influences(raw, mesh: wire, vertices: vertices, armature: armature,
                                             path: display.jsonPath)
                }
                meshes.append(MeshGeometry(id: id, sprite: display.path, vertices: vertices, uvs: uvs,
                                           triangles: wire.triangles, weights: weights))
                meshIDs["\(armature.name)\u{1}\(slot.name)\u{1}\(display.name)"] = id
            }
        }
    }

    private static func matrix(_ values: [Double], at offset: Int) -> Matrix2D {
        Matrix2D(a: values[offset], b: values[offset + 1], c: values[offset + 2], d: values[offset + 3],
                 tx: values[offset + 4], ty: values[offset + 5])
    }

    /// Bone-local influences of each vertex: the vertex placed by the slot pose, then mapped into each bone's
    /// bind pose (`bonePose` inverted), as the runtime does at load time.
    private func influences(_ raw: [Double], mesh: DragonBonesWire.Mesh, vertices: [Vector2],
                            armature: DragonBonesWire.Armature, path: JSONPath) throws(ImportError)
        -> [[MeshGeometry.Influence]]
    {
        let slotPose = (mesh.slotPose?.count ?? 0) >= 6 ? Self.matrix(mesh.slotPose!, at: 0) : .identity
        var inverses: [Int: Matrix2D] = [:]
        let poses = mesh.bonePose ?? []
        guard poses.count % 7 == 0 else { throw fail(path.appending("bonePose"), "bonePose needs 7 numbers per bone") }
        for start in stride(from: 0, to: poses.count, by: 7) {
            guard let inverse = Self.matrix(poses, at: start + 1).inverted else {
                throw fail(path.appending("bonePose"), "a bone pose matrix is singular")
            }
            guard abs(poses[start]) < 1_000_000 else {
                throw fail(path.appending("bonePose"), "bone index \(poses[start]) is out of range")
            }
            inverses[Int(poses[start])] = inverse
        }
        var result: [[MeshGeometry.Influence]] = []
        var k = 0
        var influence = 0
        for vertex in vertices {
            guard k < raw.count else { throw fail(path.appending("weights"), "weights end before the last vertex") }
            guard raw[k] >= 0, raw[k] <= Double(raw.count) else {
                throw fail(path.appending("weights"), "a vertex names \(raw[k]) bones")
            }
            let boneCount = Int(raw[k])
            k += 1
            guard k + 2 * boneCount <= raw.count else {
                throw fail(path.appending("weights"), "weights end in the middle of a vertex")
            }
            let placed = slotPose.apply(vertex)
            var list: [MeshGeometry.Influence] = []
            for _ in 0..<boneCount {
                let boneIndex = abs(raw[k]) < 1_000_000 ? Int(raw[k]) : -1
                let weight = raw[k + 1]
                k += 2
                let position: Vector2
                if let given = mesh.influencePositions {
                    guard armature.bones.indices.contains(boneIndex), influence < given.count else {
                        throw fail(path.appending("weights"), "weights name bone \(boneIndex), which the armature lacks")
                    }
                    position = given[influence]
                } else {
                    guard armature.bones.indices.contains(boneIndex), let inverse = inverses[boneIndex] else {
                        throw fail(path.appending("weights"), "weights name bone \(boneIndex), which has no bonePose")
                    }
                    position = inverse.apply(placed)
                }
                influence += 1
                list.append(MeshGeometry.Influence(
                    bone: Self.boneID(armature.bones[boneIndex].name), weight: weight, position: position))
            }
            result.append(list)
        }
        return result
    }

    // MARK: Composition

    private mutating func composition(_ armature: DragonBonesWire.Armature, skeleton: Skeleton,
                                      animation: DragonBonesWire.Animation?) throws(ImportError) -> Composition
    {
        let id = animation.map { "\(armature.name)/\($0.name)" } ?? armature.name
        let length = animation.map { animationLength(armature, $0) } ?? 0
        let frameScale = (animation?.scale ?? 1) * rateFactor(armature)
        let rawLength = animation?.duration ?? 0
        let looping = (animation?.playTimes ?? 0) != 1
        let repeats = animation.map(Self.repeatsForTimelineScales) ?? 1
        let timing = Timing(length: rawLength, frameScale: frameScale, looping: looping,
                            playTimes: animation?.playTimes ?? 0, repeats: repeats)
        if let animation {
            if animation.eventCount > 0 {
                warn("events-not-converted", "events, sounds and actions in animations are not converted",
                     animation.path, info: true)
            }
            if animation.ikTimelineCount > 0 {
                warn("ik-timeline-not-converted", "IK weight/bend timelines are not converted", animation.path.appending("ik"))
            }
        }
        // Each bone's and slot's timeline, the first of its name (looked up by name once, not searched per node).
        var boneTimelines: [String: Int] = [:]
        var slotTimelines: [String: Int] = [:]
        if let animation {
            for (index, timeline) in animation.bones.enumerated() where boneTimelines[timeline.name] == nil {
                boneTimelines[timeline.name] = index
            }
            for (index, timeline) in animation.slots.enumerated() where slotTimelines[timeline.name] == nil {
                slotTimelines[timeline.name] = index
            }
        }
        var nodes: [Node] = []
        nodes.reserveCapacity(skeleton.bones.count + skeleton.slots.count)
        for (boneIndex, bone) in skeleton.bones.enumerated() {
            let timeline = animation.flatMap { animation in boneTimelines[bone.name].map { animation.bones[$0] } }
            let ids = skeleton.boneNodes[boneIndex]
            var node = Node(id: ids.id, name: bone.name, kind: .bone, parent: ids.parent)
            node.tracks = try boneTracks(bone, setup: skeleton.boneSetupTracks[boneIndex], timeline: timeline, timing: timing)
            node.bone = BoneInheritance(
                length: bone.length, inheritTranslation: bone.inheritTranslation, inheritRotation: bone.inheritRotation,
                inheritScale: bone.inheritScale, inheritReflection: bone.inheritReflection)
            nodes.append(node)
        }
        let drawOrders = animation.flatMap { zOrderTracks($0, slotCount: skeleton.slots.count, timing: timing) }
        for (slotIndex, slot) in skeleton.slots.enumerated() {
            let ids = skeleton.slotNodes[slotIndex]
            var node = Node(id: ids.id, name: slot.name, kind: .slot, parent: ids.parent)
            let timeline = animation.flatMap { animation in slotTimelines[slot.name].map { animation.slots[$0] } }
            node.tracks = try slotTracks(slot, index: slotIndex, armature: armature, skeleton: skeleton, animation: animation,
                                         timeline: timeline, timing: timing)
            if let drawOrders { node.tracks.drawOrder = drawOrders[slotIndex] }
            nodes.append(node)
        }
        var constraints: [IKConstraint] = []
        for ik in armature.ik {
            guard skeleton.indexByName[ik.bone] != nil, skeleton.indexByName[ik.target] != nil else {
                throw fail(ik.path, "IK constraint \"\(ik.name)\" names an unknown bone or target")
            }
            constraints.append(IKConstraint(name: ik.name, bone: Self.boneID(ik.bone), target: Self.boneID(ik.target),
                                            chain: ik.chain, bendPositive: ik.bendPositive, weight: ik.weight))
        }
        let duration = max(length * Double(repeats) + (looping ? 0 : 1), 1)
        return Composition(id: id, name: animation?.name ?? armature.name, duration: Frames(duration), nodes: nodes,
                           ik: constraints)
    }

    /// The animation a child armature plays when a display key shows it anew or an action fires, as DragonBonesJS
    /// 5.7 decides (`Slot._updateDisplay`, `Animation.fadeIn`, `Armature.advanceTime`), and whether it starts with
    /// `fadeIn` (cross-fading over the animation's `fadeInTime`) rather than `play()`; `nil` for a child without
    /// animations. (A child that stays shown, with no action naming one of its animations, goes on with what it
    /// plays.)
    ///
    /// - an `action` (a play action firing at the key) that names one of the child's animations restarts it there
    ///   (`fadeIn`);
    /// - else, for the display the slot shows before the parent's animation starts (`inherited`: the parent's
    ///   animation name), the animation of that name: playing an animation makes every child armature shown then
    ///   fade into its animation of the same name, unless it already plays it;
    /// - else the display's own play actions (the last one the child has; `actions` on the display or the slot);
    /// - else the child's default animation (`defaultActions`, else its first).
    ///
    /// A child shown anew has no animation state (the runtime resets a child it stops showing), and `fadeIn` into
    /// an armature without states does not fade; so only the inherited name and actions fade.
    static func childAnimation(_ child: DragonBonesWire.Armature, display: DragonBonesWire.Display, action: String?,
                               inherited: String?) -> (animation: String, fades: Bool)? {
        let names = Set(child.animations.map(\.name))
        if let action, names.contains(action) { return (action, true) }
        var initial: (animation: String, fades: Bool)? = nil
        if let play = display.plays.last(where: names.contains) {
            initial = (play, false)
        } else if let name = child.defaultAnimation, names.contains(name) {
            initial = (name, false)
        } else if let first = child.animations.first {
            initial = (first.name, false)
        }
        if let inherited, names.contains(inherited), inherited != initial?.animation { return (inherited, true) }
        return initial
    }

    // MARK: Timing

    /// How one animation's frames map onto the composition.
    struct Timing {
        /// The animation's length in its own frames.
        var length: Int
        /// Document frames per animation frame.
        var frameScale: Double
        /// Whether the last keyframe tweens back to the first (the animation repeats).
        var looping: Bool
        /// The animation's play count (0 = forever).
        var playTimes: Int
        /// How many plays of the animation the composition spans: more than one when a looping animation has a
        /// timeline whose own period does not divide the animation's (timeline `scale` 2 repeats every two plays).
        var repeats: Int = 1
    }

    /// The plays after which every timeline of a looping animation is back in phase (1 when all are).
    static func repeatsForTimelineScales(_ animation: DragonBonesWire.Animation) -> Int {
        guard animation.playTimes == 0 else { return 1 }
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        var result = 1
        let scales = animation.bones.map(\.scale) + animation.slots.map(\.scale) + animation.deforms.map(\.scale)
        for scale in scales {
            guard scale > 0, scale < 100 else { continue }
            let hundredths = Int((scale * 100).rounded())
            guard hundredths > 0 else { continue }
            let plays = hundredths / gcd(hundredths, 100)
            result = result / gcd(result, plays) * plays
            if result > 100 { return 1 }
        }
        return result
    }

    /// A track built by `make`, timed by the animation, or baked per frame when its timeline has its own scale or
    /// offset (``DragonBonesTimelineBaker``).
    private mutating func timed<V: Hashable & Sendable>(
        scale: Double, offset: Double, path: JSONPath, timing: Timing, lerp: ((V, V, Double) -> V)?,
        _ make: (Timing) -> Track<V>
    ) -> Track<V> {
        guard DragonBonesTimelineBaker.isShifted(scale: scale, offset: offset) || timing.repeats > 1 else {
            return make(timing)
        }
        warn("timeline-baked", "a timeline with its own scale or offset is baked to one keyframe per frame", path, info: true)
        var own = timing
        own.frameScale = 1
        return DragonBonesTimelineBaker.bake(
            make(own), scale: scale, offset: offset, length: timing.length, frameScale: timing.frameScale,
            playTimes: timing.playTimes,
            frames: Int((Double(timing.length * timing.repeats) * timing.frameScale).rounded(.up)), lerp: lerp)
    }

    /// One keyframe placed by the runtime's frame-index table: its start and the frame count its tween spans.
    struct Placed<Value: Sendable> {
        var start: Int
        var count: Int
        var frame: DragonBonesWire.Frame<Value>
    }

    /// The reachable keyframes with their starts, as the runtime's table assigns them (each keyframe starts at the
    /// first table slot after the previous one's span; the last spans to the animation's end).
    static func place<Value: Sendable>(_ frames: [DragonBonesWire.Frame<Value>], length: Int) -> [Placed<Value>] {
        guard !frames.isEmpty else { return [] }
        if frames.count == 1 { return [Placed(start: 0, count: 0, frame: frames[0])] }
        var result: [Placed<Value>] = []
        result.reserveCapacity(frames.count)
        var next = 0, start = 0, count = 0
        for i in 0...max(length, 0) where start + count <= i && next < frames.count {
            start = i
            count = next == frames.count - 1 ? length - start : frames[next].duration
            result.append(Placed(start: start, count: count, frame: frames[next]))
            next += 1
        }
        return result
    }

    /// The model easing of a keyframe whose tween spans `count` frames (DragonBones' quantization kept).
    static func easing(_ tween: DragonBonesWire.Tween, count: Int) -> Easing {
        guard count > 0 else { return .hold }
        switch tween {
        case .none: return .hold
        case .easing(let e):
            if e == 0 { return .linear }
            if e < 0 { return .flashQuadratic(strength: -(-e * 100).rounded() / 100) }
            if e <= 1 { return .flashQuadratic(strength: (e * 100).rounded() / 100) }
            return .quadraticInOut(strength: (e * 100 - 100).rounded() / 100)
        case .curve(let values):
            var points: [Vector2] = []
            if values.count % 3 == 1 {
                points.append(.zero)
                for i in stride(from: 0, to: values.count - 1, by: 2) { points.append(Vector2(x: values[i], y: values[i + 1])) }
                points.append(.one)
                return .bezierPath(points: points, sampledSteps: count + 2)
            }
            for i in stride(from: 0, to: values.count - 1, by: 2) { points.append(Vector2(x: values[i], y: values[i + 1])) }
            guard points.count >= 4, (points.count - 1) % 3 == 0 else { return .linear }
            return .bezierPath(points: points, sampledSteps: count)
        case .samples(let values):
            // Straight segments between the samples (controls at thirds): the runtime's linear interpolation.
            let ys = [0] + values + [1]
            let steps = Double(ys.count - 1)
            var points = [Vector2.zero]
            for k in 1..<ys.count {
                let x0 = Double(k - 1) / steps, x1 = Double(k) / steps
                let y0 = ys[k - 1], y1 = ys[k]
                points.append(Vector2(x: x0 + (x1 - x0) / 3, y: y0 + (y1 - y0) / 3))
                points.append(Vector2(x: x0 + 2 * (x1 - x0) / 3, y: y0 + 2 * (y1 - y0) / 3))
                points.append(Vector2(x: x1, y: y1))
            }
            return .bezierPath(points: points, sampledSteps: nil)
        }
    }

    /// A track from placed keyframes: values mapped by `value`, the loop-back segment added when the animation
    /// repeats.
    ///
    /// `loopBack` gives the value the loop-back segment ends on, from the last and the first values (the runtime
    /// turns angles the short way there); by default the first value.
    static func track<Value: Sendable, V: Hashable & Sendable>(_ placed: [Placed<Value>], timing: Timing, tweened: Bool = true,
                                                     loopBack: ((V, V) -> V)? = nil,
                                                     _ value: (Int, DragonBonesWire.Frame<Value>) -> V) -> Track<V> {
        var track = Track<V>()
        guard !placed.isEmpty else { return track }
        track.keyframes.reserveCapacity(placed.count + 1)
        let values = placed.enumerated().map { value($0.offset, $0.element.frame) }
        for (index, item) in placed.enumerated() {
            let isLast = index == placed.count - 1
            var easing: Easing = .hold
            if tweened && placed.count > 1 && (!isLast || timing.looping) {
                easing = Self.easing(item.frame.tween, count: item.count)
            }
            track.append(Keyframe(frame: Frames(Double(item.start) * timing.frameScale), value: values[index],
                                  easing: easing))
            if isLast && easing.interpolates && item.count > 0 {
                track.append(Keyframe(frame: Frames(Double(item.start + item.count) * timing.frameScale),
                                      value: loopBack.map { $0(values[index], values[0]) } ?? values[0]))
            }
        }
        return track
    }

    // MARK: Bones

    /// The loop-back target of an angle: the last value turned the short way towards the first (the runtime wraps
    /// the difference into −π…π on the last keyframe of rotation and skew timelines).
    static func shortTurn(_ last: Degrees, _ first: Degrees) -> Degrees {
        Degrees(radians: last.radians + BoneAngles.normalized(first.radians - last.radians))
    }

    /// A transform's radians the runtime's way: rotation wrapped, skew relative to it.
    static func components(_ t: DragonBonesWire.Transform) -> (rotation: Double, skew: Double) {
        let degToRad = Double.pi / 180
        if let rotate = t.rotate {
            return (BoneAngles.normalized(rotate * degToRad), BoneAngles.normalized((t.skew ?? 0) * degToRad))
        }
        let rotation = BoneAngles.normalized((t.skewY ?? 0) * degToRad)
        return (rotation, BoneAngles.normalized((t.skewX ?? 0) * degToRad) - rotation)
    }

    /// A bone's tracks in its setup pose: a constant position, and rotation, skew and scale unless they are the
    /// identity's.
    static func boneSetupTracks(_ bone: DragonBonesWire.Bone) -> NodeTracks {
        let origin = Self.components(bone.transform)
        let setup = bone.transform
        var tracks = NodeTracks()
        tracks.position = Track(constant: Vector2(x: setup.x, y: setup.y))
        if Degrees(radians: origin.rotation) != Degrees(0) { tracks.rotation = Track(constant: Degrees(radians: origin.rotation)) }
        if Degrees(radians: origin.skew) != Degrees(0) { tracks.skew = Track(constant: Degrees(radians: origin.skew)) }
        if Vector2(x: setup.scaleX, y: setup.scaleY) != .one { tracks.scale = Track(constant: Vector2(x: setup.scaleX, y: setup.scaleY)) }
        return tracks
    }

    /// A bone's tracks in an animation: its setup tracks (``boneSetupTracks(_:)``) with what its timeline animates
    /// replaced.
    private mutating func boneTracks(_ bone: DragonBonesWire.Bone, setup setupTracks: NodeTracks,
                                     timeline: DragonBonesWire.BoneTimeline?,
                                     timing: Timing) throws(ImportError) -> NodeTracks {
        guard let timeline else { return setupTracks }
        let origin = Self.components(bone.transform)
        let setup = bone.transform
        var tracks = setupTracks
        let (ts, to, path) = (timeline.scale, timeline.offset, timeline.path)
        let vector = DragonBonesTimelineBaker.lerpVector, degrees = DragonBonesTimelineBaker.lerpDegrees
        // Position and scale as offsets from / factors of the setup pose; rotation and skew from unwrapped
        // angles, turning the short way back to the first frame when the animation loops.
        func position<Value>(_ placed: [Placed<Value>], _ offset: @escaping (Value) -> Vector2) -> Track<Vector2>? {
            timed(scale: ts, offset: to, path: path, timing: timing, lerp: vector) { t in
                Self.track(placed, timing: t) { _, f in
                    let d = offset(f.value)
                    return Vector2(x: setup.x + d.x, y: setup.y + d.y)
                }
            }
        }
        func scale<Value>(_ placed: [Placed<Value>], _ factor: @escaping (Value) -> Vector2) -> Track<Vector2>? {
            timed(scale: ts, offset: to, path: path, timing: timing, lerp: vector) { t in
                Self.track(placed, timing: t) { _, f in
                    let k = factor(f.value)
                    return Vector2(x: setup.scaleX * k.x, y: setup.scaleY * k.y)
                }
            }
        }
        func turn<Value>(_ placed: [Placed<Value>], _ angle: @escaping (Int) -> Double,
                         from base: Double) -> Track<Degrees>? {
            timed(scale: ts, offset: to, path: path, timing: timing, lerp: degrees) { t in
                Self.track(placed, timing: t, loopBack: Self.shortTurn) { i, _ in Degrees(radians: base + angle(i)) }
            }
        }
        if let frames = timeline.all, !frames.isEmpty {
            let placed = Self.place(frames, length: timing.length)
            let angles = BoneAngles.unwrap(placed.map { Self.components($0.frame.value) }, clockwise: placed.map(\.frame.clockwise))
            tracks.position = position(placed) { Vector2(x: $0.x, y: $0.y) }
            tracks.rotation = turn(placed, { angles[$0].rotation }, from: origin.rotation)
            tracks.skew = turn(placed, { angles[$0].skew }, from: origin.skew)
            tracks.scale = scale(placed) { Vector2(x: $0.scaleX, y: $0.scaleY) }
        }
        if let frames = timeline.translate, !frames.isEmpty {
            tracks.position = position(Self.place(frames, length: timing.length)) { $0 }
        }
        if let frames = timeline.rotate, !frames.isEmpty {
            let placed = Self.place(frames, length: timing.length)
            let degToRad = Double.pi / 180
            let raw = placed.map { ($0.frame.value.rotate * degToRad, $0.frame.value.skew * degToRad) }
            let angles = timeline.rotationsUnwrapped
                ? raw.map { (rotation: $0.0, skew: $0.1) } : BoneAngles.unwrap(raw, clockwise: placed.map(\.frame.clockwise))
            tracks.rotation = turn(placed, { angles[$0].rotation }, from: origin.rotation)
            tracks.skew = turn(placed, { angles[$0].skew }, from: origin.skew)
        }
        if let frames = timeline.scaleFrames, !frames.isEmpty {
            tracks.scale = scale(Self.place(frames, length: timing.length)) { $0 }
        }
        if tracks.rotation?.isConstant == true, tracks.rotation?.keyframes.first?.value == Degrees(0) { tracks.rotation = nil }
        if tracks.skew?.isConstant == true, tracks.skew?.keyframes.first?.value == Degrees(0) { tracks.skew = nil }
        if tracks.scale?.isConstant == true, tracks.scale?.keyframes.first?.value == .one { tracks.scale = nil }
        return tracks
    }

    // MARK: Slots

    /// A slot's tracks in an animation; those of a slot the animation does not change (no timeline, play action
    /// or deform, and no armature display, whose animation depends on the parent's) are made once per armature.
    private mutating func slotTracks(_ slot: DragonBonesWire.Slot, index: Int, armature: DragonBonesWire.Armature,
                                     skeleton: Skeleton, animation: DragonBonesWire.Animation?,
                                     timeline: DragonBonesWire.SlotTimeline?,
                                     timing: Timing) throws(ImportError) -> NodeTracks {
        let unchanged = timeline == nil
            && !(skeleton.displays[slot.name] ?? []).contains { $0.type == "armature" }
            && !(animation?.childActions.contains { $0.slot == slot.name || ($0.slot == nil && $0.bone == slot.parent) } ?? false)
            && !(animation?.deforms.contains { $0.slot == slot.name } ?? false)
        guard unchanged else {
            return try makeSlotTracks(slot, armature: armature, skeleton: skeleton, animation: animation,
                                      timeline: timeline, timing: timing)
        }
        if let made = slotSetupTracks[index] {
            for warning in made.warnings { warn(warning.code, warning.message, warning.path, info: warning.info) }
            return made.tracks
        }
        recordedWarnings = []
        defer { recordedWarnings = nil }
        let tracks = try makeSlotTracks(slot, armature: armature, skeleton: skeleton, animation: animation,
                                        timeline: nil, timing: timing)
        slotSetupTracks[index] = (tracks, recordedWarnings ?? [])
        return tracks
    }

    private mutating func makeSlotTracks(_ slot: DragonBonesWire.Slot, armature: DragonBonesWire.Armature,
                                         skeleton: Skeleton, animation: DragonBonesWire.Animation?,
                                         timeline: DragonBonesWire.SlotTimeline?,
                                         timing: Timing) throws(ImportError) -> NodeTracks {
        let displays = skeleton.displays[slot.name] ?? []
        var displayKeys: [(start: Int, index: Int, play: String?)] = [(0, slot.displayIndex, nil)]
        let shifted = timeline.map { DragonBonesTimelineBaker.isShifted(scale: $0.scale, offset: $0.offset) } ?? false
            || timing.repeats > 1
        var displayScale = timing.frameScale
        if let frames = timeline?.display, !frames.isEmpty {
            displayKeys = Self.place(frames, length: timing.length).map { ($0.start, $0.frame.value, nil) }
            if shifted { displayScale = 1 }
        }
        // Play actions for this slot's child armature (its own, or its bone's) fire at their frames: on the display
        // key there, or on a new key that keeps the display shown then. The last one at a frame wins.
        let actions = (animation?.childActions ?? []).filter {
            ($0.slot == slot.name || ($0.slot == nil && $0.bone == slot.parent)) && $0.frame >= 0 && $0.frame <= timing.length
        }
        for action in actions.sorted(by: { $0.frame < $1.frame }) {
            guard let i = displayKeys.lastIndex(where: { $0.start <= action.frame }) else { continue }
            if displayKeys[i].start == action.frame {
                displayKeys[i].play = action.animation
            } else {
                displayKeys.insert((action.frame, displayKeys[i].index, action.animation), at: i + 1)
            }
        }
        let clamp = { (index: Int) in index < displays.count ? index : displays.count - 1 }
        let setupIndex = clamp(slot.displayIndex)
        var tracks = NodeTracks()
        var position = Track<Vector2>(), rotation = Track<Degrees>(), skew = Track<Degrees>()
        var scale = Track<Vector2>(), pivot = Track<Vector2>()
        var previous: NodeContent? = nil
        var previousIndex: Int? = nil
        var content = Track<NodeContent>()
        for (keyIndex, key) in displayKeys.enumerated() {
            let frame = Frames(Double(key.start) * displayScale)
            let index = clamp(key.index)
            var value = NodeContent.none
            var restart = false
            var childDelay = 0.0
            var transform = DragonBonesWire.Transform()
            var slotPivot = Vector2.zero
            if index >= 0 {
                let display = displays[index]
                transform = display.transform
                switch display.type {
                case "image":
                    // The runtime shows nothing for a texture the atlases lack; so do we, and say so.
                    guard spriteIDs.contains(display.path) else {
                        warn("missing-texture", "texture \"\(display.path)\" is not in the texture atlas; the display is not drawn",
                             display.jsonPath)
                        break
                    }
                    value = .sprite(display.path)
                    let size = atlas.untrimmedSizes[display.path] ?? Size(width: 0, height: 0)
                    slotPivot = Vector2(x: display.pivot.x * size.width, y: display.pivot.y * size.height)
                case "mesh":
                    if let id = meshIDs["\(armature.name)\u{1}\(slot.name)\u{1}\(display.name)"] { value = .mesh(id) }
                case "armature":
                    if let child = data.armatures.first(where: { $0.name == display.path }) {
                        let restarts = key.play.map { play in child.animations.contains { $0.name == play } } ?? false
                        let anew = index != previousIndex
                        if !anew, !restarts, let previous {
                            // Still shown: it goes on with what it plays.
                            value = previous
                            break
                        }
                        let choice = Self.childAnimation(
                            child, display: display, action: key.play,
                            inherited: keyIndex == 0 && index == setupIndex ? animation?.name : nil)
                        let played = choice.flatMap { name in child.animations.first { $0.name == name.animation } }
                        restart = restarts
                        // When the runtime's clock, ticking once per document frame, starts the child's time
                        // (format.md §6.2): a fade-in holds its first frame.
                        let fade = choice?.fades == true ? min((played?.fadeInTime ?? 0) * data.frameRate, 1e6) : 0
                        let ticks = fade > 0 ? (fade - 1e-6).rounded(.up) : 0
                        if !anew && key.start > 0 {
                            // An action fires in the parent's update; the child advances in the same tick.
                            childDelay = max(ticks, 1) - 2
                        } else {
                            childDelay = max(ticks - 1, 0)
                        }
                        let playTimes = played?.playTimes ?? 0
                        if let played {
                            childLengths["\(child.name)/\(played.name)"] = animationLength(child, played)
                                * Double(Self.repeatsForTimelineScales(played)) + (playTimes == 1 ? 1 : 0)
                        }
                        value = .composition(CompositionInstance(
                            composition: played.map { "\(child.name)/\($0.name)" } ?? defaultCompositionID(child),
                            firstFrame: .zero, loop: playTimes == 1 ? .playOnce : .loop, clock: .independent,
                            keepsTime: true))
                    } else {
                        warn("unknown-armature", "display names an armature \"\(display.path)\" that the data does not define",
                             display.jsonPath)
                    }
                case "boundingBox":
                    warn("bounding-box-not-drawn", "bounding boxes are hit areas, not art; not drawn", display.jsonPath, info: true)
                case "path":
                    warn("path-not-supported", "path displays and path constraints are not supported", display.jsonPath)
                default:
                    warn("unknown-display-type", "unknown display type \"\(display.type)\"; not drawn", display.jsonPath)
                }
            }
            let angles = Self.components(transform)
            // A nested armature restarts when it is shown anew (another display object) or an action plays one of
            // its animations; its time starts `childDelay` document frames later (earlier when negative), which
            // the instance's first frame carries until the track is complete (`Self.delayChildStarts`).
            if case .composition(var instance) = value, childDelay != 0 {
                instance.firstFrame = Frames(-childDelay)
                value = .composition(instance)
            }
            var shownAnew = previous != value
            if case .composition = value, index != previousIndex { shownAnew = true }
            if restart || shownAnew || content.keyframes.isEmpty {
                content.appendRestarting(Keyframe(frame: frame, value: value))
            }
            previous = value
            previousIndex = index
            position.append(Keyframe(frame: frame, value: Vector2(x: transform.x, y: transform.y)))
            rotation.append(Keyframe(frame: frame, value: Degrees(radians: angles.rotation)))
            skew.append(Keyframe(frame: frame, value: Degrees(radians: angles.skew)))
            scale.append(Keyframe(frame: frame, value: Vector2(x: transform.scaleX, y: transform.scaleY)))
            pivot.append(Keyframe(frame: frame, value: slotPivot))
        }
        if displayScale != timing.frameScale, let timeline {
            func bake<V: Hashable & Sendable>(_ track: Track<V>) -> Track<V> {
                timed(scale: timeline.scale, offset: timeline.offset, path: timeline.path, timing: timing,
                             lerp: nil) { _ in track }
            }
            content = bake(content)
            position = bake(position)
            rotation = bake(rotation)
            skew = bake(skew)
            scale = bake(scale)
            pivot = bake(pivot)
        }
        tracks.content = Self.delayChildStarts(
            content, lengths: childLengths,
            end: Double(timing.length * timing.repeats) * timing.frameScale + (timing.looping ? 0 : 1))
        tracks.position = position
        if !(rotation.isConstant && rotation.keyframes.first?.value == Degrees(0)) { tracks.rotation = rotation }
        if !(skew.isConstant && skew.keyframes.first?.value == Degrees(0)) { tracks.skew = skew }
        if !(scale.isConstant && scale.keyframes.first?.value == .one) { tracks.scale = scale }
        if !(pivot.isConstant && pivot.keyframes.first?.value == .zero) { tracks.pivot = pivot }
        // Colour: the timeline's values replace the setup colour.
        if let timeline, let frames = timeline.color, !frames.isEmpty {
            let placed = Self.place(frames, length: timing.length)
            let track = timed(scale: timeline.scale, offset: timeline.offset, path: timeline.path, timing: timing,
                              lerp: DragonBonesTimelineBaker.lerpColor) { t in
                Self.track(placed, timing: t) { _, f in Self.colorTransform(f.value) }
            }
            if !(track.isConstant && track.keyframes.first?.value == .identity) { tracks.color = track }
        } else if let color = slot.color, Self.colorTransform(color) != .identity {
            tracks.color = Track(constant: Self.colorTransform(color))
        }
        if let mode = slot.blendMode {
            let names = ["normal", "add", "alpha", "darken", "difference", "erase", "hardlight", "invert", "layer",
                         "lighten", "multiply", "overlay", "screen", "subtract"]
            let name = Int(mode).map { names.indices.contains($0) ? names[$0] : "normal" } ?? mode
            if let blend = BlendMode(rawValue: name), blend != .normal {
                tracks.blendMode = Track(constant: blend)
            } else if BlendMode(rawValue: name) == nil {
                warn("unknown-blend-mode", "unknown blend mode \"\(mode)\"; normal is used", slot.path.appending("blendMode"))
            }
        }
        if let animation {
            let deforms = animation.deforms.filter { $0.slot == slot.name }
            if deforms.count > 1 {
                warn("multiple-deforms-not-converted", "a slot with more than one deform timeline keeps the first",
                     deforms[1].path)
            }
            if let deform = deforms.first {
                tracks.deform = try deformTrack(deform, armature: armature, skeleton: skeleton, timing: timing)
            }
        }
        return tracks
    }

    /// A content track whose child-armature instances carry a start delay as a negative first frame (`−d`): the
    /// runtime holds an animation that fades in at its first frame, so the child's time starts `d` document frames
    /// after it appears.
    ///
    /// A looping child shown by the track's only keyframe (all through the parent) starts `d` frames before its
    /// loop's end instead (`firstFrame = −d mod L`) and keeps its own time, so it stays in step with the runtime
    /// across the parent's loops, where the runtime's child plays on; any other is shown at its first frame, held,
    /// for `d` frames, then plays from there, unless the next content keyframe or the composition's `end` comes
    /// first. (During the fade the
    /// runtime blends the old pose into the new one; the model shows one of them.)
    static func delayChildStarts(_ track: Track<NodeContent>, lengths: [String: Double], end: Double)
        -> Track<NodeContent>
    {
        var result = Track<NodeContent>()
        for (i, key) in track.keyframes.enumerated() {
            guard case .composition(var instance) = key.value, instance.firstFrame.value < 0 else {
                result.appendRestarting(key)
                continue
            }
            let delay = -instance.firstFrame.value
            if track.keyframes.count == 1, key.frame == .zero, instance.loop == .loop,
                let length = lengths[instance.composition], length > 0
            {
                let phase = delay.truncatingRemainder(dividingBy: length)
                instance.firstFrame = Frames(phase == 0 ? 0 : length - phase)
                result.appendRestarting(Keyframe(frame: key.frame, value: .composition(instance)))
                continue
            }
            instance.firstFrame = .zero
            var held = instance
            held.loop = .singleFrame
            held.keepsTime = false
            result.appendRestarting(Keyframe(frame: key.frame, value: .composition(held)))
            let next = i + 1 < track.keyframes.count ? track.keyframes[i + 1].frame.value : end
            if key.frame.value + delay < next {
                result.appendRestarting(Keyframe(frame: Frames(key.frame.value + delay), value: .composition(instance)))
            }
        }
        return result
    }

    static func colorTransform(_ c: DragonBonesWire.Color) -> ColorTransform {
        // The runtime stores multipliers as whole percent and offsets as whole numbers.
        ColorTransform(
            redMultiplier: c.rM.rounded() / 100, greenMultiplier: c.gM.rounded() / 100, blueMultiplier: c.bM.rounded() / 100,
            alphaMultiplier: c.aM.rounded() / 100, redOffset: c.rO.rounded(), greenOffset: c.gO.rounded(),
            blueOffset: c.bO.rounded(), alphaOffset: c.aO.rounded())
    }

    // MARK: Deform

    private mutating func deformTrack(_ timeline: DragonBonesWire.DeformTimeline, armature: DragonBonesWire.Armature,
                                      skeleton: Skeleton, timing: Timing) throws(ImportError) -> Track<MeshDeform>? {
        guard let id = meshIDs["\(armature.name)\u{1}\(timeline.slot)\u{1}\(timeline.display)"],
            let mesh = meshes.first(where: { $0.id == id }),
            let wire = (skeleton.displays[timeline.slot] ?? []).first(where: { $0.name == timeline.display })?.mesh
        else {
            warn("deform-target-missing", "deform timeline for slot \"\(timeline.slot)\" names no mesh display \"\(timeline.display)\"",
                 timeline.path)
            return nil
        }
        let slotPose = (wire.slotPose?.count ?? 0) >= 6 ? Self.matrix(wire.slotPose!, at: 0) : .identity
        var boneInverse: [String: Matrix2D] = [:]
        if let poses = wire.bonePose {
            for start in stride(from: 0, to: poses.count - 6, by: 7) {
                let index = abs(poses[start]) < 1_000_000 ? Int(poses[start]) : -1
                if armature.bones.indices.contains(index), let inverse = Self.matrix(poses, at: start + 1).inverted {
                    boneInverse[Self.boneID(armature.bones[index].name)] = inverse
                }
            }
        }
        func linear(_ m: Matrix2D, _ x: Double, _ y: Double) -> (Double, Double) { (m.a * x + m.c * y, m.b * x + m.d * y) }
        let placed = Self.place(timeline.frames, length: timing.length)
        let count = timeline.perInfluence ? mesh.deformValueCount / 2 : mesh.vertices.count
        return timed(scale: timeline.scale, offset: timeline.offset, path: timeline.path, timing: timing,
                     lerp: DragonBonesTimelineBaker.lerpDeform) { t in Self.track(placed, timing: t) { _, frame in
            var offsets: [Double] = []
            offsets.reserveCapacity(mesh.deformValueCount)
            for i in 0..<count {
                func raw(_ k: Int) -> Double {
                    let j = k - frame.value.offset
                    return j >= 0 && j < frame.value.vertices.count ? frame.value.vertices[j] : 0
                }
                let x = raw(2 * i), y = raw(2 * i + 1)
                if timeline.perInfluence {
                    // Binary data: one offset per influence, already in the bone's space; `i` counts influences.
                    offsets.append(x)
                    offsets.append(y)
                } else if let weights = mesh.weights {
                    let (px, py) = linear(slotPose, x, y)
                    for influence in weights[i] {
                        let (bx, by) = linear(boneInverse[influence.bone] ?? .identity, px, py)
                        offsets.append(bx)
                        offsets.append(by)
                    }
                } else {
                    offsets.append(x)
                    offsets.append(y)
                }
            }
            return MeshDeform(mesh: id, offsets: offsets)
        } }
    }

    // MARK: Z order

    /// Per slot, a held draw-order track from a `zOrder` timeline; `nil` when the animation has none.
    private func zOrderTracks(_ animation: DragonBonesWire.Animation, slotCount: Int, timing: Timing) -> [Track<Int>]? {
        guard let frames = animation.zOrder, !frames.isEmpty else { return nil }
        let wire = frames.map { DragonBonesWire.Frame(duration: $0.duration, tween: .none, value: $0.changes) }
        var tracks = Array(repeating: Track<Int>(), count: slotCount)
        for item in Self.place(wire, length: timing.length) {
            let order = Self.slotOrder(item.frame.value, slotCount: slotCount)
            let frame = Frames(Double(item.start) * timing.frameScale)
            for (position, slot) in order.enumerated() where slot >= 0 && slot < slotCount {
                tracks[slot].append(Keyframe(frame: frame, value: position))
            }
        }
        return tracks
    }

    /// The slot shown at each draw position for a list of (slot index, offset) pairs; unlisted slots keep their
    /// relative order in the remaining positions.
    static func slotOrder(_ changes: [Int], slotCount: Int) -> [Int] {
        guard !changes.isEmpty else { return Array(0..<slotCount) }
        var order = Array(repeating: -1, count: slotCount)
        var unchanged: [Int] = []
        var original = 0
        for pair in stride(from: 0, to: changes.count - 1, by: 2) {
            let slot = changes[pair], offset = changes[pair + 1]
            while original < slotCount && original != slot {
                unchanged.append(original)
                original += 1
            }
            if original + offset >= 0 && original + offset < slotCount { order[original + offset] = original }
            original += 1
        }
        while original < slotCount {
            unchanged.append(original)
            original += 1
        }
        var remaining = unchanged.count
        for position in stride(from: slotCount - 1, through: 0, by: -1) where order[position] == -1 {
            remaining -= 1
            order[position] = remaining >= 0 ? unchanged[remaining] : 0
        }
        return order
    }
}
