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

/// ThorVG, a second real Lottie player, renders Keyframe's Lottie export — profile `full` (what rlottie cannot play
/// whole) and `portable` — of every bundled sample and every Animate, DragonBones and Flump corpus export, compared by
/// pixels with what `keyframe render` draws: the first clip, every frame (48 evenly spread frames for longer clips), at
/// the same size and framing.
///
/// The export is driven only through the public exporter registry (`Exporters.exporter(for: .lottie)`), so the test
/// holds whatever structure the exporter writes. It prints, per export and profile, the criterion (mean
/// absolute difference ≤ 1/255 in every channel and ≤ 2 % of pixels off by more than 8/255) — docs/conformance.md
/// records the figures. ThorVG 1.0 does not meet that criterion on most exports (see the docs for why), so by default
/// each frame is held to the worst figures recorded for its export and profile (`recorded`, plus `margin`): a
/// regression bound that fails when an export plays worse in ThorVG than it did, and that
/// `testComparisonCatchesALayerMovedBy2Pixels` proves fails on a layer moved by 2 px. `KEYFRAME_THORVG_STRICT=1` holds
/// every frame to the criterion instead. What the export declares it cannot show (DragonBones meshes: a
/// warning naming the node; in `portable`, blend modes) is drawn on Keyframe's side as the export writes it (mesh left
/// out, normal blend); the difference against the unmodified render is printed separately.
final class ThorVGConformanceTests: XCTestCase {
    struct Figures {
        var name: String
        var profile: String
        var clip: String
        var frames: Int
        var size: (Int, Int)
        var worstMean: Double = 0
        var worstOff: Double = 0
        var sumMean: Double = 0
        var passing = 0
        var failures: [String] = []
        var warnings = 0
        var declaredWorstMean: Double = 0
        var declaredWorstOff: Double = 0
        var declaredDiffers = false

        var line: String {
            var text = String(format: "| %@ | %@ | %@ | %d | %d×%d | %.3f | %.3f | %.2f %% | %d/%d |", name, profile, clip,
                              frames, size.0, size.1, sumMean / Double(max(frames, 1)), worstMean, worstOff * 100,
                              passing, frames)
            text += declaredDiffers
                ? String(format: " %d warnings; unmodified render: %.3f / %.2f %% |", warnings, declaredWorstMean,
                         declaredWorstOff * 100)
                : (warnings > 0 ? " \(warnings) warnings, no pixel effect |" : " — |")
            return text
        }
    }

    /// Frames per export: every frame of clips up to this long, else this many spread evenly.
    static let frameLimit = 48
    /// The corpus (large stages, drawn by a debug build on Keyframe's side) compares this many frames per export and
    /// profile in CI — first, middle and last by default; `KEYFRAME_THORVG_CORPUS_FRAMES=48` gives the figures in
    /// docs/conformance.md.
    static let corpusFrameLimit = Int(ProcessInfo.processInfo.environment["KEYFRAME_THORVG_CORPUS_FRAMES"] ?? "") ?? 3

    /// Whether every frame must meet the criterion rather than the recorded bound.
    static let strict = ProcessInfo.processInfo.environment["KEYFRAME_THORVG_STRICT"] == "1"

    /// How much worse than recorded a frame may be: 1/255 in the worst channel's mean, 3 % more pixels off.
    static let margin = (mean: 1.0, off: 0.03)

    /// The worst frame per export and profile (worst channel's mean on the 0–255 scale, share of pixels off by more
    /// than 8/255) measured with ThorVG 1.0.4 (thorvg-python 1.1.3) over the frames this test compares by default.
    /// An export without an entry is held to the criterion. Re-measure after exporter changes: the test
    /// prints the figures.
    static let recorded: [String: (mean: Double, off: Double)] = [:]

    /// Whether `difference` is acceptable for `key` (`export/profile`).
    static func acceptable(_ difference: FrameDifference, key: String) -> Bool {
        guard !strict, let bound = recorded[key] else { return difference.passes }
        return difference.worstMean <= bound.mean + margin.mean && difference.offShare <= bound.off + margin.off
    }

    static let samples = ["animate-walker", "animate-bouncer-long", "bta-spinner", "flump-hopbot", "dragonbones-waver"]

    func testSamplesPlayTheSameInThorVG() throws {
        try check(Self.samples.map { TestPaths.packageRoot.appendingPathComponent("Samples").appendingPathComponent($0) },
                  frames: Self.frameLimit)
    }

    func testAnimateCorpusPlaysTheSameInThorVG() throws {
        try check(try TestPaths.corpus("animate_atlas"), frames: Self.corpusFrameLimit)
    }

    func testDragonBonesCorpusPlaysTheSameInThorVG() throws {
        try check(try TestPaths.corpus("dragonbones"), frames: Self.corpusFrameLimit)
    }

