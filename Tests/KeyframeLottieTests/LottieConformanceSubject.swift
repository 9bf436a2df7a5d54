import Foundation
import KeyframeEngine
import KeyframeExport
import KeyframeImport
import KeyframeJSON
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// One export's first clip, exported to Lottie through the public exporter registry and prepared for comparison with
/// `keyframe render`: what the player conformance tests (ThorVG, lottie-web) play and hold to Keyframe's frames.
struct LottieConformanceSubject {
    var name: String
    var profile: LottieExportSettings.Profile
    var document: Document
    var library: AtlasLibrary
    var clip: Clip
    var result: ExportResult
    /// The exported file's bytes (images embedded).
    var json: [UInt8]
    var plans: [FramePlan]
    var framing: Framing
    var scene: RenderScene

    /// Exports the first clip of the export at `export` (a sample or corpus folder) with `profile`, images embedded,
    /// through `Exporters.exporter(for: .lottie)`, so the test holds whatever structure the exporter writes.
    init(_ export: URL, profile: LottieExportSettings.Profile) throws {
        name = export.lastPathComponent
        self.profile = profile
        document = try Importer.importDocument(at: export)
        let folder = try Importer.detect(export).folder
        library = try AtlasLibrary(document: document, folder: folder)
        clip = try XCTUnwrap(document.clips.first, "\(export.lastPathComponent): no clips")
        var options = ExportOptions(clips: [clip.name])
        options.lottie = LottieExportSettings(profile: profile, images: .embed)
        let exporter = try XCTUnwrap(Exporters.exporter(for: .lottie))
        result = try exporter.export(document, assetsFolder: folder, options: options)
        json = try XCTUnwrap(result.clips.first).main.bytes
        scene = RenderScene(document: document, library: library)
        plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                    fps: document.frameRate.framesPerSecond, selection: .all)
        framing = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: nil).framing
    }

    /// Keyframe's render of plan `index` as the export writes it (``asExported(_:profile:)``); `exact` draws the pose
    /// unmodified.
    func expected(_ index: Int, exact: Bool = false) -> Bitmap {
        var pose = scene.sampler.sample(clip: clip, time: plans[index].layers[0].time)
        if !exact { pose = Self.asExported(pose, profile: profile) }
        var renderer = FrameRenderer()
        var bitmap = Bitmap(width: framing.width, height: framing.height)
        renderer.render(pose, library: library, framing: framing, background: .transparent, into: &bitmap)
        return bitmap
    }

    /// A pose as the Lottie export writes it: nothing the export carries is removed. Meshes stay (the export draws
    /// them), blend modes stay as `keyframe render` draws them (the reference is the source, so what `portable` cannot
    /// carry shows as a difference, and the export must warn for it), and so do filters: the export carries them in
    /// baked pictures, which `portable` composites with the normal blend mode.
    static func asExported(_ pose: Pose, profile: LottieExportSettings.Profile) -> Pose {
        var pose = pose
        if profile == .portable {
            for index in pose.filterGroups.indices
            where pose.filterGroups[index].parent == nil && !pose.filterGroups[index].filters.isEmpty {
                pose.filterGroups[index].blendMode = .normal
            }
        }
        return pose
    }

    /// The nodes the export warned it draws with a blend mode it cannot carry (`lottie-blend-mode`), by path.
    var blendWarnedNodes: Set<String> {
        Set(result.diagnostics.filter { ["lottie-blend-mode", "lottie-blend-group"].contains($0.code) }
            .compactMap(\.path))
    }

    /// The blend modes a profile writes as `bm` (docs/lottie.md): none but normal in `portable`.
    static func carries(_ mode: BlendMode, profile: LottieExportSettings.Profile) -> Bool {
        guard profile == .full else { return mode == .normal }
        return [.normal, .multiply, .screen, .overlay, .darken, .lighten, .hardlight, .difference, .add].contains(mode)
    }

    /// The nodes frame `index` draws with a blend mode the profile cannot carry, by path: their own mode is not a
    /// `bm` of the profile, or they are among several pictures of a symbol blended as one (Lottie blends each).
    func uncarriedBlendNodes(_ index: Int) -> Set<String> {
        let pose = scene.sampler.sample(clip: clip, time: plans[index].layers[0].time)
        var members = Array(repeating: 0, count: pose.filterGroups.count)
        for item in pose.items {
            var group = item.inGroup?.group
            while let g = group, members.indices.contains(g) { members[g] += 1; group = pose.filterGroups[g].parent }
        }
        func inBlendedGroup(_ item: Pose.Item) -> Bool {
            var group = item.inGroup?.group
            while let g = group, members.indices.contains(g) {
                if pose.filterGroups[g].blendMode != .normal && members[g] > 1 { return true }
                group = pose.filterGroups[g].parent
            }
            return false
        }
        return Set(pose.items.filter { item in
            item.mesh == nil && (!Self.carries(item.blendMode, profile: profile) || inBlendedGroup(item))
        }.map(\.path))
    }

    /// Keyframe's render of plan `index` with the nodes the export warned draw normal (`lottie-blend-mode`) drawn
    /// normal, and each picture blended on its own (no groups), as the file has them: what a player should match when the only difference is the
    /// blend modes the export declared it cannot carry.
    func expectedAsDeclared(_ index: Int) -> Bitmap {
        var pose = Self.asExported(scene.sampler.sample(clip: clip, time: plans[index].layers[0].time),
                                   profile: profile)
        let drawnNormal = Set(result.diagnostics.filter { $0.code == "lottie-blend-mode" }.compactMap(\.path))
        // Groups without filters (blended symbols) are pictures blended one by one in the file; filtered groups stay
        // (the file shows them baked).
        if !pose.filterGroups.contains(where: { !$0.filters.isEmpty }) {
            pose.filterGroups = []
            for i in pose.items.indices { pose.items[i].inGroup = nil }
        }
        for i in pose.items.indices where drawnNormal.contains(pose.items[i].path) {
            pose.items[i].blendMode = .normal
            pose.items[i].inGroup?.blendMode = .normal
        }
        var renderer = FrameRenderer()
        var bitmap = Bitmap(width: framing.width, height: framing.height)
        renderer.render(pose, library: library, framing: framing, background: .transparent, into: &bitmap)
        return bitmap
    }

    /// Whether frame `index`, which a player (`label`) drew as `actual` beyond its bound against the render, misses
    /// only by the blend modes the export declared it cannot carry: then it is `acceptable` against
    /// ``expectedAsDeclared(_:)``. When it is, the measured figure is printed and the frame's uncarried blended
    /// nodes must be exactly among the nodes the export warned about (an assertion that fails otherwise).
    func explainedByDeclaredBlendModes(_ index: Int, actual: Bitmap, against difference: FrameDifference,
                                       label: String, acceptable: (FrameDifference) -> Bool) -> Bool {
        let warned = blendWarnedNodes
        guard !warned.isEmpty else { return false }
        let declaredPicture = expectedAsDeclared(index)
        let declared = FrameDifference(actual, declaredPicture)
        guard acceptable(declared) else {
            print(String(format: "%@ %@ (%@) frame %d: not explained by the declared blend modes (%.3f, %.2f %% off "
                            + "against the render with them drawn normal)", label, name, profile.rawValue, index,
                         declared.worstMean, declared.offShare * 100))
            var encoder = PNGEncoder()
            try? encoder.write(declaredPicture, to: BitmapComparison.artifactDirectory
                                   + "/\(label)-\(name)-\(profile.rawValue)-\(index).declared.png")
            return false
        }
        let nodes = uncarriedBlendNodes(index)
        print(String(format: "%@ %@ (%@) frame %d: beyond the bound by the blend modes the export declares "
                        + "(worst channel mean %.3f, %.2f %% off > 8/255 against the render; %.3f, %.2f %% with "
                        + "the %d warned node(s) as the file has them)", label, name, profile.rawValue, index,
                     difference.worstMean, difference.offShare * 100, declared.worstMean, declared.offShare * 100,
                     warned.count))
        XCTAssertFalse(nodes.isEmpty, "\(name) (\(profile)) frame \(index): no blend mode explains the difference")
        XCTAssertTrue(nodes.isSubset(of: warned),
                      "\(name) (\(profile)) frame \(index): blended nodes without a warning: \(nodes.subtracting(warned))")
        return true
    }

    /// The sprite name ``pictureItems(_:)`` gives a filtered node's baked picture.
    static let filteredPicture = "(filtered picture)"

    /// The pictures a Lottie export shows for `pose`, back to front: each item outside filter groups, and one item
    /// named ``filteredPicture`` (with the node's path) for each outermost filter group, whose items the export draws
    /// into one picture — unless that picture would be empty on the canvas of `framing` (then the export shows none).
    static func pictureItems(_ pose: Pose, library: AtlasLibrary, framing: Framing) -> [Pose.Item] {
        var items: [Pose.Item] = []
        var lastGroup: Int? = nil
        var renderer = FrameRenderer()
        /// The outermost group with filters that `item` is drawn in (groups without filters are not baked).
        func filteredGroup(_ item: Pose.Item) -> Int? {
            var found: Int? = nil
            var current = item.inGroup?.group
            while let g = current {
                if !pose.filterGroups[g].filters.isEmpty { found = g }
                current = pose.filterGroups[g].parent
            }
            return found
        }
        for item in pose.items {
            guard let group = filteredGroup(item) else {
                items.append(item)
                lastGroup = nil
                continue
            }
            if group != lastGroup {
                // The group alone, drawn on the canvas: does it leave any pixel?
                var alone = pose
                alone.items = pose.items.filter { filteredGroup($0) == group }
                var bitmap = Bitmap(width: 1, height: 1)
                renderer.render(alone, library: library, framing: framing, background: .transparent, into: &bitmap)
                lastGroup = group
                guard stride(from: 3, to: bitmap.pixels.count, by: 4).contains(where: { bitmap.pixels[$0] != 0 })
                else { continue }
                let filtered = pose.filterGroups[group]
                items.append(Pose.Item(sprite: filteredPicture, transform: .identity, color: filtered.color,
                                       blendMode: filtered.blendMode, masks: filtered.masks, path: filtered.path))
            }
            lastGroup = group
        }
        return items
    }

    /// The frames to compare: every frame of clips up to `limit` frames, else `limit` spread evenly (first and last
    /// included).
    func chosenFrames(limit: Int) -> [Int] {
        plans.count <= limit ? Array(plans.indices)
            : (0..<limit).map { $0 * (plans.count - 1) / max(limit - 1, 1) }
    }

    /// Warnings the export gave (what it declares approximated or dropped).
    var warnings: Int { result.diagnostics.filter { $0.severity == .warning }.count }

    /// The indices of the top-level layers a control may move: unparented, not a matte, a precomp, image, null or
    /// shape layer, shown at the animation's first frame.
    static func movableLayers(_ root: JSONObject) -> [Int] {
        guard case .array(let layers)? = root["layers"] else { return [] }
        let start = root["ip"]?.doubleValue ?? 0
        return layers.indices.filter { index in
            let layer = layers[index]
            guard layer["parent"] == nil, (layer["td"]?.doubleValue ?? 0) == 0,
                [0, 2, 3, 4].contains(layer["ty"]?.doubleValue ?? -1) else { return false }
            return (layer["ip"]?.doubleValue ?? 0) <= start && start < (layer["op"]?.doubleValue ?? 0)
        }
    }

    /// `layer` with its position (static, animated or split into x/y) moved `dx` pixels along x.
    static func moving(_ layer: JSONValue, byX dx: Double) -> JSONValue? {
        guard case .object(var members) = layer, case .object(var ks)? = members["ks"],
            case .object(var position)? = ks["p"] else { return nil }
        func shifted(_ value: JSONValue?) -> JSONValue? {
            if case .number(let x)? = value { return .number(x + dx) }
            guard case .array(let xy)? = value, let x = xy.first?.doubleValue else { return nil }
            return .array([.number(x + dx)] + xy.dropFirst())
        }
        func shiftedProperty(_ property: JSONObject) -> JSONObject? {
            var property = property
            if property["a"]?.doubleValue == 1, case .array(let keys)? = property["k"] {
                property["k"] = .array(keys.map { key in
                    guard case .object(var k) = key else { return key }
                    if let s = shifted(k["s"]) { k["s"] = s }
                    if let e = shifted(k["e"]) { k["e"] = e }
                    return .object(k)
                })
            } else {
                guard let k = shifted(property["k"]) else { return nil }
                property["k"] = k
            }
            return property
        }
        if position["s"]?.boolValue == true || position["s"]?.doubleValue == 1 {
            guard case .object(let x)? = position["x"], let moved = shiftedProperty(x) else { return nil }
            position["x"] = .object(moved)
        } else {
            guard let moved = shiftedProperty(position) else { return nil }
            position = moved
        }
        ks["p"] = .object(position)
        members["ks"] = .object(ks)
        return .object(members)
    }
}
