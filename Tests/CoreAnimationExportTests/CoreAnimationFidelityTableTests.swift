import Foundation
import KeyframeEngine
import KeyframeExport
import KeyframeImport
import KeyframeModel
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// The Core Animation half of the fidelity table in docs/conformance.md (`make fidelity`): every clip of every bundled
/// sample (every frame) and of every corpus export (first, middle and last frame), exported to Core Animation, drawn
/// from what the Core Animation model (`CALayerTreePlayer`) shows, and compared with `keyframe render` of the same
/// frame as the source defines it.
///
/// Runs only with `KEYFRAME_FIDELITY=1`; the rows go to `.build/fidelity/core-animation.json`, read by
/// `Scripts/fidelity-table.py`.
final class CoreAnimationFidelityTableTests: XCTestCase {
    static let output = TestPaths.packageRoot.appendingPathComponent(".build/fidelity/core-animation.json")

    /// One clip's figures: the worst compared frame's.
    struct Row: Codable {
        var export: String
        var clip: String
        var frames: [Int]
        var width: Int
        var height: Int
        var warnings: [String]
        /// Worst channel mean (0–255), worst share of pixels off by more than 8/255, largest channel difference.
        var mean = 0.0, off = 0.0, largest = 0
        /// Frames meeting the criterion (mean ≤ 1/255, ≤ 2 % off by > 8/255).
        var passing = 0
    }

    func testEveryClipInTheCoreAnimationModel() throws {
        guard ProcessInfo.processInfo.environment["KEYFRAME_FIDELITY"] == "1" else {
            throw XCTSkip("set KEYFRAME_FIDELITY=1 (make fidelity) to regenerate the fidelity table")
        }
        let samples = try FileManager.default.contentsOfDirectory(
            at: TestPaths.packageRoot.appendingPathComponent("Samples"), includingPropertiesForKeys: nil)
            .filter { $0.hasDirectoryPath && $0.lastPathComponent != "scripts" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let corpus = try ["animate_atlas", "dragonbones", "flump", "flump_xml"].flatMap { try TestPaths.corpus($0) }
        // KEYFRAME_FIDELITY_ONLY=NAME,NAME measures only those exports (the table then lists only them).
        let only = ProcessInfo.processInfo.environment["KEYFRAME_FIDELITY_ONLY"].map { Set($0.split(separator: ",").map(String.init)) }
        var rows: [Row] = []
        for export in samples + corpus where only?.contains(export.lastPathComponent) ?? true {
            rows += try fidelity(of: export, everyFrame: samples.contains(export))
        }
        try FileManager.default.createDirectory(at: Self.output.deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(rows).write(to: Self.output)
        print("fidelity: \(rows.count) clips written to \(Self.output.path)")
    }

    func fidelity(of export: URL, everyFrame: Bool) throws -> [Row] {
        let document = try Importer.importDocument(at: export)
        let folder = try Importer.detect(export).folder
        let scene = try RenderScene(document: document, assetsFolder: folder)
        let result = try CoreAnimationExporter().export(document, assetsFolder: folder, options: ExportOptions())
        var rows: [Row] = []
        for exported in result.clips {
            let tree = try CALayerTreeFile.decode(exported.main.bytes)
            let (drawDocument, library) = try CoreAnimationRenderTests.library(
                for: tree, exported: exported, document: document, assetsFolder: folder)
            let clip = try XCTUnwrap(document.clip(named: exported.clip))
            let player = CALayerTreePlayer(document: tree)
            let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                            fps: document.frameRate.framesPerSecond, selection: .all)
            guard !plans.isEmpty else { continue }
            let (framing, _) = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: nil)
            let frames = everyFrame ? Array(plans.indices)
                : Array(Set([0, (plans.count - 1) / 2, plans.count - 1])).sorted()
            var row = Row(export: export.lastPathComponent, clip: clip.name, frames: frames, width: framing.width,
                          height: framing.height,
                          warnings: result.diagnostics.filter {
                              $0.severity == .warning && $0.message.contains("clip \"\(clip.name)\"")
                          }.map(\.message))
            var renderer = FrameRenderer()
            for index in frames {
                var expected = Bitmap(width: 1, height: 1)
                renderer.render(plans[index], scenes: [scene], framing: framing, background: .transparent,
                                into: &expected)
                let pose = try CoreAnimationRenderTests.pose(
                    of: player.draw(at: Double(index) / document.frameRate.framesPerSecond), tree: tree,
                    document: drawDocument)
                var actual = Bitmap(width: 1, height: 1)
                renderer.render(pose, library: library, framing: framing, background: .transparent, into: &actual)
                let worst = FrameDifference(actual, expected)
                row.mean = max(row.mean, worst.worstMean)
                row.off = max(row.off, worst.offShare)
                row.largest = max(row.largest, BitmapDifference(actual, expected)?.maxDifference ?? 255)
                row.passing += worst.passes ? 1 : 0
            }
            rows.append(row)
        }
        return rows
    }
}

/// The conformance criterion's figures for two frames of one size: worst channel mean (0–255) and the share of pixels
/// off by more than 8/255.
private struct FrameDifference {
    var worstMean: Double
    var offShare: Double
    /// The criterion: every channel's mean ≤ 1/255 and at most 2 % of pixels off by more than 8/255.
    var passes: Bool { worstMean <= 1 && offShare <= 0.02 }

    init(_ a: Bitmap, _ b: Bitmap) {
        var sums = [0, 0, 0, 0], off = 0
        for i in stride(from: 0, to: min(a.pixels.count, b.pixels.count), by: 4) {
            var worst = 0
            for c in 0..<4 {
                let d = abs(Int(a.pixels[i + c]) - Int(b.pixels[i + c]))
                sums[c] += d
                worst = max(worst, d)
            }
            if worst > 8 { off += 1 }
        }
        let pixels = Double(max(a.width * a.height, 1))
        worstMean = sums.map { Double($0) / pixels }.max() ?? 0
        offShare = Double(off) / pixels
    }
}