    func testFlumpCorpusPlaysTheSameInThorVG() throws {
        try check(try TestPaths.corpus("flump") + (try TestPaths.corpus("flump_xml")), frames: Self.corpusFrameLimit)
    }

    private func check(_ exports: [URL], frames: Int) throws {
        XCTAssertFalse(exports.isEmpty)
        var lines: [String] = []
        for export in exports {
            for profile in [LottieExportSettings.Profile.full, .portable] {
                let figures = try conformance(of: export, profile: profile, frameLimit: frames)
                lines.append(figures.line)
                for failure in figures.failures { XCTFail(failure) }
            }
        }
        print("ThorVG conformance (export | profile | clip | frames | size | mean of worst channel mean | worst channel mean | worst share off > 8/255 | frames passing | declared):\n"
              + lines.joined(separator: "\n"))
    }

    /// One export's first clip, exported to Lottie and prepared for comparison.
    struct Subject {
        var name: String
        var document: Document
        var library: AtlasLibrary
        var clip: Clip
        var result: ExportResult
        var lottie: URL
        var plans: [FramePlan]
        var framing: Framing
        var scene: RenderScene
    }

    func subject(_ export: URL, profile: LottieExportSettings.Profile) throws -> Subject {
        let name = export.lastPathComponent
        let document = try Importer.importDocument(at: export)
        let folder = try Importer.detect(export).folder
        let library = try AtlasLibrary(document: document, folder: folder)
        let clip = try XCTUnwrap(document.clips.first, "\(name): no clips")
        var options = ExportOptions(clips: [clip.name])
        options.lottie = LottieExportSettings(profile: profile, images: .embed)
        let exporter = try XCTUnwrap(Exporters.exporter(for: .lottie))
        let result = try exporter.export(document, assetsFolder: folder, options: options)
        let lottie = try TestPaths.temporaryFolder("keyframe-thorvg").appendingPathComponent("\(name).json")
        try Data(try XCTUnwrap(result.clips.first).main.bytes).write(to: lottie)
        let scene = RenderScene(document: document, library: library)
        let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                        fps: document.frameRate.framesPerSecond, selection: .all)
        let framing = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: nil).framing
        return Subject(name: name, document: document, library: library, clip: clip, result: result, lottie: lottie,
                       plans: plans, framing: framing, scene: scene)
    }

    /// Keyframe's render of plan `index` as the export writes it: meshes left out (declared), and in `portable`
    /// every blend mode drawn as normal (declared).
    func expected(_ s: Subject, index: Int, profile: LottieExportSettings.Profile, exact: Bool = false) -> Bitmap {
        var pose = s.scene.sampler.sample(clip: s.clip, time: s.plans[index].layers[0].time)
        if !exact {
            pose.items = pose.items.filter { $0.mesh == nil }.map { item in
                var item = item
                if profile == .portable { item.blendMode = .normal }
                return item
            }
        }
        var renderer = FrameRenderer()
        var bitmap = Bitmap(width: s.framing.width, height: s.framing.height)
        renderer.render(pose, library: s.library, framing: s.framing, background: .transparent, into: &bitmap)
        return bitmap
    }

    func conformance(of export: URL, profile: LottieExportSettings.Profile, frameLimit: Int) throws -> Figures {
        let s = try subject(export, profile: profile)
        defer { try? FileManager.default.removeItem(at: s.lottie.deletingLastPathComponent()) }
        let frameLimit = s.framing.width * s.framing.height > 1_000_000 && frameLimit < Self.frameLimit ? 1 : frameLimit
        let chosen: [Int] = s.plans.count <= frameLimit
            ? Array(s.plans.indices)
            : (0..<frameLimit).map { $0 * (s.plans.count - 1) / max(frameLimit - 1, 1) }
        let (info, frames) = try ThorVGPlayer.render(s.lottie, frames: chosen)
        XCTAssertEqual(info.width, s.framing.width, "\(s.name) (\(profile)): Lottie width")
        XCTAssertEqual(info.height, s.framing.height, "\(s.name) (\(profile)): Lottie height")
        XCTAssertEqual(info.frames, Double(s.plans.count), accuracy: 1e-6, "\(s.name) (\(profile)): Lottie frame count")
        var figures = Figures(name: s.name, profile: profile.rawValue, clip: s.clip.name, frames: chosen.count,
                              size: (s.framing.width, s.framing.height))
        figures.warnings = s.result.diagnostics.filter { $0.severity == .warning }.count
        for (index, actual) in zip(chosen, frames) {
            let expected = expected(s, index: index, profile: profile)
            let difference = FrameDifference(actual, expected)
            figures.worstMean = max(figures.worstMean, difference.worstMean)
            figures.sumMean += difference.worstMean
            figures.worstOff = max(figures.worstOff, difference.offShare)
            if difference.passes { figures.passing += 1 }
            if !Self.acceptable(difference, key: "\(s.name)/\(profile.rawValue)") {
                let comparison = BitmapComparison.compare(actual, expected, tolerance: 8)
                let stem = "thorvg-\(s.name)-\(profile.rawValue)-\(index)"
                let artifact = comparison.writeArtifacts(
                    named: stem, actual: actual, directory: BitmapComparison.artifactDirectory,
                    encoder: { bitmap in var encoder = PNGEncoder(); return try encoder.encode(bitmap) })
                var encoder = PNGEncoder()
                try? encoder.write(expected, to: BitmapComparison.artifactDirectory + "/\(stem).expected.png")
                figures.failures.append(String(
                    format: "%@ (%@) frame %d: ThorVG differs from keyframe render beyond the %@ bound: channel means %@, %.2f %% of pixels off by > 8/255 (diff: %@)",
                    s.name, profile.rawValue, index, Self.strict ? "issue's" : "recorded",
                    difference.meanPerChannel.map { String(format: "%.3f", $0) }.joined(separator: "/"),
                    difference.offShare * 100, artifact ?? "not written"))
            }
            if figures.warnings > 0 {
                let full = FrameDifference(actual, self.expected(s, index: index, profile: profile, exact: true))
                if full.meanPerChannel != difference.meanPerChannel || full.offShare != difference.offShare {
                    figures.declaredDiffers = true
                }
                figures.declaredWorstMean = max(figures.declaredWorstMean, full.worstMean)
                figures.declaredWorstOff = max(figures.declaredWorstOff, full.offShare)
            }
        }
        return figures
    }

    /// The control: the same comparison fails when one layer of the export is moved by 2 px. The layer is found by
    /// the Lottie format alone (a top-level, unparented, non-matte layer whose move changes ThorVG's own frame 0), so
    /// the control holds whatever structure the exporter writes.
    func testComparisonCatchesALayerMovedBy2Pixels() throws {
        for sample in ["animate-bouncer-long", "bta-spinner"] {
            for profile in [LottieExportSettings.Profile.full, .portable] {
                try checkControl(TestPaths.packageRoot.appendingPathComponent("Samples/\(sample)"), profile: profile)
            }
        }
    }

    private func checkControl(_ export: URL, profile: LottieExportSettings.Profile) throws {
        let s = try subject(export, profile: profile)
        defer { try? FileManager.default.removeItem(at: s.lottie.deletingLastPathComponent()) }
        let original = try ThorVGPlayer.render(s.lottie, frames: [0]).bitmaps[0]
        let expected = expected(s, index: 0, profile: profile)
        let key = "\(s.name)/\(profile.rawValue)"
        let unmoved = FrameDifference(original, expected)
        XCTAssertTrue(Self.acceptable(unmoved, key: key),
                      "\(key): the unperturbed export fails: \(unmoved.meanPerChannel), \(unmoved.offShare)")
        guard case .object(let root) = try JSONParser.parse([UInt8](try Data(contentsOf: s.lottie))),
            case .array(let layers)? = root["layers"] else { return XCTFail("\(s.name): no layers") }
        let start = root["ip"]?.doubleValue ?? 0
        let candidates = layers.indices.filter { index in
            let layer = layers[index]
            guard layer["parent"] == nil, (layer["td"]?.doubleValue ?? 0) == 0,
                [0, 2, 3, 4].contains(layer["ty"]?.doubleValue ?? -1) else { return false }
            return (layer["ip"]?.doubleValue ?? 0) <= start && start < (layer["op"]?.doubleValue ?? 0)
        }
        for index in candidates {
            guard let moved = Self.moving(layers[index], byX: 2) else { continue }
            var perturbed = root
            var newLayers = layers
            newLayers[index] = moved
            perturbed["layers"] = .array(newLayers)
            let file = s.lottie.deletingLastPathComponent().appendingPathComponent("moved.json")
            try Data(JSONWriter.writeCompact(.object(perturbed))).write(to: file)
            let actual = try ThorVGPlayer.render(file, frames: [0]).bitmaps[0]
            guard actual != original else { continue } // this layer shows nothing at frame 0: try the next one
            let difference = FrameDifference(actual, expected)
            XCTAssertFalse(Self.acceptable(difference, key: key), "\(key): layer \(index) moved by 2 px passes: means \(difference.meanPerChannel), off \(difference.offShare)")
            print(String(format: "ThorVG control %@ (%@): layer %d (%@) moved 2 px: worst channel mean %.3f, %.2f %% off > 8/255",
                         s.name, profile.rawValue, index, layers[index]["nm"]?.stringValue ?? "?",
                         difference.worstMean, difference.offShare * 100))
            return
        }
        XCTFail("\(s.name) (\(profile)): no top-level layer whose move changes frame 0")
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
        func shiftedProperty(_ property: [String: JSONValue]) -> [String: JSONValue]? {
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
