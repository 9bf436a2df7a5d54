import Foundation
import KeyframeEngine
import KeyframeExport
import KeyframeImport
import KeyframeJSON
import KeyframeModel
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

    /// A pose as the Lottie export writes it, each difference declared by the export: filters left out, and in
    /// `portable` every blend mode drawn as normal. Meshes stay: the export draws them, so the reference does too.
    static func asExported(_ pose: Pose, profile: LottieExportSettings.Profile) -> Pose {
        var pose = pose
        pose.filterGroups = []
        pose.items = pose.items.map { item in
            var item = item
            item.inGroup = nil
            if profile == .portable { item.blendMode = .normal }
            return item
        }
        return pose
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
