import Foundation
import KeyframeEngine
import KeyframeJSON
import KeyframeModel
import KeyframeRaster
import KeyframeRender

/// Builds the Lottie animation of one clip from the poses the model's sampler gives at every frame.
///
/// Every sprite the clip draws becomes an image layer for each uninterrupted run of frames in which it shows the
/// same picture (same sprite, same baked colour, same blend mode, same mask): `ip`/`op` bound the run. Its world
/// transform at each frame — everything above it composed, nested composition time already applied by the sampler
/// — is written as position, rotation and scale (or, with skew, as a parent null and a rotated child), then reduced
/// to the fewest keyframes within ``LottieTolerance``. Layers are ordered so that every frame draws them in the
/// pose's order; a run is cut where the draw order changes.
struct LottieClipBuilder {
    let document: Document
    let clip: Clip
    let library: AtlasLibrary
    let settings: LottieExportSettings
    let sampler: PoseSampler
    /// Pictures encoded once for the whole export.
    var pictures = LottiePictureCache()
    /// The names layers and pictures get (one per document).
    var names: LottieNames
    /// The atlases with reduced copies, to draw filtered nodes as `keyframe render` does (``PoseBaker``); `nil`:
    /// made from ``library`` when a clip needs them.
    var drawingLibrary: AtlasLibrary? = nil

    /// What the builder produced for the clip.
    struct Output {
        var json: JSONValue
        var files: [ExportedFile]
        var diagnostics: [Diagnostic]
        var report: LottieReport
    }

    /// One item of one frame, as the layer will show it.
    struct Sample {
        var sprite: String
        var path: String
        /// Colour baked into the picture (`nil`: none).
        var bake: ColorTransform?
        /// Layer opacity 0…1.
        var opacity: Double
        var blend: BlendMode
        /// The mask's key (its items' paths), `nil` when unmasked.
        var mask: String?
        /// Sprite-local document pixels → composition pixels.
        var world: Matrix2D
        /// For one triangle of a mesh: its index and its corners in sprite-local document pixels (``world`` is then
        /// the triangle's affine map); the layer shows the picture clipped by the triangle.
        var triangle: (index: Int, shape: MeshTriangles.Triangle)? = nil
    }

    /// A run of frames showing one picture in one layer.
    final class Run {
        let key: String
        let first: Int
        var samples: [Sample] = []
        var held: [Bool] = []
        let serial: Int
        init(key: String, first: Int, serial: Int) {
            self.key = key
            self.first = first
            self.serial = serial
        }
        var last: Int { first + samples.count - 1 }
    }

