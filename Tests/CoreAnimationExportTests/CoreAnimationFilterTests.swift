import Foundation
import KeyframeEngine
import KeyframeExport
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// Filtered clips (Animate glow, blur, drop shadow, adjust colour) exported as layer trees whose filtered nodes show
/// pictures drawn as `keyframe render` draws them: the Core Animation model's frames, drawn with the raster renderer,
/// against the full render (filters drawn) of the same frames; and a control with one filter left out of the
/// export, which must fail the same comparison.
final class CoreAnimationFilterTests: XCTestCase {
    /// The filtered exports of the corpus, and the sample with every filter kind Animate writes.
    static func filteredExports() throws -> [URL] {
        let names = ["openfl-fx-boule-filters-2018", "flxanimate05-mom-bg-mask", "flxanimate05-week7-cutscene",
                     "openfl-astronaut-res0.5", "flxanimate-picoShoot-fnf", "libanimateatlas-sml-bta"]
        let corpus = try TestPaths.corpus("animate_atlas").filter { names.contains($0.lastPathComponent) }
        return [TestPaths.packageRoot.appendingPathComponent("Samples/animate-glow")] + corpus
    }

    /// Frames compared per clip (first, middle and last of longer clips: the corpus stages are large and the
    /// model is drawn in a debug build).
    static let frameLimit = Int(ProcessInfo.processInfo.environment["KEYFRAME_CA_FILTER_FRAMES"] ?? "") ?? 3

    /// How one export's first clip, as a layer tree, differs from the full render.
    struct Figures {
        var name: String
        var frames = 0
        var badFrames = 0
        var worst = 0
        var worstShare = 0.0
        var pictures = 0
        var warnings: [String] = []
    }

    func testFilteredClipsRenderLikeKeyframeRender() throws {
        var lines: [String] = []
        for url in try Self.filteredExports() {
            let figures = try compare(url)
            lines.append("\(figures.name): \(figures.frames) frames, \(figures.badFrames) differ (max \(figures.worst)/255, "
                         + String(format: "%.3f %% of pixels", figures.worstShare * 100)
                         + "), \(figures.pictures) filter pictures")
            XCTAssertGreaterThan(figures.pictures, 0, "\(figures.name): no filter pictures")
            XCTAssertEqual(figures.badFrames, 0, "\(figures.name): \(figures.badFrames) frames differ")
            // Only filters nothing draws (a bevel) are left out.
            XCTAssertFalse(figures.warnings.contains { $0.contains("ca-filter") && !$0.contains("does not draw") },
                           "\(figures.name): \(figures.warnings)")
        }
        print("CoreAnimationFilter:\n" + lines.joined(separator: "\n"))
    }

    /// The control: the same comparison fails when the export leaves out one node's filters (its pictures then show
    /// the node unfiltered), for the sample and a corpus export.
    func testComparisonFailsWithoutOneFilter() throws {
        let exports = try Self.filteredExports().filter {
            ["animate-glow", "openfl-fx-boule-filters-2018"].contains($0.lastPathComponent)
        }
        XCTAssertFalse(exports.isEmpty)
        for url in exports {
            let document = try Importer.importDocument(at: url)
            var stripped = document
            let clip = try XCTUnwrap(document.clips.first)
            // The first filtered node the clip's first frame draws loses its filters.
            let pose = PoseSampler(document: document).sample(clip: clip, time: Frames(0))
            let group = try XCTUnwrap(pose.filterGroups.first, "\(url.lastPathComponent): no filter at frame 0")
            var removed = false
            for c in stripped.compositions.indices where !removed {
                for n in stripped.compositions[c].nodes.indices
                where group.path.hasSuffix("\(stripped.compositions[c].id)/\(stripped.compositions[c].nodes[n].id)") {
                    stripped.compositions[c].nodes[n].tracks.filters = nil
                    removed = true
                    break
                }
            }
            XCTAssertTrue(removed, "\(url.lastPathComponent): \(group.path) not found")
            let figures = try compare(url, exporting: stripped, frames: 1)
            XCTAssertGreaterThan(figures.badFrames, 0,
                                 "\(url.lastPathComponent): the export without \(group.path)'s filters still matches")
            print("CoreAnimationFilter control \(url.lastPathComponent) without \(group.path)'s filters: max "
                  + "\(figures.worst)/255, " + String(format: "%.3f %%", figures.worstShare * 100) + " of pixels off")
        }
    }

