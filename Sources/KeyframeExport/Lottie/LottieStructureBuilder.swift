import Foundation
import KeyframeEngine
import KeyframeJSON
import KeyframeModel
import KeyframeRender

/// Builds the Lottie animation of one clip with the model's structure: nested compositions become precomps
/// (`ty 0`) whose time remap (`tm`) reproduces the composition time of format.md §4.7, nodes become layers with
/// their own (local) transforms, and the hierarchy becomes `parent` links (null layers, `ty 3`, for nodes that show
/// nothing themselves, such as bones).
///
/// Every composition is sampled once per local frame it shows, wherever it is used: a composition whose nested
/// timelines are all functions of its own local time is one precomp asset shared by all its instances (per
/// constant inherited tint). One whose nested time is not (a movie clip aging on its own clock inside a held or
/// reversed graphic) is keyed on the clip's frames instead, as an asset of its own per instance, and so is
/// everything above it.
///
/// Returns `nil` (the caller then writes the flattened form of ``LottieClipBuilder``) when the clip uses something
/// the structure cannot carry exactly: masks, draw-order tracks, blend modes, colour offsets or alpha beyond 0…1.
struct LottieStructureBuilder {
    let document: Document
    let clip: Clip
    let library: AtlasLibrary
    let settings: LottieExportSettings
    let sampler: PoseSampler

    /// Why the clip is written flattened.
    struct Unsupported: Error {
        var reason: String
    }

    /// One clip frame as a composition instance sees it (format.md §4.7).
    typealias Instant = CompositionInstant

    /// A key of an asset: its time on the asset's own axis, and the composition's local frame shown there.
    struct Key {
        var time: Double
        var local: Double
        /// The instance's bookkeeping (clip-keyed assets only).
        var instant: Instant?
    }

    /// What the analysis learns about one composition over the whole clip.
    struct Usage {
        var locals: Set<Double> = []
        /// (node index, span start) → local frame → child local frame.
        var spans: [SpanKey: [Double: Double]] = [:]
        var conflict = false
        /// Largest scale from this composition's space to the canvas.
        var outerNorm = 0.0
    }

    struct SpanKey: Hashable {
        var node: Int
        var start: Double
    }

    let compositions: [String: Composition]
    private let sprites: [String: Sprite]
    private let structureSampler: PoseSampler
    private var usage: [String: Usage] = [:]
    private var clipKeyed: [String: Bool] = [:]
    private var bounds: [String: (x0: Double, y0: Double, x1: Double, y1: Double)?] = [:]
    private var stateCache: [String: [Double: [Pose.NodeValues?]]] = [:]
    private var sharedAssets: [String: String] = [:]  // composition + tint key → asset id
    var assets: [JSONValue] = []
    var images: LottieImageTable
    let names: LottieNames
    var context: LottieClipBuilder.Context
    var chain = 1
    private var rate: Double
    /// Mesh poses per composition and local frame (``meshPositions``), and each mesh picture's precomp asset.
    var meshPoses: [String: [Double: [String: Pose.Mesh]]] = [:]
    var meshAssets: [String: String] = [:]
    private var frameCount = 0
    /// Per composition, its visited local frames in order (`portable` keys shared precomps on these ranks).
    private var ranks: [String: [Double: Double]] = [:]

    /// Time remap values are written this many frames ahead, so that a player that truncates the remapped time to
    /// a whole frame (rlottie 0.1) lands on the intended frame despite single-precision rounding.
    static let timeLead = 1e-4
    /// Margin around a precomp's content, in pixels.
    static let margin = 2.0

    /// `sampler` samples `document`; `structureSampler` samples its ``CALayerTreeBuilder/samplingDocument(_:)``
    /// (both shared by every clip of an export).
    init(document: Document, clip: Clip, library: AtlasLibrary, settings: LottieExportSettings, sampler: PoseSampler,
         structureSampler: PoseSampler, pictures: LottiePictureCache, names: LottieNames) {
        self.document = document
        self.clip = clip
        self.library = library
        self.settings = settings
        self.sampler = sampler
        var compositions: [String: Composition] = [:]
        for composition in document.compositions where compositions[composition.id] == nil {
            compositions[composition.id] = composition
        }
        self.compositions = compositions
        var sprites: [String: Sprite] = [:]
        for sprite in document.assets.sprites where sprites[sprite.id] == nil { sprites[sprite.id] = sprite }
        self.sprites = sprites
        self.structureSampler = structureSampler
        self.names = names
        images = LottieImageTable(document: document, library: library, cache: pictures, names: names)
        context = LottieClipBuilder.Context(settings: settings, clipName: clip.name)
        rate = document.frameRate.framesPerSecond
    }

    // MARK: Build

    /// The structured animation, or why the clip must be written flattened.
    mutating func build() throws(ExportError) -> (output: LottieClipBuilder.Output?, flattened: String?) {
        do {
            return (try buildStructure(), nil)
        } catch let error as ExportError {
            throw error
        } catch let unsupported as Unsupported {
            return (nil, unsupported.reason)
        } catch {
            throw ExportError(message: "\(error)")
        }
    }