    func build() throws(ExportError) -> Output {
        let rate = document.frameRate.framesPerSecond
        let plans: [FramePlan]
        do {
            plans = try FramePlan.plans(for: clip, documentRate: document.frameRate, fps: rate, selection: .all)
        } catch {
            throw ExportError(message: "clip \"\(clip.name)\": \(error)")
        }
        // Every frame's pose, sampled once: for the framing (the content's bounds when there is no stage) and for
        // the layers; with the nodes when the document has filters, so every filter left out is reported.
        let scene = RenderScene(sampler: sampler, library: library)
        let filtered = LottieClipBuilder.hasFilters(document)
        let poses = plans.enumerated().map { index, plan in
            sampler.sample(clip: clip, time: plan.layers.first?.time ?? Frames(Double(index)), collectNodes: filtered)
        }
        let framing: Framing
        do {
            framing = try Framing.make(poses: poses, scene: scene, fit: .stage, size: nil).framing
        } catch {
            throw ExportError(message: "clip \"\(clip.name)\": \(error)")
        }
        let view = Matrix2D(a: framing.rootToDevice.a, b: framing.rootToDevice.b, c: framing.rootToDevice.c,
                            d: framing.rootToDevice.d, tx: framing.rootToDevice.tx, ty: framing.rootToDevice.ty)
        var context = Context(settings: settings, clipName: clip.name)
        context.measure = ApproximationMeasure(poses: poses, library: library, framing: framing)
        var images = LottieImageTable(document: document, library: library, cache: pictures, names: names)
        // What a filtered node shows is drawn, filters and all, into pictures at the canvas's size.
        var baker = filtered ? PoseBaker(library: drawingLibrary ?? library.withMipmaps(), framing: framing) : nil

        // Sample every frame, and halfway through each frame to find where the source holds its values.
        var frames: [[Sample]] = []
        var masks: [String: [[Sample]]] = [:]  // mask key → per frame, the mask's items
        var halves: [[String: Sample]] = []
        for (index, plan) in plans.enumerated() {
            let time = plan.layers.first?.time ?? Frames(Double(index))
            let pose = poses[index]
            for node in pose.nodes where node.visible && !node.filters.isEmpty && node.content != .none {
                // Filters `render` draws are in the baked pictures; the others are drawn by nothing.
                context.dropFilters(node.filters.filter { $0.effect == nil }, node: node.path)
            }
            var baked: [Int: (end: Int, sample: Sample?)] = [:]
            if baker != nil {
                for part in PoseBaker.filteredParts(of: pose) {
                    let oversized = baker!.oversized
                    let placement = baker!.bake(pose, items: part.items)
                    let group = pose.filterGroups[part.group]
                    if baker!.oversized > oversized {
                        context.warn("lottie-filter-too-large",
                                     "the filtered picture of \(group.path) would exceed 2²⁶ pixels; it is left out",
                                     node: group.path, approximated: false)
                    }
                    baked[part.items.lowerBound] = (part.items.upperBound, placement.map {
                        bakedSample($0, group: group, context: &context)
                    })
                }
            }
            frames.append(samples(of: pose, view: view, masks: &masks, frame: index, frameCount: plans.count,
                                  baked: baked, context: &context))
            if index + 1 < plans.count {
                let nextTime = plans[index + 1].layers.first?.time ?? Frames(Double(index + 1))
                let half = sampler.sample(clip: clip, time: Frames((time.value + nextTime.value) / 2))
                var scratch: [String: [[Sample]]] = [:]
                var quiet = Context(settings: settings, clipName: clip.name)
                let list = samples(of: half, view: view, masks: &scratch, frame: index, frameCount: plans.count,
                                   context: &quiet)
                halves.append(Dictionary(keyed(list), uniquingKeysWith: { a, _ in a }))
            }
        }

        var layers: [JSONValue] = []
        var nextIndex = 1
        var assets: [JSONValue] = []
        var matteAssets: [String: String] = [:]  // mask key → precomp asset id
        for (maskKey, maskFrames) in masks.sorted(by: { $0.key < $1.key }) where settings.profile == .full {
            let id = "matte_\(matteAssets.count)"
            matteAssets[maskKey] = id
            var index = 1
            let runs = try LottieClipBuilder.runs(of: maskFrames, halves: [], context: &context)
            var none: [JSONValue] = []
            let maskLayers = try layerJSON(runs, frameCount: plans.count, images: &images, nextIndex: &index,
                                           matteAssets: [:], masks: [:], maskAssets: &none, width: framing.width,
                                           height: framing.height, context: &context)
            assets.append(.object(["id": .string(id), "nm": .string(maskName(maskKey)),
                                   "layers": .array(LottieNames.unique(maskLayers))]))
        }
        let runs = try LottieClipBuilder.runs(of: frames, halves: halves, context: &context)
        // A baked picture stands for one frame's pose: it holds until the next frame's.
        for run in runs where LottieClipBuilder.bakedPicture(run.samples[0].sprite) != nil {
            run.held = Array(repeating: true, count: max(run.samples.count - 1, 0))
        }
        var maskAssets: [JSONValue] = []
        layers = try layerJSON(runs, frameCount: plans.count, images: &images, nextIndex: &nextIndex,
                               matteAssets: matteAssets, masks: masks, maskAssets: &maskAssets, width: framing.width,
                               height: framing.height, baked: baker?.pictures ?? [], context: &context)
        if let baker, !baker.pictures.isEmpty {
            context.report.bakedFilterPictures = baker.pictures.count
            context.info("lottie-filter-baked",
                         "\(context.bakedNodes.count) filtered node\(context.bakedNodes.count == 1 ? "" : "s") drawn "
                             + "with \(context.bakedNodes.count == 1 ? "its" : "their") filters into "
                             + "\(baker.pictures.count) picture\(baker.pictures.count == 1 ? "" : "s") at the canvas's "
                             + "size (\(framing.width)×\(framing.height)); a player drawing the animation at another "
                             + "size scales them")
        }
        assets += maskAssets
        layers = LottieNames.unique(layers)
        let renames = try images.finish()
        let imageAssets = images.assets(mode: settings.images, folder: settings.imageFolder)
        assets = assets.map { LottieImageTable.renaming($0, renames) }
        layers = layers.map { LottieImageTable.renaming($0, renames) }
        let animation: JSONObject = [
            "v": "5.7.4",
            "nm": .string(clip.name),
            "fr": .number(rate),
            "ip": 0,
            "op": .number(Double(plans.count)),
            "w": .number(Double(framing.width)),
            "h": .number(Double(framing.height)),
            "ddd": 0,
            "assets": .array(imageAssets.json + assets),
            "layers": .array(layers),
        ]
        context.report.layers = runs.count
        context.report.images = imageAssets.json.count
        return Output(json: .object(animation), files: imageAssets.files, diagnostics: context.diagnostics.diagnostics,
                      report: context.report)
    }

    /// Diagnostics and report being collected for one clip.
    struct Context {
        let settings: LottieExportSettings
        let clipName: String
        var diagnostics = DiagnosticCollector()
        var report = LottieReport()
        /// Code and node of every warning given: each is given once per node, not once per frame.
        var warned: Set<String> = []
        /// Draws the clip's frames with and without an approximation, to say how far off a warning's file is
        /// (`nil` while sampling in-between poses, which give no warnings of their own).
        var measure: ApproximationMeasure? = nil
        /// The filtered nodes whose pictures were baked.
        var bakedNodes: Set<String> = []

        /// A warning naming `node`, given once per code and node (and `what`); the report lists `node` (with `what`
        /// in parentheses) among the approximated or the dropped. `edit` turns a pose into what the file shows
        /// instead: the frames are drawn both ways and the warning says how far apart they are.
        mutating func warn(_ code: String, _ message: String, node: String, approximated: Bool, what: String? = nil,
                           edit: ((Pose) -> Pose)? = nil) {
            let entry = what.map { "\(node) (\($0))" } ?? node
            guard warned.insert(code + "\u{1}" + entry).inserted else { return }
            var message = message
            if let edit, let error = measure?.measure(edit) {
                message += "; measured against keyframe render: \(error)"
                report.errors[entry] = error
            }
            diagnostics.add(Diagnostic(severity: .warning, code: code, message: message, path: node))
            if approximated { report.approximated.insert(entry) } else { report.dropped.insert(entry) }
        }