    /// Exports `exporting` (default: the export at `url` itself) as a layer tree and compares the model's frames of
    /// the first clip with the full render of the export at `url`, within 2/255 per channel: a translucent filtered
    /// node's picture is drawn opaque and the layer's opacity applied after, where `render` applies both at once
    /// (two roundings).
    func compare(_ url: URL, exporting: Document? = nil, frames: Int = CoreAnimationFilterTests.frameLimit) throws
        -> Figures
    {
        let document = try Importer.importDocument(at: url)
        let folder = try Importer.detect(url).folder
        let scene = try RenderScene(document: document, assetsFolder: folder)
        let clip = try XCTUnwrap(document.clips.first)
        var options = ExportOptions(clips: [clip.name])
        options.pictures = .fast
        let result = try CoreAnimationExporter().export(exporting ?? document, assetsFolder: folder, options: options)
        let exported = try XCTUnwrap(result.clips.first)
        let tree = try CALayerTreeFile.decode(exported.main.bytes)
        XCTAssertEqual(CALayerTreeValidator.problems(in: tree), [])
        let (drawDocument, library) = try CoreAnimationRenderTests.library(for: tree, exported: exported,
                                                                           document: document, assetsFolder: folder)
        let player = CALayerTreePlayer(document: tree)
        let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                        fps: document.frameRate.framesPerSecond, selection: .all)
        let (framing, _) = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: nil)
        var figures = Figures(name: url.lastPathComponent)
        figures.pictures = tree.images.filter { $0.id.contains("~filter-") }.count
        figures.warnings = result.diagnostics.filter { $0.severity == .warning }.map(\.description)
        let chosen = plans.count <= frames ? Array(plans.indices)
            : (0..<frames).map { $0 * (plans.count - 1) / max(frames - 1, 1) }
        var renderer = FrameRenderer()
        for index in chosen {
            var expected = Bitmap(width: 1, height: 1)
            renderer.render(plans[index], scenes: [scene], framing: framing, background: .transparent, into: &expected)
            var pose = Pose()
            for layer in player.draw(at: Double(index) / document.frameRate.framesPerSecond) {
                var item = try CoreAnimationRenderTests.item(layer, tree: tree, document: drawDocument)
                for shapes in layer.masks {
                    pose.masks.append(try shapes.map { try CoreAnimationRenderTests.item($0, tree: tree, document: drawDocument) })
                    item.masks.append(pose.masks.count - 1)
                }
                pose.items.append(item)
            }
            var actual = Bitmap(width: 1, height: 1)
            renderer.render(pose, library: library, framing: framing, background: .transparent, into: &actual)
            let comparison = BitmapComparison.compare(actual, expected, tolerance: 2)
            figures.frames += 1
            figures.worst = max(figures.worst, comparison.maxDifference)
            figures.worstShare = max(figures.worstShare, Double(comparison.differingPixels) / Double(max(expected.width * expected.height, 1)))
            if !comparison.matches {
                figures.badFrames += 1
                if exporting == nil {
                    var encoder = PNGEncoder()
                    let path = comparison.writeArtifacts(
                        named: "ca-filter-\(url.lastPathComponent)-\(index)", actual: actual,
                        directory: BitmapComparison.artifactDirectory, encoder: { try encoder.encode($0) })
                    print("\(url.lastPathComponent) frame \(index): \(comparison.summary); diff: \(path ?? "-")")
                }
            }
        }
        return figures
    }
}
