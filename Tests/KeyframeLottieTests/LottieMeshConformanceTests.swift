#if canImport(Glibc)  // LottieWebPlayer drives Chromium through ChromiumSession, Linux-only.
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

/// DragonBones meshes, exported as masked triangles (docs/lottie.md), played by rlottie, ThorVG and lottie-web's
/// svg, canvas and html renderers against the full `keyframe render` of the same frame, meshes deformed: the bundled
/// waver (every frame) and the corpus's three mesh exports (first, middle and last frame), both profiles.
///
/// Each frame is compared whole and within the meshes' own region (the bounding box of every mesh the pose draws,
/// 2 px around), where a missing triangle or a seam is a large share of the pixels. Both comparisons blur both
/// frames 3 × 3 first (rlottie's 253/255 image alpha undone), as `RLottieConformanceTests` does, which absorbs the
/// players' nearest-texel and mask anti-aliasing differences but not a triangle out of place or missing
/// (`testComparisonCatchesAMissingMeshTriangle`). Whole frames: each channel's mean ≤ 3/255 and ≤ 5 % of pixels off
/// by > 32/255 (rlottie's bound); mesh regions: mean ≤ 8/255 and ≤ 5 % — a region as small as the waver's flag
/// (37 × 21 px) is mostly edge, where the players' sampling differs by a pixel (measured 6.2/255), while one triangle
/// missing puts it at 22/255 and 12 %. Asserted for rlottie (`portable`: rlottie 0.1 draws no `sk`) and lottie-web's
/// three renderers (both profiles); ThorVG's figures are printed, and `ThorVGConformanceTests` holds the same exports
/// to their recorded figures (ThorVG 1.0 samples pictures at the pixel's corner: docs/conformance.md).
final class LottieMeshConformanceTests: XCTestCase {
    static let corpusMeshes = ["db4.5-ubbie-mesh-ffd", "db5.0-newdragon-skinned-mesh", "db5.5-youxin-body-mesh"]
    /// Frames compared per corpus clip: the first in CI; `KEYFRAME_MESH_CORPUS_FRAMES=3` (first, middle, last) for the
    /// figures in docs/conformance.md.
    static let corpusFrames = Int(ProcessInfo.processInfo.environment["KEYFRAME_MESH_CORPUS_FRAMES"] ?? "") ?? 1
    /// ThorVG's figures are printed, not asserted (see above), and take most of the time: only with
    /// `KEYFRAME_MESH_THORVG=1`.
    static let thorvg = ProcessInfo.processInfo.environment["KEYFRAME_MESH_THORVG"] == "1"

    static func exports() throws -> [URL] {
        var exports = [TestPaths.packageRoot.appendingPathComponent("Samples/dragonbones-waver")]
        let corpus = (try? TestPaths.corpus("dragonbones")) ?? []
        exports += corpus.filter { corpusMeshes.contains($0.lastPathComponent) }
        return exports
    }

    /// The compensated difference of two frames (see the class comment).
    static func compensated(_ actual: Bitmap, _ expected: Bitmap, rlottie: Bool) -> FrameDifference {
        let raw = FrameDifference(actual, expected)
        if raw.passes { return raw }
        let played = rlottie ? actual.undoingRLottieImageAlpha() : actual
        return FrameDifference(played.boxBlurred(), expected.boxBlurred(), offBy: 32)
    }

    static func passes(_ difference: FrameDifference) -> Bool {
        difference.worstMean <= RLottieConformanceTests.compensatedMeanLimit
            && difference.offShare <= RLottieConformanceTests.compensatedOffLimit
    }

    /// The bound of a mesh region (see the class comment).
    static let regionMeanLimit = 8.0
    static let regionOffLimit = 0.05

    static func regionPasses(_ difference: FrameDifference) -> Bool {
        difference.worstMean <= regionMeanLimit && difference.offShare <= regionOffLimit
    }