    private mutating func buildStructure() throws -> LottieClipBuilder.Output {
        try checkSupported()
        let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate, fps: rate, selection: .all)
        let scene = RenderScene(sampler: sampler, library: library)
        let framing: Framing
        if let stage = document.stage, stage.width > 0, stage.height > 0 {
            framing = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: nil).framing
        } else {
            // Framed on the content: every frame's pose is sampled for its bounds, and the same evaluation gives the
            // root composition's node values at that frame (the clip has no masks, so the sampling document's are
            // the same), which the emission below reads rather than evaluating them again.
            var poses: [Pose] = []
            poses.reserveCapacity(plans.count)
            for plan in plans {
                for layer in plan.layers where layer.scene == 0 {
                    guard layer.playback == nil, layer.clip == clip else {
                        poses.append(layer.pose(in: scene))
                        continue
                    }
                    let sampled = sampler.sampleWithRootValues(clip: clip, time: layer.time)
                    poses.append(sampled.pose)
                    // The local frame the sampler showed (its clamp), which the keys below name.
                    let local = clip.start.value + min(max(layer.time.value, 0), max(clip.duration.value - 1e-9, 0))
                    if !sampled.rootValues.isEmpty { stateCache[clip.composition, default: [:]][local] = sampled.rootValues }
                }
            }
            framing = try Framing.make(poses: poses, scene: scene, fit: .stage, size: nil).framing
        }
        let view = Matrix2D(a: framing.rootToDevice.a, b: framing.rootToDevice.b, c: framing.rootToDevice.c,
                            d: framing.rootToDevice.d, tx: framing.rootToDevice.tx, ty: framing.rootToDevice.ty)
        let times = plans.enumerated().map { index, plan in (plan.layers.first?.time ?? Frames(Double(index))).value }
        let instants = times.map { t -> Instant? in
            let e = min(max(t, 0), max(clip.duration.value - 1e-9, 0))
            return Instant(local: clip.start.value + e, elapsed: e, linear: true, unwrapped: clip.start.value + e,
                           lo: clip.start.value, hi: clip.start.value + clip.duration.value)
        }
        // Analysis: every composition's local frames, its nested timelines' maps, the scale it is shown at.
        frameCount = plans.count
        try analyze(clip.composition, instants: instants, world: view, depth: 0)
        if settings.profile == .portable {
            for (id, use) in usage {
                var rank: [Double: Double] = [:]
                for (i, local) in use.locals.sorted().enumerated() { rank[local] = Double(i) }
                ranks[id] = rank
            }
        }
        resolveClipKeyed(clip.composition, depth: 0)
        chain = chainLength(clip.composition, depth: 0)
        // Emission: the root's layers keyed on the clip's frames, in canvas space.
        let keys = times.indices.map { Key(time: Double($0), local: instants[$0]!.local, instant: instants[$0]) }
        let layers = try assetLayers(clip.composition, keys: keys, base: view, outer: 1, tint: .identity,
                                     path: clip.composition, depth: 0, rootOut: Double(plans.count))
        let renames = try images.finish()
        let imageAssets = images.assets(mode: settings.images, folder: settings.imageFolder)
        let animation: JSONObject = [
            "v": "5.7.4", "nm": .string(clip.name), "fr": .number(rate), "ip": 0, "op": .number(Double(plans.count)),
            "w": .number(Double(framing.width)), "h": .number(Double(framing.height)), "ddd": 0,
            "assets": LottieImageTable.renaming(.array(imageAssets.json + assets), renames),
            "layers": LottieImageTable.renaming(.array(layers), renames),
        ]
        context.report.images = imageAssets.json.count
        return LottieClipBuilder.Output(json: .object(animation), files: imageAssets.files,
                                        diagnostics: context.diagnostics.diagnostics, report: context.report)
    }

    /// The clip's compositions use nothing the structured form cannot carry.
    private func checkSupported() throws {
        var seen: Set<String> = []
        var queue = [clip.composition]
        while let id = queue.popLast() {
            guard seen.insert(id).inserted, let composition = compositions[id] else { continue }
            for node in composition.nodes {
                if node.isMask || node.maskedBy != nil { throw Unsupported(reason: "\(id)/\(node.id) uses a mask") }
                if node.tracks.drawOrder.map({ !$0.keyframes.isEmpty }) ?? false {
                    throw Unsupported(reason: "\(id)/\(node.id) changes the draw order")
                }
                if let modes = node.tracks.blendMode?.keyframes, modes.contains(where: { $0.value != .normal }) {
                    throw Unsupported(reason: "\(id)/\(node.id) uses a blend mode")
                }
                // What a filtered node shows is drawn into pictures on the canvas, which only the flattened form
                // (every layer at the root, in canvas pixels) places.
                if let filters = node.tracks.filters?.keyframes,
                    filters.contains(where: { $0.value.contains { $0.effect != nil } })
                {
                    throw Unsupported(reason: "\(id)/\(node.id) has a filter")
                }
                for keyframe in node.tracks.content?.keyframes ?? [] {
                    if case .composition(let instance) = keyframe.value { queue.append(instance.composition) }
                }
            }
        }
    }

    // MARK: Analysis

    private mutating func analyze(_ id: String, instants: [Instant?], world: Matrix2D?, depth: Int) throws {
        guard let composition = compositions[id], depth < PoseSampler.maximumDepth else { return }
        var use = usage[id] ?? Usage()
        for case let instant? in instants { use.locals.insert(instant.local) }
        usage[id] = use
        for (index, node) in composition.nodes.enumerated() {
            guard let track = node.tracks.content,
                track.keyframes.contains(where: { if case .composition = $0.value { return true } else { return false } })
            else { continue }
            // Child instants per span, as the sampler computes them.
            var perSpan: [Double: (CompositionInstance, [Instant?], Double)] = [:]
            for (k, instant) in instants.enumerated() {
                guard let instant, let held = track.heldKeyframe(at: Frames(instant.local)),
                    case .composition(let instance) = held.keyframe.value,
                    let child = compositions[instance.composition]
                else { continue }
                let start = held.keyframe.frame.value
                let nested = instant.child(instance, spanStart: start, spanEnd: held.next?.value,
                                           length: child.duration.value)
                let local = nested.local
                var entry = perSpan[start] ?? (instance, Array(repeating: nil, count: instants.count), 0)
                entry.1[k] = nested
                // The scale the child is shown at: its node's transform at this frame.
                if let world, let state = states(id, local: instant.local)[index] {
                    entry.2 = max(entry.2, Self.norm(world.concatenating(state.transform)))
                }
                perSpan[start] = entry
                let spanKey = SpanKey(node: index, start: start)
                if let known = usage[id]!.spans[spanKey]?[instant.local], abs(known - local) > 1e-7 {
                    usage[id]!.conflict = true
                }
                usage[id]!.spans[spanKey, default: [:]][instant.local] = local
            }
            for start in perSpan.keys.sorted() {
                let (instance, childInstants, norm) = perSpan[start]!
                usage[instance.composition, default: Usage()].outerNorm =
                    max(usage[instance.composition]?.outerNorm ?? 0, norm)
                let childWorld = norm > 0 ? Matrix2D(a: norm, b: 0, c: 0, d: norm, tx: 0, ty: 0) : nil
                try analyze(instance.composition, instants: childInstants, world: childWorld, depth: depth + 1)
            }
        }
    }

    /// A composition is keyed on the clip's frames when its nested time is not a function of its own local time,
    /// or anything it shows is.
    @discardableResult
    private mutating func resolveClipKeyed(_ id: String, depth: Int) -> Bool {
        if let known = clipKeyed[id] { return known }
        clipKeyed[id] = false
        var keyed = usage[id]?.conflict ?? false
        // rlottie clamps a remapped time to the animation's own frame range: in `portable`, a shared precomp is
        // keyed on the ranks of the local frames it shows, which must fit in the clip's frames.
        if settings.profile == .portable, id != clip.composition, (usage[id]?.locals.count ?? 0) > frameCount {
            keyed = true
        }
        for child in nestedCompositions(id) where depth < PoseSampler.maximumDepth {
            if resolveClipKeyed(child, depth: depth + 1) { keyed = true }
        }
        clipKeyed[id] = keyed
        return keyed
    }

    private func nestedCompositions(_ id: String) -> [String] {
        var result: [String] = []
        for node in compositions[id]?.nodes ?? [] {
            for keyframe in node.tracks.content?.keyframes ?? [] {
                if case .composition(let instance) = keyframe.value, !result.contains(instance.composition),
                    usage[instance.composition] != nil
                {
                    result.append(instance.composition)
                }
            }
        }
        return result
    }

    /// How many transform layers can stand between a picture and the canvas (each contributes its error).
    private func chainLength(_ id: String, depth: Int) -> Int {
        guard let composition = compositions[id], depth < PoseSampler.maximumDepth else { return 1 }
        var indices: [String: Int] = [:]
        for (index, node) in composition.nodes.enumerated() { indices[node.id] = index }
        var deepest = 1
        for node in composition.nodes {
            var count = 1
            var current = node.parent
            while let parent = current, let index = indices[parent], count <= composition.nodes.count {
                count += 1
                current = composition.nodes[index].parent
            }
            deepest = max(deepest, count)
        }
        let below = nestedCompositions(id).map { chainLength($0, depth: depth + 1) }.max() ?? 0
        // Each node may be written as two layers (R·S·R); a precomp layer adds one.
        return 2 * deepest + (below > 0 ? 1 + below : 0)
    }

    // MARK: Sampling

    /// Node transforms and colours of composition `id` at `local`, by node index (nil: not drawn), in the
    /// composition's space: ``PoseSampler/nodeValues(composition:frame:)``, which evaluates nothing else (the values
    /// a full sample reports for the composition's own nodes, bit for bit).
    private mutating func states(_ id: String, local: Double) -> [Pose.NodeValues?] {
        if let known = stateCache[id]?[local] { return known }
        var result = structureSampler.nodeValues(composition: id, frame: Frames(local))
        if result.isEmpty { result = Array(repeating: nil, count: compositions[id]?.nodes.count ?? 0) }
        stateCache[id, default: [:]][local] = result
        return result
    }

    /// The content of composition `id` over every local frame it shows, in its own space (`nil`: nothing drawn).
    private mutating func contentBounds(_ id: String, depth: Int) -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
        if let known = bounds[id] { return known }
        bounds[id] = .some(nil)
        guard let composition = compositions[id], depth < PoseSampler.maximumDepth else { return nil }
        var box: (x0: Double, y0: Double, x1: Double, y1: Double)? = nil
        func add(_ p: Vector2) {
            if let b = box {
                box = (min(b.x0, p.x), min(b.y0, p.y), max(b.x1, p.x), max(b.y1, p.y))
            } else {
                box = (p.x, p.y, p.x, p.y)
            }
        }
        for local in (usage[id]?.locals ?? []).sorted() {
            let nodeStates = states(id, local: local)
            for (index, node) in composition.nodes.enumerated() {
                guard let state = nodeStates[index], let held = node.tracks.content?.heldKeyframe(at: Frames(local))
                else { continue }
                switch held.keyframe.value {
                case .sprite(let spriteID):
                    guard let sprite = sprites[spriteID] else { continue }
                    for (u, v) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
                        add(state.transform.apply(Vector2(x: sprite.origin.x + u * sprite.size.width,
                                                          y: sprite.origin.y + v * sprite.size.height)))
                    }
                case .composition(let instance):
                    guard let child = contentBounds(instance.composition, depth: depth + 1) else { continue }
                    for (x, y) in [(child.x0, child.y0), (child.x1, child.y0), (child.x0, child.y1), (child.x1, child.y1)] {
                        add(state.transform.apply(Vector2(x: x, y: y)))
                    }
                case .mesh:
                    for p in meshPose(id, node: node.id, local: local)?.positions ?? [] where p.x.isFinite && p.y.isFinite {
                        add(p)
                    }
                case .none:
                    continue
                }
            }
        }
        bounds[id] = .some(box)
        return box
    }

    // MARK: Assets

    /// One layer of an asset being written: a node's transform (null), a picture or a precomp.
    private struct Pending {
        var json: JSONObject
        /// Asset-space matrix of this layer's parent (identity for top level) per key, to size tolerances.
        var index: Int
    }

    /// The layers of composition `id` over `keys`: top-level nodes placed through `base` (the view for the clip's
    /// root, the content shift for a precomp), `outer` the largest scale from the asset's space to the canvas.
    private mutating func assetLayers(_ id: String, keys: [Key], base: Matrix2D, outer: Double, tint: ColorTransform,
                                      path: String, depth: Int, rootOut: Double? = nil) throws -> [JSONValue] {
        guard let composition = compositions[id], !keys.isEmpty else { return [] }
        let nodes = composition.nodes
        var indices: [String: Int] = [:]
        for (index, node) in nodes.enumerated() { indices[node.id] = index }
        let parentOf: [Int?] = nodes.map { $0.parent.flatMap { indices[$0] } }
        let keyStates = keys.map { states(id, local: $0.local) }
        // Halfway between keys, to find where the source holds its values.
        var held: [Bool] = []
        for k in 0..<max(keys.count - 1, 0) {
            let a = keys[k], b = keys[k + 1]
            let step = b.local - a.local
            let regular = abs(abs(step) - abs(b.time - a.time)) < 1e-9 && step != 0
            if !regular {
                held.append(true)
                continue
            }
            // Nothing changes between the keys: hold and interpolation agree, no need to look halfway.
            if zip(keyStates[k], keyStates[k + 1]).allSatisfy({ a, b in
                switch (a, b) {
                case (nil, nil): return true
                case (let a?, let b?): return Self.same(a.transform, b.transform) && a.color == b.color
                default: return false
                }
            }) {
                held.append(true)
                continue
            }
            let half = states(id, local: (a.local + b.local) / 2)
            held.append(zip(half, keyStates[k]).allSatisfy { h, s in
                switch (h, s) {
                case (nil, nil): return true
                case (let h?, let s?): return Self.same(h.transform, s.transform) && abs(h.color.alphaMultiplier - s.color.alphaMultiplier) < 1e-9
                default: return false
                }
            })
        }
        let lastOut = rootOut ?? (keys.last!.time + 1)
        func out(after k: Int) -> Double { k + 1 < keys.count ? keys[k + 1].time : lastOut }

        // What each node shows at each key.
        enum Shown: Equatable {
            case sprite(String, String?)  // sprite, bake key
            case mesh(String, String?)  // mesh, bake key
            case composition(Double, String)  // span start, tint key
        }
        var shown: [[Shown?]] = Array(repeating: Array(repeating: nil, count: keys.count), count: nodes.count)
        var bakes: [String: ColorTransform] = [:]
        var tints: [String: ColorTransform] = [:]
        for (index, node) in nodes.enumerated() {
            guard let track = node.tracks.content else { continue }
            for (k, key) in keys.enumerated() {
                guard let state = keyStates[k][index], let held = track.heldKeyframe(at: Frames(key.local)) else { continue }
                let color = state.color
                if abs(color.alphaOffset) > 1e-9 || color.alphaMultiplier > 1 + 1e-9 || color.alphaMultiplier < -1e-9 {
                    throw Unsupported(reason: "\(path)/\(node.id) has a colour offset on alpha or alpha beyond 0…1")
                }
                // Everything above, alpha included: players composite a translucent precomp as a group (rlottie,
                // ThorVG), the model multiplies each picture, so an instance's alpha goes into its content's layers.
                let full = tint.concatenating(color)
                let rgb = CALayerTreeBuilder.withoutAlpha(full)
                switch held.keyframe.value {
                case .sprite(let spriteID):
                    guard sprites[spriteID] != nil else { continue }
                    if CALayerTreeBuilder.isTint(rgb) {
                        let bakeKey = LottieImageTable.key(of: rgb)
                        bakes[bakeKey] = rgb
                        shown[index][k] = .sprite(spriteID, bakeKey)
                    } else {
                        shown[index][k] = .sprite(spriteID, nil)
                    }
                case .composition(let instance):
                    guard contentBounds(instance.composition, depth: depth + 1) != nil else { continue }
                    let tintKey = LottieImageTable.key(of: full)
                    tints[tintKey] = full
                    shown[index][k] = .composition(held.keyframe.frame.value, tintKey)
                case .mesh(let meshID):
                    guard let geometry = document.assets.meshes.first(where: { $0.id == meshID }),
                        sprites[geometry.sprite] != nil
                    else { continue }
                    if CALayerTreeBuilder.isTint(rgb) {
                        let bakeKey = LottieImageTable.key(of: rgb)
                        bakes[bakeKey] = rgb
                        shown[index][k] = .mesh(meshID, bakeKey)
                    } else {
                        shown[index][k] = .mesh(meshID, nil)
                    }
                case .none:
                    continue
                }
            }
        }
        // Filters on what a node shows are left out, each reported once per node and kind.
        for (index, node) in nodes.enumerated() where node.tracks.filters != nil {
            for k in keys.indices where shown[index][k] != nil {
                if keyStates[k][index] != nil, let filters = node.tracks.filters?.heldValue(at: Frames(keys[k].local)),
                    !filters.isEmpty
                {
                    context.dropFilters(filters, node: "\(path)/\(node.id)")
                }
            }
        }
        // A tint that changes over a nested composition cuts its run: each colour is a precomp of its own. An alpha
        // that changes would make a copy per frame: the clip is written flattened instead.
        for (index, node) in nodes.enumerated() {
            var spanAlpha: [Double: Double] = [:]
            for case .composition(let start, let tintKey)? in shown[index] {
                let alpha = tints[tintKey]?.alphaMultiplier ?? 1
                if let known = spanAlpha[start], abs(known - alpha) > 1e-9 {
                    throw Unsupported(reason: "the opacity of \(path)/\(node.id) changes over its nested composition")
                }
                spanAlpha[start] = alpha
            }
        }
        // Which nodes get layers: those that show something and their ancestors.
        var needed = shown.map { $0.contains { $0 != nil } }
        var hasChildren = Array(repeating: false, count: nodes.count)
        for index in nodes.indices.reversed() where needed[index] {
            if let parent = parentOf[index] {
                needed[parent] = true
                hasChildren[parent] = true
            }
        }
        // Runs: consecutive keys showing the same thing.
        struct Run {
            var shown: Shown
            var first: Int
            var last: Int
        }
        var runs: [[Run]] = Array(repeating: [], count: nodes.count)
        for index in nodes.indices {
            for k in keys.indices {
                guard let value = shown[index][k] else { continue }
                if var run = runs[index].last, run.shown == value, run.last == k - 1 {
                    run.last = k
                    runs[index][runs[index].count - 1] = run
                } else {
                    runs[index].append(Run(shown: value, first: k, last: k))
                }
            }
        }
        // Matrices in the asset's space, hidden keys filled with the nearest shown ones (never seen).
        var spaceMatrices: [[Matrix2D]] = Array(repeating: [], count: nodes.count)
        for index in nodes.indices where needed[index] {
            var filled: [Matrix2D?] = keyStates.map { $0[index].map { base.concatenating($0.transform) } }
            var last = filled.first(where: { $0 != nil }) ?? nil
            for k in filled.indices {
                if let m = filled[k] { last = m } else { filled[k] = last }
            }
            var next: Matrix2D? = nil
            for k in filled.indices.reversed() {
                if let m = keyStates[k][index].map({ base.concatenating($0.transform) }) { next = m }
                if keyStates[k][index] == nil, let n = next, filled[k] == nil { filled[k] = n }
            }
            spaceMatrices[index] = filled.map { $0 ?? base }
        }
        let assetBox = contentBounds(id, depth: depth)
        var nextIndex = 1
        var handle: [Int: Int] = [:]  // node index → ind of the layer its children attach to
        var front: [JSONValue] = []
        var nullLayers: [JSONValue] = []
        let allKeys = Array(keys.indices)
        // Nodes' own transform layers (nulls) first, parents before children.
        for index in nodes.indices where needed[index] && (hasChildren[index] || runs[index].count != 1) {
            let local = localMatrices(index, parent: parentOf[index], spaces: spaceMatrices)
            let parentNorm = parentOf[index].map { p in spaceMatrices[p].map(Self.norm).max() ?? 1 } ?? 1
            let extent = Self.extent(origins: spaceMatrices[index], box: assetBox.map { b in
                [Vector2(x: b.x0, y: b.y0), Vector2(x: b.x1, y: b.y0), Vector2(x: b.x0, y: b.y1), Vector2(x: b.x1, y: b.y1)]
                    .map { base.apply($0) } } ?? [])
            let source = LottieSourceTransform.make(
                node: nodes[index], composition: composition, keys: keys.map { ($0.time, $0.local) },
                base: parentOf[index] == nil ? base : nil, placement: .identity, nudgesUnitScale: false,
                constantSkew: settings.profile == .full)
            let written = transformLayers(
                matrices: local, keys: keys, indices: allKeys, held: held, outer: outer, parentNorm: parentNorm,
                extent: extent, name: names.layer(composition: id, node: nodes[index].id), ip: keys[0].time, op: lastOut,
                parent: parentOf[index].flatMap { handle[$0] }, nextIndex: &nextIndex, image: false, source: source)
            nullLayers += written.layers.map { layer in
                var null = layer
                null["ty"] = 3
                return .object(null)
            }
            handle[index] = written.handle
        }
        // Content layers, back to front.
        var drawn: [[JSONValue]] = []
        for index in nodes.indices {
            var nodeLayers: [JSONValue] = []
            for run in runs[index] {
                let span = Array(run.first...run.last)
                let ownNull = handle[index]
                let nodeLocal = ownNull == nil
                    ? localMatrices(index, parent: parentOf[index], spaces: spaceMatrices) : nil
                let parentNorm: Double
                if ownNull != nil {
                    parentNorm = spaceMatrices[index].map(Self.norm).max() ?? 1
                } else {
                    parentNorm = parentOf[index].map { p in spaceMatrices[p].map(Self.norm).max() ?? 1 } ?? 1
                }
                var opacity = span.map { [100 * tint.alphaMultiplier * (keyStates[$0][index]?.color.alphaMultiplier ?? 0)] }
                if case .composition = run.shown { opacity = span.map { _ in [100] } }
                let spanHeld = span.dropLast().map { held[$0] }
                var extra: JSONObject = [:]
                let placement: Matrix2D
                let corners: [Vector2]
                var isImage = false
                var name = names.layer(composition: id, node: nodes[index].id)
                if case .mesh(let meshID, let bakeKey) = run.shown {
                    let triangles = try meshLayers(
                        composition: id, node: nodes[index].id, mesh: meshID, bake: bakeKey.flatMap { bakes[$0] },
                        keys: keys, span: span, base: base, outer: outer, opacity: opacity, name: name,
                        ip: keys[run.first].time, op: out(after: run.last), path: path, nextIndex: &nextIndex)
                    nodeLayers += triangles.content.map(JSONValue.object)
                    nullLayers += triangles.nulls.map(JSONValue.object)
                    continue
                }
                switch run.shown {
                case .sprite(let spriteID, let bakeKey):
                    let bake = bakeKey.flatMap { bakes[$0] }
                    let picture = try images.entry(sprite: spriteID, color: bake, node: "\(path)/\(nodes[index].id)")
                    let sprite = sprites[spriteID]!
                    placement = Matrix2D(a: sprite.size.width / Double(max(picture.width, 1)), b: 0, c: 0,
                                         d: sprite.size.height / Double(max(picture.height, 1)),
                                         tx: sprite.origin.x, ty: sprite.origin.y)
                    corners = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)].map {
                        placement.apply(Vector2(x: $0.0 * Double(picture.width), y: $0.1 * Double(picture.height)))
                    }
                    extra = ["ty": 2, "refId": .string(picture.id)]
                    if bake != nil { context.report.bakedTints += 1 }
                    context.report.layers += 1
                    isImage = true
                case .mesh:
                    continue
                case .composition(let start, let tintKey):
                    guard case .composition(let instance)? = nodes[index].tracks.content?.keyframes
                        .first(where: { $0.frame.value == start })?.value
                    else { continue }
                    let child = instance.composition
                    name = names.precompLayer(composition: id, node: nodes[index].id, showing: child)
                    let box = contentBounds(child, depth: depth + 1)!
                    let shift = Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: Self.margin - box.x0.rounded(.down),
                                         ty: Self.margin - box.y0.rounded(.down))
                    let width = (box.x1 - box.x0).rounded(.up) + 2 * Self.margin + 1
                    let height = (box.y1 - box.y0).rounded(.up) + 2 * Self.margin + 1
                    placement = shift.inverted!
                    corners = [Vector2(x: box.x0, y: box.y0), Vector2(x: box.x1, y: box.y0),
                               Vector2(x: box.x0, y: box.y1), Vector2(x: box.x1, y: box.y1)]
                    let childOuter = max(usage[child]?.outerNorm ?? 1, 1e-9)
                    // The child's own time at each key of this run.
                    var childKeys: [Key] = []
                    var childTimes: [Double] = []
                    let keyed = clipKeyed[child] ?? false
                    let spanKey = SpanKey(node: index, start: start)
                    var childInstants: [Instant?] = []
                    for k in span {
                        let key = keys[k]
                        let childLocal: Double
                        var childInstant: Instant? = nil
                        if let instant = key.instant, keyed {
                            childInstant = childInstantFor(instance, start: start, parent: instant, node: nodes[index])
                            childLocal = childInstant?.local ?? 0
                        } else if let instant = key.instant {
                            childLocal = childInstantFor(instance, start: start, parent: instant, node: nodes[index])?.local ?? 0
                        } else {
                            childLocal = usage[id]?.spans[spanKey]?[key.local] ?? 0
                        }
                        childInstants.append(childInstant)
                        childTimes.append(keyed ? key.time : sharedTime(child, childLocal))
                        if keyed { childKeys.append(Key(time: key.time, local: childLocal, instant: childInstant)) }
                    }
                    let assetID: String
                    if keyed {
                        assetID = "comp_\(assets.count)"
                        assets.append(.null)  // reserve the slot: nested assets take the following ids
                        let slot = assets.count - 1
                        let layers = try assetLayers(child, keys: childKeys, base: shift, outer: childOuter,
                                                     tint: tints[tintKey] ?? .identity,
                                                     path: "\(path)/\(nodes[index].id)>\(child)", depth: depth + 1)
                        assets[slot] = .object(["id": .string(assetID), "nm": .string(names.composition(child)),
                                                "layers": .array(layers)])
                    } else {
                        let shared = "\(child)\u{1}\(tintKey)"
                        if let known = sharedAssets[shared] {
                            assetID = known
                        } else {
                            assetID = "comp_\(assets.count)"
                            sharedAssets[shared] = assetID
                            assets.append(.null)  // reserve the slot, keeping ids in order
                            let slot = assets.count - 1
                            let locals = (usage[child]?.locals ?? []).sorted()
                            let layers = try assetLayers(child, keys: locals.map {
                                                            Key(time: sharedTime(child, $0), local: $0, instant: nil) },
                                                         base: shift, outer: childOuter, tint: tints[tintKey] ?? .identity,
                                                         path: child, depth: depth + 1)
                            assets[slot] = .object(["id": .string(assetID), "nm": .string(names.composition(child)),
                                                    "layers": .array(layers)])
                        }
                    }
                    // Time remap: seconds into the precomp at each key; a jump (a wrap, a restart) holds.
                    var remapHeld: [Bool] = []
                    for i in 0..<max(span.count - 1, 0) {
                        let dt = keys[span[i + 1]].time - keys[span[i]].time
                        let dc = childTimes[i + 1] - childTimes[i]
                        remapHeld.append(!(abs(dc) < 1e-9 || abs(abs(dc) - abs(dt)) < 1e-9))
                    }
                    let identity = zip(span, childTimes).allSatisfy { abs(keys[$0].time - $1) < 1e-9 }
                    extra = ["ty": 0, "refId": .string(assetID), "w": .number(width), "h": .number(height)]
                    if !identity {
                        extra["tm"] = LottieKeyframeReducer(tolerance: [1e-9])
                            .property(childTimes.map { [($0 + Self.timeLead) / rate] }, held: remapHeld,
                                      times: span.map { keys[$0].time }, scalar: true, animated: true,
                                      precision: 1e12)
                    }
                    context.report.precomps += 1
                }
                let matrices: [Matrix2D]
                if let nodeLocal {
                    matrices = span.map { nodeLocal[$0].concatenating(placement) }
                } else {
                    matrices = span.map { _ in placement }
                }
                // How far this layer's content reaches from its origin, in the asset's space.
                var extent = 1.0
                for (i, k) in span.enumerated() {
                    let origin = (ownNull != nil ? spaceMatrices[index][k]
                        : (parentOf[index].map { spaceMatrices[$0][k] } ?? .identity)).concatenating(matrices[i])
                    for corner in corners {
                        let p = spaceMatrices[index][k].apply(corner)
                        extent = max(extent, hypot(p.x - origin.tx, p.y - origin.ty))
                    }
                }
                let spanKeys = span.map { (keys[$0].time, keys[$0].local) }
                let source = nodeLocal == nil ? nil : LottieSourceTransform.make(
                    node: nodes[index], composition: composition, keys: spanKeys,
                    base: parentOf[index] == nil ? base : nil, placement: placement,
                    nudgesUnitScale: isImage && settings.profile == .portable, constantSkew: settings.profile == .full)
                let written = transformLayers(
                    matrices: matrices, keys: keys, indices: span, held: spanHeld, outer: outer, parentNorm: parentNorm,
                    extent: extent, name: name, ip: keys[run.first].time, op: out(after: run.last),
                    parent: ownNull ?? parentOf[index].flatMap { handle[$0] }, nextIndex: &nextIndex, image: isImage,
                    source: source)
                let opacityTolerance = LottieTolerance.opacityPercent / Double(chain)
                var sourceOpacity: JSONValue? = nil
                if isImage, let factor = Self.constantAncestorAlpha(index, in: composition, parentOf: parentOf),
                    var timing = LottieSourceTransform.make(node: nodes[index], composition: composition,
                                                            keys: spanKeys, base: nil, placement: .identity,
                                                            nudgesUnitScale: false, constantSkew: true)
                {
                    sourceOpacity = timing.opacity(factor: factor * tint.alphaMultiplier, tolerance: opacityTolerance)
                    if sourceOpacity != nil { context.report.sourceKeyedProperties += 1 }
                }
                for (position, layer) in written.layers.enumerated() {
                    var json = layer
                    if position == written.layers.count - 1 {
                        for (k, v) in extra { json[k] = v }
                        var ks = json["ks"]?.objectValue ?? [:]
                        ks["o"] = sourceOpacity ?? LottieKeyframeReducer(tolerance: [opacityTolerance])
                            .property(opacity, held: spanHeld, times: span.map { keys[$0].time }, scalar: true)
                        json["ks"] = .object(ks)
                        nodeLayers.append(.object(json))
                    } else {
                        var null = json
                        null["ty"] = 3
                        nullLayers.append(.object(null))
                    }
                }
            }
            drawn.append(nodeLayers)
        }
        for nodeLayers in drawn.reversed() { front += nodeLayers.reversed() }
        return LottieNames.unique(front + nullLayers)
    }

    /// Where local frame `local` of a shared precomp of `id` lies on the precomp's time axis: the frame itself
    /// (`full`), or its rank among the frames the clip shows of it (`portable`, see ``resolveClipKeyed``).
    private func sharedTime(_ id: String, _ local: Double) -> Double {
        ranks[id]?[local] ?? local
    }

    /// The child instant of a span at one parent instant (the sampler's rule, ``CompositionInstant/child``).
    private func childInstantFor(_ instance: CompositionInstance, start: Double, parent instant: Instant,
                                 node: Node) -> Instant? {
        guard let child = compositions[instance.composition],
            let held = node.tracks.content?.heldKeyframe(at: Frames(instant.local))
        else { return nil }
        return instant.child(instance, spanStart: start, spanEnd: held.next?.value, length: child.duration.value)
    }

    /// A node's matrix relative to its parent node's (the asset-space matrix for a top-level node).
    private func localMatrices(_ index: Int, parent: Int?, spaces: [[Matrix2D]]) -> [Matrix2D] {
        guard let parent, !spaces[parent].isEmpty else { return spaces[index] }
        return zip(spaces[parent], spaces[index]).map { p, m in (p.inverted ?? .identity).concatenating(m) }
    }

    /// Writes a sequence of matrices as one layer (rotation, non-uniform scale) or, when one has skew, as an outer
    /// null and an inner layer (`R(φ)·S·R(θ)`). Returns the layers (outer first) and the `ind` children attach to.
    mutating func transformLayers(matrices: [Matrix2D], keys: [Key], indices: [Int], held: [Bool],
                                          outer: Double, parentNorm: Double, extent: Double, name: String,
                                          ip: Double, op: Double, parent: Int?, nextIndex: inout Int, image: Bool,
                                          source: LottieSourceTransform? = nil)
        -> (layers: [JSONObject], handle: Int)
    {
        let times = indices.map { keys[$0].time }
        let budget = Double(chain)
        let screen = max(outer, 1e-12)
        let positionTolerance = LottieTolerance.position / budget / (screen * max(parentNorm, 1e-12))
        let edge = LottieTolerance.edge / budget
        let screenExtent = max(extent * screen, 1)
        let degrees = min(LottieTolerance.degrees, edge / screenExtent * 180 / .pi)
        let scaleTolerance = 100 * edge / screenExtent
        var sourceForm: JSONObject? = nil
        var sourceKeyed = 0
        var sourceHoldsOnly = false
        if var source {
            sourceForm = source.properties(position: positionTolerance, scale: scaleTolerance, degrees: degrees)
            sourceKeyed = source.exactProperties
            sourceHoldsOnly = !source.interpolates
        }
        let skewed = matrices.contains(where: LottieTransform.hasSkew)
        // `full` says skew with `sk` on the layer itself; `portable` rebuilds it as R·S·R (no player lacks that).
        let sheared = skewed && settings.profile == .full
        var transforms: [LottieTransform] = []
        for m in matrices where sourceForm == nil || sourceHoldsOnly {
            transforms.append(sheared ? LottieTransform.sheared(m, previous: transforms.last)
                              : skewed ? LottieTransform.split(m, previous: transforms.last)
                              : LottieTransform.single(m, previous: transforms.last))
        }
        if image && settings.profile == .portable && !skewed {
            for i in transforms.indices where transforms[i].scale == Vector2(x: 1, y: 1)
                && LottieTransform.unwrap(transforms[i].rotation, near: 0) == 0
            {
                transforms[i].scale = Vector2(x: LottieClipBuilder.unitScale, y: LottieClipBuilder.unitScale)
            }
        }
        func position() -> JSONValue {
            LottieKeyframeReducer(tolerance: [positionTolerance, positionTolerance])
                .property(transforms.map { [$0.position.x, $0.position.y] }, held: held, times: times, scalar: false)
        }
        func scale() -> JSONValue {
            LottieKeyframeReducer(tolerance: [scaleTolerance, scaleTolerance])
                .property(transforms.map { [$0.scale.x * 100, $0.scale.y * 100] }, held: held, times: times, scalar: false)
        }
        func rotation(_ values: [Double]) -> JSONValue {
            LottieKeyframeReducer(tolerance: [degrees]).property(values.map { [$0] }, held: held, times: times, scalar: true)
        }
        let zero: JSONValue = .object(["a": 0, "k": [0, 0]])
        func layer(_ ks: JSONObject, parent: Int?, suffix: String) -> JSONObject {
            var json: JSONObject = [
                "ddd": 0, "ty": 3, "ind": .number(Double(nextIndex)), "nm": .string(name + suffix), "sr": 1, "ao": 0,
                "ip": .number(ip), "op": .number(op), "st": 0, "bm": 0, "ks": .object(ks),
            ]
            if let parent { json["parent"] = .number(Double(parent)) }
            nextIndex += 1
            return json
        }
        let opaque: JSONValue = .object(["a": 0, "k": 100])
        if var ks = sourceForm {
            // Holds only: the sampled form is the same motion at the same frames; keep whichever is smaller (an
            // Animate transformation point away from the origin moves the source's position where the sampled
            // origin stays). The sampled form needs one layer (no skew) to compare.
            if sourceHoldsOnly && !skewed {
                let sampled: JSONObject = ["p": position(), "s": scale(), "r": rotation(transforms.map(\.rotation))]
                if LottieSourceTransform.keyframeCount(sampled) < LottieSourceTransform.keyframeCount(ks) {
                    ks = sampled
                    ks["a"] = zero
                    sourceKeyed = 0
                }
            }
            ks["o"] = opaque
            context.report.sourceKeyedProperties += sourceKeyed
            return ([layer(ks, parent: parent, suffix: "")], nextIndex - 1)
        }
        if sheared {
            // Rotation and skew share the rotation's budget; a skew error turns the y axis by sec(sk) times it.
            let steepest = transforms.map { abs($0.skew) }.max() ?? 0
            let half = degrees / 2
            let ks: JSONObject = [
                "a": zero, "p": position(), "s": scale(),
                "r": LottieKeyframeReducer(tolerance: [half])
                    .property(transforms.map { [$0.rotation] }, held: held, times: times, scalar: true),
                "sk": LottieKeyframeReducer(tolerance: [half * cos(steepest * .pi / 180)])
                    .property(transforms.map { [$0.skew] }, held: held, times: times, scalar: true),
                "sa": .object(["a": 0, "k": 0]), "o": opaque,
            ]
            context.report.skews += 1
            return ([layer(ks, parent: parent, suffix: "")], nextIndex - 1)
        }
        if skewed {
            let outerLayer = layer(["a": zero, "p": position(), "s": scale(), "r": rotation(transforms.map(\.rotation)),
                                    "o": opaque], parent: parent, suffix: " (skew)")
            let outerIndex = nextIndex - 1
            let inner = layer(["a": zero, "p": zero, "s": .object(["a": 0, "k": [100, 100]]),
                               "r": rotation(transforms.map { $0.childRotation ?? 0 }), "o": opaque],
                              parent: outerIndex, suffix: "")
            context.report.skewRewrites += 1
            return ([outerLayer, inner], nextIndex - 1)
        }
        let single = layer(["a": zero, "p": position(), "s": scale(), "r": rotation(transforms.map(\.rotation)),
                            "o": opaque], parent: parent, suffix: "")
        return ([single], nextIndex - 1)
    }

    // MARK: Helpers

    /// The alpha every ancestor of node `index` passes to it, when none of their opacity and colour tracks changes
    /// and none has an alpha offset; `nil` otherwise.
    static func constantAncestorAlpha(_ index: Int, in composition: Composition, parentOf: [Int?]) -> Double? {
        var alpha = 1.0
        var current = parentOf[index]
        var depth = 0
        while let ancestor = current {
            guard depth <= composition.nodes.count else { return nil }
            let tracks = composition.nodes[ancestor].tracks
            guard tracks.opacity?.isConstant ?? true, tracks.color?.isConstant ?? true else { return nil }
            if let color = tracks.color?.keyframes.first?.value {
                guard color.alphaOffset == 0 else { return nil }
                alpha *= color.alphaMultiplier
            }
            alpha *= tracks.opacity?.keyframes.first?.value ?? 1
            current = parentOf[ancestor]
            depth += 1
        }
        return alpha
    }

    /// The largest distance from any origin to any point (how far a rotation or scale error carries).
    static func extent(origins: [Matrix2D], box: [Vector2]) -> Double {
        var result = 1.0
        for m in origins {
            for p in box { result = max(result, hypot(p.x - m.tx, p.y - m.ty)) }
        }
        return result
    }

    /// The spectral norm of a matrix's linear part (its largest stretch).
    static func norm(_ m: Matrix2D) -> Double {
        let e = (m.a + m.d) / 2, f = (m.a - m.d) / 2, g = (m.b + m.c) / 2, h = (m.b - m.c) / 2
        return hypot(e, h) + hypot(f, g)
    }

    static func same(_ m: Matrix2D, _ n: Matrix2D) -> Bool {
        abs(m.a - n.a) < 1e-9 && abs(m.b - n.b) < 1e-9 && abs(m.c - n.c) < 1e-9 && abs(m.d - n.d) < 1e-9
            && abs(m.tx - n.tx) < 1e-7 && abs(m.ty - n.ty) < 1e-7
    }
}