        /// Every filter in `filters`, shown by `node`, left out: Lottie has no effect every player of the profile
        /// draws (docs/lottie.md), so where `keyframe render` draws the filter the file differs, and says so.
        mutating func dropFilters(_ filters: [Filter], node: String) {
            for filter in filters {
                warn("lottie-filter-dropped",
                     "the \(filter.kind) filter of \(node) is not written: the Lottie specification defines no effects "
                         + "and the \(settings.profile.rawValue) profile writes none; \(node) is drawn without it",
                     node: node, approximated: false, what: "\(filter.kind) filter")
            }
        }

        mutating func info(_ code: String, _ message: String) {
            diagnostics.add(Diagnostic(severity: .info, code: code, message: message))
        }
    }

    private func keyed(_ list: [Sample]) -> [(String, Sample)] {
        var seen: [String: Int] = [:]
        return list.map { sample in
            let n = seen[sample.path, default: 0]
            seen[sample.path] = n + 1
            return (n == 0 ? sample.path : "\(sample.path)#\(n)", sample)
        }
    }

    /// The samples of one pose, back to front; mask items are gathered by mask key. `baked`: by first item, the
    /// ranges of items shown as one baked picture (``PoseBaker/filteredParts(of:)``), and its sample (`nil`: nothing drawn).
    private func samples(of pose: Pose, view: Matrix2D, masks: inout [String: [[Sample]]], frame: Int,
                         frameCount: Int, baked: [Int: (end: Int, sample: Sample?)] = [:],
                         context: inout Context) -> [Sample] {
        var result: [Sample] = []
        var maskKeys: [Int: String] = [:]
        let blendedGroups = LottieClipBuilder.blendedGroups(of: pose)
        var index = 0
        while index < pose.items.count {
            if let part = baked[index] {
                if let sample = part.sample { result.append(sample) }
                index = max(part.end, index + 1)
                continue
            }
            let item = pose.items[index]
            index += 1
            if let group = LottieClipBuilder.blendedGroup(of: item, among: blendedGroups, in: pose),
                context.settings.profile == .full, LottieClipBuilder.lottieBlend(item.blendMode) != nil
            {
                let shown = pose.filterGroups[group]
                context.warn("lottie-blend-group",
                             "\(shown.path) is blended (\(shown.blendMode.rawValue)) as one picture by keyframe render, as in "
                                 + "Flash; Lottie blends each of its pictures on its own, so \(item.path) differs where they overlap",
                             node: item.path, approximated: true)
            }
            var sample = place(item, view: view, context: &context)
            if let first = item.masks.first, pose.masks.indices.contains(first) {
                if item.masks.count > 1 {
                    context.warn("lottie-nested-mask",
                                 "\(item.path) is clipped by \(item.masks.count) nested masks; only the innermost is kept",
                                 node: item.path, approximated: true)
                }
                let key: String
                if let known = maskKeys[first] {
                    key = known
                } else {
                    let shapes = pose.masks[first].filter { $0.mesh == nil }
                    key = shapes.isEmpty ? "(empty)" : shapes.map(\.path).joined(separator: "|")
                    maskKeys[first] = key
                    var perFrame = masks[key] ?? Array(repeating: [], count: frameCount)
                    if perFrame[frame].isEmpty {
                        var quiet = Context(settings: context.settings, clipName: context.clipName)
                        perFrame[frame] = shapes.map { place($0, view: view, context: &quiet) }
                    }
                    masks[key] = perFrame
                }
                sample.mask = key
            }
            if let mesh = item.mesh {
                result += triangles(of: mesh, sample: sample, view: view, context: &context)
            } else {
                result.append(sample)
            }
        }
        return result
    }

    /// The samples of a mesh item: one per triangle, each with the triangle's affine map (sprite-local document
    /// pixels → composition pixels) as its world matrix (``MeshTriangles``).
    private func triangles(of mesh: Pose.Mesh, sample: Sample, view: Matrix2D, context: inout Context) -> [Sample] {
        guard let sprite = library.sprite(sample.sprite) else { return [] }
        let cut = MeshTriangles(uvs: mesh.uvs, indices: mesh.triangles, width: sprite.size.width,
                                height: sprite.size.height)
        if cut.skipped > 0 {
            context.warn("lottie-mesh-triangles",
                         "\(cut.skipped) triangles of the mesh shown by \(sample.path) have no area in the picture or "
                             + "name missing vertices; they are left out, as keyframe render draws nothing there",
                         node: sample.path, approximated: true)
        }
        return cut.triangles.enumerated().map { t, triangle in
            var part = sample
            part.world = view.concatenating(MeshTriangles.affine(triangle, positions: mesh.positions))
            part.triangle = (t, triangle)
            return part
        }
    }