    /// The device-space bounding box of every mesh in the pose of plan `index`, 2 px around, inside the canvas.
    static func meshRegion(_ s: LottieConformanceSubject, _ index: Int) -> PixelRect? {
        let pose = s.scene.sampler.sample(clip: s.clip, time: s.plans[index].layers[0].time)
        let view = s.framing.rootToDevice
        var box: (Double, Double, Double, Double)? = nil
        for item in pose.items {
            for p in item.mesh?.positions ?? [] where p.x.isFinite && p.y.isFinite {
                let x = view.a * p.x + view.c * p.y + view.tx, y = view.b * p.x + view.d * p.y + view.ty
                box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
            }
        }
        guard let box else { return nil }
        let x0 = max(Int((box.0 - 2).rounded(.down)), 0), y0 = max(Int((box.1 - 2).rounded(.down)), 0)
        let x1 = min(Int((box.2 + 2).rounded(.up)), s.framing.width), y1 = min(Int((box.3 + 2).rounded(.up)), s.framing.height)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    struct Row {
        var name: String
        var profile: String
        var player: String
        var frames = 0
        var whole = (mean: 0.0, off: 0.0)
        var mesh = (mean: 0.0, off: 0.0)
        var failures: [String] = []
        /// Whether failures are asserted (ThorVG's are only printed).
        var asserted = true

        var line: String {
            String(format: "| %@ | %@ | %@ | %d | %.3f / %.2f %% | %.3f / %.2f %% |", name, profile, player, frames,
                   whole.mean, whole.off * 100, mesh.mean, mesh.off * 100)
        }

        mutating func add(_ actual: Bitmap, _ expected: Bitmap, region: PixelRect?, frame: Int, rlottie: Bool) {
            frames += 1
            let all = LottieMeshConformanceTests.compensated(actual, expected, rlottie: rlottie)
            whole = (max(whole.mean, all.worstMean), max(whole.off, all.offShare))
            var local = all
            if let region {
                local = LottieMeshConformanceTests.compensated(actual.cropped(to: region), expected.cropped(to: region),
                                                               rlottie: rlottie)
                mesh = (max(mesh.mean, local.worstMean), max(mesh.off, local.offShare))
            }
            let verdicts = [("frame", all, LottieMeshConformanceTests.passes(all)),
                            ("mesh region", local, LottieMeshConformanceTests.regionPasses(local))]
            for (what, d, passed) in verdicts where !passed && asserted {
                let stem = "lottie-mesh-\(name)-\(profile)-\(player)-\(frame)"
                var encoder = PNGEncoder()
                try? encoder.write(actual, to: BitmapComparison.artifactDirectory + "/\(stem).actual.png")
                try? encoder.write(expected, to: BitmapComparison.artifactDirectory + "/\(stem).expected.png")
                failures.append(String(format: "%@ (%@, %@) frame %d, %@: channel means %@, %.2f %% off by > 32/255 after a 3 × 3 blur (%@)",
                                       name, profile, player, frame, what,
                                       d.meanPerChannel.map { String(format: "%.3f", $0) }.joined(separator: "/"),
                                       d.offShare * 100, BitmapComparison.artifactDirectory + "/\(stem).*.png"))
            }
        }
    }

    /// Every player draws the mesh clips like `keyframe render` with meshes deformed, whole frames and mesh regions.
    func testMeshClipsPlayTheSameInEveryPlayer() throws {
        let exports = try Self.exports()
        if exports.count < 4 { print("LottieMeshConformanceTests: corpus absent, the waver only") }
        let web = try? LottieWebPlayer()
        defer { web?.close() }
        var lines: [String] = []
        let folder = try TestPaths.temporaryFolder("keyframe-lottie-mesh")
        defer { try? FileManager.default.removeItem(at: folder) }
        for export in exports {
            for profile in LottieExportSettings.Profile.allCases {
                let s = try LottieConformanceSubject(export, profile: profile)
                XCTAssertFalse(s.result.diagnostics.contains { $0.code == "lottie-mesh-dropped" }, s.name)
                let chosen = s.chosenFrames(limit: export.path.hasPrefix(TestPaths.packageRoot.path) ? 48
                                                : Self.corpusFrames)
                let expected = chosen.map { s.expected($0) }
                let regions = chosen.map { Self.meshRegion(s, $0) }
                XCTAssertTrue(regions.contains { $0 != nil }, "\(s.name): no mesh drawn")
                var rows: [Row] = []
                // rlottie
                var row = Row(name: s.name, profile: profile.rawValue, player: "rlottie")
                row.asserted = profile == .portable
                let rlottie = try XCTUnwrap(RLottiePlayer(json: s.json, key: "\(s.name)-mesh-\(profile)"))
                for (i, frame) in chosen.enumerated() {
                    row.add(rlottie.render(frame: frame), expected[i], region: regions[i], frame: frame, rlottie: true)
                }
                rows.append(row)
                // ThorVG
                let file = folder.appendingPathComponent("\(s.name)-\(profile).json")
                try Data(s.json).write(to: file)
                if Self.thorvg, let thorvg = try? ThorVGPlayer.render(file, frames: chosen) {
                    row = Row(name: s.name, profile: profile.rawValue, player: "thorvg")
                    row.asserted = false
                    for (i, frame) in chosen.enumerated() {
                        row.add(thorvg.bitmaps[i], expected[i], region: regions[i], frame: frame, rlottie: false)
                    }
                    rows.append(row)
                }
                // lottie-web
                for renderer in LottieWebPlayer.Renderer.allCases {
                    guard let web else { break }
                    row = Row(name: s.name, profile: profile.rawValue, player: "lottie-web \(renderer.rawValue)")
                    try web.load(s.json, renderer: renderer)
                    for (i, frame) in chosen.enumerated() {
                        row.add(try web.render(frames: [frame])[0], expected[i], region: regions[i], frame: frame,
                                rlottie: false)
                    }
                    rows.append(row)
                }
                for row in rows {
                    lines.append(row.line + (row.asserted ? "" : " not asserted"))
                    for failure in row.failures { XCTFail(failure) }
                }
            }
        }
        print("mesh conformance (export | profile | player | frames | whole frame: worst channel mean / share off | mesh region):\n"
              + lines.joined(separator: "\n"))
    }

    /// The control: the waver's export with the flag's largest triangle layer removed from the file fails the
    /// mesh-region comparison in rlottie and lottie-web (svg), while the file as exported passes.
    func testComparisonCatchesAMissingMeshTriangle() throws {
        let s = try LottieConformanceSubject(TestPaths.packageRoot.appendingPathComponent("Samples/dragonbones-waver"),
                                             profile: .portable)
        guard case .object(var root) = try JSONParser.parse(s.json), case .array(var layers)? = root["layers"] else {
            return XCTFail("unexpected export shape")
        }
        let triangles = layers.indices.filter { layers[$0]["masksProperties"] != nil
            && (layers[$0]["refId"]?.stringValue ?? "").hasPrefix("mesh_") }
        XCTAssertFalse(triangles.isEmpty, "no mesh triangle layers")
        // The triangle whose mask is largest in its picture.
        func area(_ index: Int) -> Double {
            let points = layers[index]["masksProperties"]?.arrayValue?.first?["pt"]?["k"]?["v"]?.arrayValue ?? []
            let p = points.map { ($0.arrayValue?[0].doubleValue ?? 0, $0.arrayValue?[1].doubleValue ?? 0) }
            var twice = 0.0
            for i in p.indices { twice += p[i].0 * p[(i + 1) % p.count].1 - p[(i + 1) % p.count].0 * p[i].1 }
            return abs(twice) / 2
        }
        let removed = try XCTUnwrap(triangles.max { area($0) < area($1) })
        layers.remove(at: removed)
        root["layers"] = .array(layers)
        let broken = JSONWriter.writeCompact(.object(root))
        let frame = 0
        let expected = s.expected(frame)
        let region = try XCTUnwrap(Self.meshRegion(s, frame))
        let intact = try XCTUnwrap(RLottiePlayer(json: s.json, key: "waver-mesh-intact")).render(frame: frame)
        let missing = try XCTUnwrap(RLottiePlayer(json: broken, key: "waver-mesh-missing")).render(frame: frame)
        let before = Self.compensated(intact.cropped(to: region), expected.cropped(to: region), rlottie: true)
        let after = Self.compensated(missing.cropped(to: region), expected.cropped(to: region), rlottie: true)
        XCTAssertTrue(Self.regionPasses(before), "the intact export fails: \(before.meanPerChannel), \(before.offShare)")
        XCTAssertFalse(Self.regionPasses(after), "a missing triangle passes: \(after.meanPerChannel), \(after.offShare)")
        var lines = [String(format: "rlottie: intact %.3f / %.2f %%, one triangle removed %.3f / %.2f %%",
                            before.worstMean, before.offShare * 100, after.worstMean, after.offShare * 100)]
        if let web = try? LottieWebPlayer() {
            defer { web.close() }
            try web.load(s.json, renderer: .svg)
            let shown = try web.render(frames: [frame])[0]
            try web.load(broken, renderer: .svg)
            let gap = try web.render(frames: [frame])[0]
            let webBefore = Self.compensated(shown.cropped(to: region), expected.cropped(to: region), rlottie: false)
            let webAfter = Self.compensated(gap.cropped(to: region), expected.cropped(to: region), rlottie: false)
            XCTAssertTrue(Self.regionPasses(webBefore), "lottie-web: the intact export fails: \(webBefore.meanPerChannel)")
            XCTAssertFalse(Self.regionPasses(webAfter), "lottie-web: a missing triangle passes: \(webAfter.meanPerChannel)")
            lines.append(String(format: "lottie-web svg: intact %.3f / %.2f %%, one triangle removed %.3f / %.2f %%",
                                webBefore.worstMean, webBefore.offShare * 100, webAfter.worstMean, webAfter.offShare * 100))
        }
        print("mesh control (waver frame 0, flag region):\n" + lines.joined(separator: "\n"))
    }
}
#endif