    /// One pose item as a layer sample: world matrix in composition pixels, colour split into opacity and a baked
    /// picture, blend mode as the profile allows.
    private func place(_ item: Pose.Item, view: Matrix2D, context: inout Context) -> Sample {
        let color = item.color
        var bake: ColorTransform? = nil
        var opacity = min(max(color.alphaMultiplier, 0), 1)
        let rgbIdentity = color.redMultiplier == 1 && color.greenMultiplier == 1 && color.blueMultiplier == 1
            && color.redOffset == 0 && color.greenOffset == 0 && color.blueOffset == 0
        if color.alphaOffset != 0 || color.alphaMultiplier > 1 || color.alphaMultiplier < 0 {
            bake = color
            opacity = 1
        } else if !rgbIdentity {
            var rgb = color
            rgb.alphaMultiplier = 1
            bake = rgb
        }
        var blend = item.blendMode
        if blend != .normal {
            if context.settings.profile == .portable || LottieClipBuilder.lottieBlend(blend) == nil {
                context.warn("lottie-blend-mode",
                             "\(item.path) uses blend mode \(blend.rawValue), which the \(context.settings.profile.rawValue) "
                                 + "profile cannot express; drawn as normal",
                             node: item.path, approximated: true,
                             edit: { ApproximationMeasure.blendModesNormal($0, under: item.path) })
                blend = .normal
            }
        }
        return Sample(sprite: item.sprite, path: item.path, bake: bake, opacity: opacity, blend: blend, mask: nil,
                      world: view.concatenating(item.transform))
    }

    /// The sample showing a baked picture of filter group `group` at `placement`: canvas pixels, opacity 1 (the
    /// group's colour is in the picture), the group's blend mode as the profile allows.
    private func bakedSample(_ placement: PoseBaker.Placement, group: Pose.FilterGroup, context: inout Context)
        -> Sample
    {
        context.bakedNodes.insert(group.path)
        var blend = group.blendMode
        if blend != .normal, context.settings.profile == .portable || LottieClipBuilder.lottieBlend(blend) == nil {
            context.warn("lottie-blend-mode",
                         "\(group.path) uses blend mode \(blend.rawValue), which the \(context.settings.profile.rawValue) "
                             + "profile cannot express; drawn as normal",
                         node: group.path, approximated: true)
            blend = .normal
        }
        return Sample(sprite: LottieClipBuilder.bakedSprite(placement.picture), path: group.path, bake: nil,
                      opacity: 1, blend: blend, mask: nil,
                      world: Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: Double(placement.x), ty: Double(placement.y)))
    }

    /// The sprite name a sample showing baked picture `index` carries (no sprite id starts with U+0002).
    static func bakedSprite(_ index: Int) -> String { "\u{2}\(index)" }

    /// The baked picture a sample's sprite name stands for, or `nil` for a sprite of the atlas.
    static func bakedPicture(_ sprite: String) -> Int? {
        guard sprite.first == "\u{2}" else { return nil }
        return Int(sprite.dropFirst())
    }

    /// A mask's name: `mask` and the names of the pictures forming it.
    private func maskName(_ key: String) -> String {
        "mask " + key.split(separator: "|").map { names.item(path: String($0)) }.joined(separator: " + ")
    }

    /// Whether any node of the document carries a filter (then the export looks for the ones a clip shows).
    static func hasFilters(_ document: Document) -> Bool {
        document.compositions.contains { composition in
            composition.nodes.contains { $0.tracks.filters?.keyframes.contains { !$0.value.isEmpty } ?? false }
        }
    }

    /// Per group of `pose`, whether it is blended with a mode other than normal and holds more than one item.
    static func blendedGroups(of pose: Pose) -> [Bool] {
        var counts = Array(repeating: 0, count: pose.filterGroups.count)
        for item in pose.items {
            var current = item.inGroup?.group
            while let index = current, counts.indices.contains(index) {
                counts[index] += 1
                current = pose.filterGroups[index].parent
            }
        }
        return pose.filterGroups.indices.map { pose.filterGroups[$0].blendMode != .normal && counts[$0] > 1 }
    }

    /// The outermost group around `item` that ``blendedGroups(of:)`` marks, if any.
    static func blendedGroup(of item: Pose.Item, among blended: [Bool], in pose: Pose) -> Int? {
        var found: Int? = nil
        var current = item.inGroup?.group
        while let index = current, blended.indices.contains(index) {
            if blended[index] { found = index }
            current = pose.filterGroups[index].parent
        }
        return found
    }

    /// Lottie's `bm` number for a blend mode, or `nil` when Lottie has none.
    static func lottieBlend(_ mode: BlendMode) -> Int? {
        switch mode {
        case .normal: return 0
        case .multiply: return 1
        case .screen: return 2
        case .overlay: return 3
        case .darken: return 4
        case .lighten: return 5
        case .hardlight: return 8
        case .difference: return 10
        case .add: return 16
        default: return nil
        }
    }

    /// Cuts the per-frame samples into runs (one layer each) and orders them back to front.
    static func runs(of frames: [[Sample]], halves: [[String: Sample]], context: inout Context)
        throws(ExportError) -> [Run]
    {
        var runs: [Run] = []
        var open: [String: Run] = [:]
        var previousOrder: [String] = []
        var edges: [ObjectIdentifier: Set<ObjectIdentifier>] = [:]
        var indegree: [ObjectIdentifier: Int] = [:]
        var byID: [ObjectIdentifier: Run] = [:]
        for (frame, list) in frames.enumerated() {
            var seen: [String: Int] = [:]
            let keys = list.map { sample -> String in
                let n = seen[sample.path, default: 0]
                seen[sample.path] = n + 1
                return n == 0 ? sample.path : "\(sample.path)#\(n)"
            }
            // A change of relative order among what both frames show cuts every run here.
            let current = Set(keys), previous = Set(previousOrder)
            let orderChanged = keys.filter(previous.contains) != previousOrder.filter(current.contains)
            if orderChanged { open.removeAll() }
            var frameRuns: [Run] = []
            for (key, sample) in zip(keys, list) {
                if let run = open[key], run.last == frame - 1, let last = run.samples.last,
                    last.sprite == sample.sprite, last.bake.map(LottieImageTable.key) == sample.bake.map(LottieImageTable.key),
                    last.blend == sample.blend, last.mask == sample.mask
                {
                    run.samples.append(sample)
                    frameRuns.append(run)
                    continue
                }
                let run = Run(key: key, first: frame, serial: runs.count)
                run.samples.append(sample)
                runs.append(run)
                open[key] = run
                byID[ObjectIdentifier(run)] = run
                indegree[ObjectIdentifier(run)] = 0
                frameRuns.append(run)
            }
            for (a, b) in zip(frameRuns, frameRuns.dropFirst()) where a !== b {
                if edges[ObjectIdentifier(a), default: []].insert(ObjectIdentifier(b)).inserted {
                    indegree[ObjectIdentifier(b), default: 0] += 1
                }
            }
            for (key, run) in open where run.last != frame { open[key] = nil }
            previousOrder = keys
        }
        // Held intervals: the half-frame sample equals the frame's own.
        for run in runs {
            run.held = (0..<max(run.samples.count - 1, 0)).map { i in
                let frame = run.first + i
                guard frame < halves.count, let half = halves[frame][run.key] else { return false }
                return LottieClipBuilder.same(half, run.samples[i])
            }
        }
        // Back to front: a topological order of "drawn after" edges, earliest run first among the ready ones.
        var ordered: [Run] = []
        var ready = runs.filter { indegree[ObjectIdentifier($0)] == 0 }
        var placed = Set<ObjectIdentifier>()
        while !ready.isEmpty {
            ready.sort { $0.serial < $1.serial }
            let run = ready.removeFirst()
            ordered.append(run)
            placed.insert(ObjectIdentifier(run))
            for next in edges[ObjectIdentifier(run)] ?? [] {
                indegree[next, default: 0] -= 1
                if indegree[next] == 0, let r = byID[next] { ready.append(r) }
            }
        }
        if ordered.count < runs.count {
            let rest = runs.filter { !placed.contains(ObjectIdentifier($0)) }
            context.warn("lottie-draw-order",
                         "the draw order of \(rest.count) layers cannot be kept by one fixed layer order; some frames "
                             + "stack them differently",
                         node: rest[0].key, approximated: true)
            ordered += rest
        }
        return ordered
    }

    static func same(_ a: Sample, _ b: Sample) -> Bool {
        let m = a.world, n = b.world
        return a.sprite == b.sprite && abs(a.opacity - b.opacity) < 1e-9 && abs(m.a - n.a) < 1e-9
            && abs(m.b - n.b) < 1e-9 && abs(m.c - n.c) < 1e-9 && abs(m.d - n.d) < 1e-9 && abs(m.tx - n.tx) < 1e-7
            && abs(m.ty - n.ty) < 1e-7
    }

    /// The layers for `runs` (back to front), front first as Lottie lists them, with matte layers and parent nulls.
    private func layerJSON(_ runs: [Run], frameCount: Int, images: inout LottieImageTable, nextIndex: inout Int,
                           matteAssets: [String: String], masks: [String: [[Sample]]], maskAssets: inout [JSONValue],
                           width: Int, height: Int, baked: [Bitmap] = [], context: inout Context)
        throws(ExportError) -> [JSONValue]
    {
        var front: [JSONValue] = []
        var nulls: [JSONValue] = []
        for run in runs.reversed() {
            let first = run.samples[0]
            let picture: LottieImageTable.Entry
            // Asset pixels → sprite-local document pixels (a baked picture's are canvas pixels already).
            let toLocal: Matrix2D
            if let index = LottieClipBuilder.bakedPicture(first.sprite), baked.indices.contains(index) {
                let name = LottieNames.identifier(names.item(path: first.path), original: first.path)
                picture = images.entry(drawn: baked[index], name: name + "_filtered")
                toLocal = Matrix2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
            } else {
                picture = try images.entry(sprite: first.sprite, color: first.bake, node: first.path)
                guard let sprite = library.sprite(first.sprite) else {
                    throw ExportError(message: "sprite \"\(first.sprite)\" shown by \(first.path) is not in the atlas")
                }
                toLocal = Matrix2D(a: sprite.size.width / Double(max(picture.width, 1)), b: 0, c: 0,
                                   d: sprite.size.height / Double(max(picture.height, 1)), tx: 0, ty: 0)
            }
            let worlds = run.samples.map { $0.world.concatenating(toLocal) }
            let skewed = worlds.contains(where: LottieTransform.hasSkew)
            // `full` says skew with `sk` on the layer itself; `portable` rebuilds it as R·S·R (no player lacks that).
            let sheared = skewed && settings.profile == .full
            var transforms: [LottieTransform] = []
            for world in worlds {
                transforms.append(sheared ? LottieTransform.sheared(world, previous: transforms.last)
                                  : skewed ? LottieTransform.split(world, previous: transforms.last)
                                  : LottieTransform.single(world, previous: transforms.last))
            }
            if settings.profile == .portable && !skewed && LottieClipBuilder.bakedPicture(first.sprite) == nil {
                // rlottie 0.1 draws a translation-only image at its position truncated to whole pixels; a scale a
                // millionth below 1 (0.001 px over 1000 px) makes it sample at the exact sub-pixel position. (A
                // baked picture sits on whole pixels already: at 100 % every player copies it pixel for pixel.)
                for i in transforms.indices where transforms[i].scale == Vector2(x: 1, y: 1)
                    && LottieTransform.unwrap(transforms[i].rotation, near: 0) == 0
                {
                    transforms[i].scale = Vector2(x: LottieClipBuilder.unitScale, y: LottieClipBuilder.unitScale)
                }
            }
            let frames = (0..<run.samples.count).map { run.first + $0 }
            let extent = Double(max(picture.width, picture.height, 1))
            // How far the picture's far corner lies from its origin on screen (for the rotation tolerance).
            let worldExtent = worlds.map { m in
                hypot(m.a * Double(picture.width) + m.c * Double(picture.height),
                      m.b * Double(picture.width) + m.d * Double(picture.height))
            }.max() ?? extent
            let ip = Double(run.first), op = Double(run.last + 1)
            let name = names.item(path: first.path)
            var layer: JSONObject = [
                "ddd": 0, "ty": 2, "refId": .string(picture.id), "nm": .string(name), "sr": 1, "ao": 0,
                "ip": .number(ip), "op": .number(op), "st": 0,
                "bm": .number(Double(LottieClipBuilder.lottieBlend(first.blend) ?? 0)),
            ]
            let opacity = LottieKeyframeReducer(tolerance: [LottieTolerance.opacityPercent])
                .property(run.samples.map { [$0.opacity * 100] }, held: run.held, frames: frames, scalar: true)
            let zero: JSONValue = .object(["a": 0, "k": [0, 0]])
            var skewNull: JSONObject? = nil
            if sheared {
                // Rotation and skew share the rotation's budget; a skew error turns the y axis by sec(sk) times it.
                let degrees = LottieTolerance.degrees(extent: worldExtent) / 2
                let steepest = transforms.map { abs($0.skew) }.max() ?? 0
                layer["ks"] = .object([
                    "a": zero,
                    "p": positionProperty(transforms, run: run, frames: frames),
                    "s": scaleProperty(transforms, run: run, frames: frames, extent: extent),
                    "r": LottieKeyframeReducer(tolerance: [degrees])
                        .property(transforms.map { [$0.rotation] }, held: run.held, frames: frames, scalar: true),
                    "sk": LottieKeyframeReducer(tolerance: [degrees * cos(steepest * .pi / 180)])
                        .property(transforms.map { [$0.skew] }, held: run.held, frames: frames, scalar: true),
                    "sa": .object(["a": 0, "k": 0]),
                    "o": opacity,
                ])
                context.report.skews += 1
            } else if skewed {
                let parentIndex = nextIndex
                nextIndex += 1
                let nullLayer: JSONObject = [
                    "ddd": 0, "ty": 3, "ind": .number(Double(parentIndex)), "nm": .string(name + " (skew)"), "sr": 1,
                    "ao": 0, "ip": .number(ip), "op": .number(op), "st": 0,
                    "ks": .object([
                        "a": zero,
                        "p": positionProperty(transforms, run: run, frames: frames),
                        "s": scaleProperty(transforms, run: run, frames: frames, extent: extent),
                        "r": rotationProperty(transforms.map(\.rotation), run: run, frames: frames, extent: worldExtent),
                        "o": .object(["a": 0, "k": 100]),
                    ]),
                ]
                skewNull = nullLayer
                layer["parent"] = .number(Double(parentIndex))
                layer["ks"] = .object([
                    "a": zero, "p": zero, "s": .object(["a": 0, "k": [100, 100]]),
                    "r": rotationProperty(transforms.map { $0.childRotation ?? 0 }, run: run, frames: frames,
                                      extent: worldExtent),
                    "o": opacity,
                ])
                context.report.skewRewrites += 1
            } else {
                layer["ks"] = .object([
                    "a": zero,
                    "p": positionProperty(transforms, run: run, frames: frames),
                    "s": scaleProperty(transforms, run: run, frames: frames, extent: extent),
                    "r": rotationProperty(transforms.map(\.rotation), run: run, frames: frames, extent: worldExtent),
                    "o": opacity,
                ])
            }
            if first.bake != nil { context.report.bakedTints += 1 }
            if let (index, shape) = first.triangle {
                meshTriangle(shape, index: index, picture: picture, worlds: worlds, toLocal: toLocal, layer: &layer,
                             assets: &maskAssets)
                context.report.meshTriangles += 1
                context.report.masks += 1
            }
            if let mask = first.mask, settings.profile == .portable {
                // Portable: the layer goes into a precomp the size of the canvas, and the mask's coverage becomes
                // mask paths on that precomp's layer, in canvas space. (lottie-web's html renderer draws a masked
                // image layer inside an SVG element it gives no size, clipping it to 300 × 150 px; a masked precomp
                // layer gets its own size.)
                let id = "mask_\(maskAssets.count)"
                layer["ind"] = .number(Double(nextIndex))
                nextIndex += 1
                var content: [JSONValue] = [.object(layer)]
                if let skewNull { content.append(.object(skewNull)) }
                maskAssets.append(.object(["id": .string(id), "nm": .string(name), "layers": .array(LottieNames.unique(content))]))
                let holder: JSONObject = [
                    "ddd": 0, "ty": 0, "ind": .number(Double(nextIndex)), "nm": .string(name), "refId": .string(id),
                    "w": .number(Double(width)), "h": .number(Double(height)), "sr": 1, "ao": 0, "ip": .number(ip),
                    "op": .number(op), "st": 0, "bm": 0, "ks": LottieClipBuilder.identityTransform, "hasMask": true,
                    "masksProperties": .array(try maskPaths(for: run, maskFrames: masks[mask] ?? [], images: &images,
                                                            context: &context)),
                ]
                nextIndex += 1
                front.append(.object(holder))
                context.report.masks += 1
                continue
            }
            if let skewNull { nulls.append(.object(skewNull)) }
            if let mask = first.mask, let matte = matteAssets[mask] {
                // The matte goes directly above the layer it clips (portable: no `tp`).
                let matteLayer: JSONObject = [
                    "ddd": 0, "ty": 0, "ind": .number(Double(nextIndex)), "nm": .string(maskName(mask)),
                    "refId": .string(matte), "w": .number(Double(width)), "h": .number(Double(height)), "sr": 1,
                    "ao": 0, "ip": .number(ip), "op": .number(op), "st": 0, "td": 1,
                    "ks": LottieClipBuilder.identityTransform,
                ]
                nextIndex += 1
                front.append(.object(matteLayer))
                layer["tt"] = 1
                context.report.mattes += 1
            }
            layer["ind"] = .number(Double(nextIndex))
            nextIndex += 1
            front.append(.object(layer))
        }
        return front + nulls
    }

    /// Masks reproducing the mask items' coverage over `run`: one added rectangle path per covered rectangle of each
    /// mask picture, on the canvas at every frame, reduced like the transforms.
    private func maskPaths(for run: Run, maskFrames: [[Sample]], images: inout LottieImageTable,
                           context: inout Context) throws(ExportError) -> [JSONValue]
    {
        // Corners per rectangle per frame, in canvas pixels.
        var shapes: [[[Double]]] = []  // rectangle → frame → 8 numbers
        var rectangleCount = -1
        let frames = Array(run.first...run.last)
        for frame in frames {
            let items = frame < maskFrames.count ? maskFrames[frame] : []
            var corners: [[Double]] = []
            for item in items {
                let (shape, width, height) = try images.maskShape(sprite: item.sprite, node: run.key)
                guard let sprite = library.sprite(item.sprite) else { continue }
                var rectangles = shape.rectangles
                if rectangles.count > LottieMaskShape.maximumRectangles, let bounds = shape.bounds {
                    rectangles = [bounds]
                    context.warn("lottie-mask-bounds",
                                 "the mask over \(run.key) is too detailed for layer mask paths; its bounding box is used",
                                 node: run.key, approximated: true)
                } else if !shape.isBinary {
                    context.info("lottie-mask-edges",
                                 "the mask over \(run.key) has soft edges; the layer mask follows its pixels at 50 % alpha")
                }
                let toLocal = Matrix2D(a: sprite.size.width / Double(max(width, 1)), b: 0, c: 0,
                                       d: sprite.size.height / Double(max(height, 1)), tx: 0, ty: 0)
                let m = item.world.concatenating(toLocal)
                for r in rectangles {
                    var numbers: [Double] = []
                    for (x, y) in [(r.x, r.y), (r.x + r.width, r.y), (r.x + r.width, r.y + r.height), (r.x, r.y + r.height)] {
                        let p = m.apply(Vector2(x: Double(x), y: Double(y)))
                        numbers += [p.x, p.y]
                    }
                    corners.append(numbers)
                }
            }
            if rectangleCount < 0 { rectangleCount = corners.count }
            // The mask's pictures keep their rectangles over a run (its key names them); an empty mask hides the layer.
            if corners.count != rectangleCount {
                corners = Array(repeating: Array(repeating: 0, count: 8), count: rectangleCount)
            }
            for (k, c) in corners.enumerated() {
                if shapes.count <= k { shapes.append([]) }
                shapes[k].append(c)
            }
        }
        if rectangleCount <= 0 {
            // Nothing covers: a degenerate path hides the layer.
            shapes = [Array(repeating: Array(repeating: 0, count: 8), count: frames.count)]
        }
        let reducer = LottieKeyframeReducer(tolerance: Array(repeating: LottieTolerance.position, count: 8))
        return shapes.map { samples in
            func path(_ c: [Double]) -> JSONValue {
                let zero: JSONValue = [0, 0]
                return .object([
                    "c": true,
                    "v": .array(stride(from: 0, to: 8, by: 2).map {
                        .array([.number(LottieKeyframeReducer.clean(c[$0])), .number(LottieKeyframeReducer.clean(c[$0 + 1]))])
                    }),
                    "i": [zero, zero, zero, zero], "o": [zero, zero, zero, zero],
                ])
            }
            let shape: JSONValue
            if samples.allSatisfy({ $0 == samples[0] }) {
                shape = .object(["a": 0, "k": path(samples[0])])
            } else {
                let kept = reducer.reduce(samples, held: run.held)
                var keyframes: [JSONValue] = []
                for (position, entry) in kept.enumerated() {
                    var keyframe: JSONObject = ["t": .number(Double(frames[entry.index])),
                                                         "s": .array([path(samples[entry.index])])]
                    if position < kept.count - 1 {
                        if entry.hold { keyframe["h"] = 1 } else {
                            keyframe["o"] = .object(["x": [0], "y": [0]])
                            keyframe["i"] = .object(["x": [1], "y": [1]])
                        }
                    }
                    keyframes.append(.object(keyframe))
                }
                shape = .object(["a": 1, "k": .array(keyframes)])
            }
            // `x` (expansion) is optional in the specification, but lottie-web's SVG and HTML renderers read it
            // unconditionally (a mask without it stops the animation from loading).
            return .object(["mode": "a", "inv": false, "pt": shape, "o": .object(["a": 0, "k": 100]),
                            "x": .object(["a": 0, "k": 0]), "nm": .string("mask")])
        }
    }

    /// Makes `layer` a mesh triangle: a precomp layer showing the picture (one precomp asset per picture, added to
    /// `assets`) clipped by the triangle in picture pixels, its interior edges pushed out about one canvas pixel
    /// against seams (``MeshTriangles``). `worlds` map picture pixels to the canvas at each frame of the run.
    private func meshTriangle(_ shape: MeshTriangles.Triangle, index: Int, picture: LottieImageTable.Entry,
                              worlds: [Matrix2D], toLocal: Matrix2D, layer: inout JSONObject, assets: inout [JSONValue]) {
        let toPicture = toLocal.inverted ?? .identity
        var triangle = shape
        triangle.picture = shape.picture.map(toPicture.apply)
        var dilation = [0.0, 0.0, 0.0]
        for e in 0..<3 where triangle.interior[e] {
            for world in worlds {
                dilation[e] = max(dilation[e], MeshTriangles.pictureDistance(
                    triangle, edge: e, toDevice: world, devicePixels: MeshTriangles.seamPixels))
            }
        }
        let assetID = "mesh_\(picture.id)"
        if !assets.contains(where: { $0["id"]?.stringValue == assetID }) {
            let scale = settings.profile == .portable ? 100 * LottieClipBuilder.unitScale : 100
            let image: JSONObject = [
                "ddd": 0, "ty": 2, "ind": 1, "nm": .string(picture.id), "refId": .string(picture.id), "sr": 1, "ao": 0,
                "ip": 0, "op": .number(LottieStructureBuilder.meshAssetOutPoint), "st": 0, "bm": 0,
                "ks": .object([
                    "a": .object(["a": 0, "k": [0, 0]]), "p": .object(["a": 0, "k": [0, 0]]),
                    "s": .object(["a": 0, "k": [.number(scale), .number(scale)]]), "r": .object(["a": 0, "k": 0]),
                    "o": .object(["a": 0, "k": 100]),
                ]),
            ]
            assets.append(.object(["id": .string(assetID), "nm": .string("\(picture.id) (mesh)"),
                                   "layers": [.object(image)]]))
        }
        layer["ty"] = 0
        layer["refId"] = .string(assetID)
        layer["w"] = .number(Double(picture.width))
        layer["h"] = .number(Double(picture.height))
        layer["nm"] = .string((layer["nm"]?.stringValue ?? "") + " triangle \(index)")
        layer["hasMask"] = true
        layer["masksProperties"] = [LottieStructureBuilder.maskJSON(MeshTriangles.mask(triangle, dilation: dilation))]
    }

    /// The scale the portable profile writes instead of exactly 1 on unrotated layers (see ``layerJSON``).
    static let unitScale = 0.999999

    static let identityTransform: JSONValue = .object([
        "a": .object(["a": 0, "k": [0, 0]]), "p": .object(["a": 0, "k": [0, 0]]),
        "s": .object(["a": 0, "k": [100, 100]]), "r": .object(["a": 0, "k": 0]), "o": .object(["a": 0, "k": 100]),
    ])

    private func positionProperty(_ transforms: [LottieTransform], run: Run, frames: [Int]) -> JSONValue {
        LottieKeyframeReducer(tolerance: [LottieTolerance.position, LottieTolerance.position])
            .property(transforms.map { [$0.position.x, $0.position.y] }, held: run.held, frames: frames, scalar: false)
    }

    private func scaleProperty(_ transforms: [LottieTransform], run: Run, frames: [Int], extent: Double) -> JSONValue {
        // A scale error e moves the picture's far edge by e · extent pixels.
        let tolerance = 100 * LottieTolerance.edge / max(extent, 1)
        return LottieKeyframeReducer(tolerance: [tolerance, tolerance])
            .property(transforms.map { [$0.scale.x * 100, $0.scale.y * 100] }, held: run.held, frames: frames,
                      scalar: false)
    }

    private func rotationProperty(_ angles: [Double], run: Run, frames: [Int], extent: Double) -> JSONValue {
        LottieKeyframeReducer(tolerance: [LottieTolerance.degrees(extent: extent)])
            .property(angles.map { [$0] }, held: run.held, frames: frames, scalar: true)
    }
}
