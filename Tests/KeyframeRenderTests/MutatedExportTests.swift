import Foundation
import KeyframeImport
import KeyframeModel
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// Exports with absurd numbers (±10³⁰⁸ in any numeric field: a damaged or hand-edited file) never crash the
/// importers or the renderer: each either converts and draws its first frames, or fails with an error. Several
/// such numbers once trapped a `Double` → `Int` conversion (a DragonBones display index, sprite regions, frame
/// rates, stage origins).
final class MutatedExportTests: XCTestCase {
    /// Imports and renders a mutated copy of `file` in `sample` for a spread of its numbers (at most `limit`
    /// paths, evenly spaced) set to each of ±10³⁰⁸.
    private func check(sample: String, file: String, limit: Int) throws {
        let source = TestPaths.packageRoot.appendingPathComponent("Samples/\(sample)")
        let folder = try TestPaths.temporaryFolder("mutated-\(sample)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name),
                                             to: folder.appendingPathComponent(name))
        }
        var bytes = try Data(contentsOf: source.appendingPathComponent(file))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let original = try JSONSerialization.jsonObject(with: bytes)
        let paths = JSONMutation.paths(original).numbers
        XCTAssertFalse(paths.isEmpty, file)
        let step = max(1, paths.count / limit)
        var imported = 0, refused = 0, rendered = 0
        for path in stride(from: 0, to: paths.count, by: step).map({ paths[$0] }) {
            for replacement in [1e308, -1e308] {
                let mutant = JSONMutation.replacing(original, at: path[...]) { _ in replacement }
                try JSONSerialization.data(withJSONObject: mutant).write(to: folder.appendingPathComponent(file))
                let document: Document
                do {
                    document = try Importer.importDocument(at: folder)
                    imported += 1
                } catch {
                    refused += 1
                    continue
                }
                guard let clip = document.clips.first else { continue }
                do {
                    let scene = try RenderScene(document: document, assetsFolder: folder)
                    let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                                    fps: document.frameRate.framesPerSecond, selection: .range(0...0))
                    for fit in [Framing.Fit.stage, .content] {
                        let (framing, _) = try Framing.make(plans: plans, scenes: [scene], fit: fit, size: (48, 48))
                        _ = try BatchRenderer(scenes: [scene], framing: framing, jobs: 1)
                            .run(plans, into: nil, fileName: { _ in "" })
                    }
                    rendered += 1
                } catch {
                    // A render error (a frame range, a size) is an acceptable outcome; a trap is not.
                }
            }
        }
        print("MutatedExportTests \(sample)/\(file): \(imported) imported (\(rendered) rendered), \(refused) refused")
        XCTAssertGreaterThan(imported + refused, 0)
    }

    func testAnimateExportWithAbsurdNumbers() throws {
        try check(sample: "animate-walker", file: "Animation.json", limit: 80)
        try check(sample: "animate-walker", file: "spritemap1.json", limit: 60)
    }

    func testBetterTextureAtlasExportWithAbsurdNumbers() throws {
        try check(sample: "bta-spinner", file: "Animation.json", limit: 60)
        try check(sample: "bta-spinner", file: "metadata.json", limit: 20)
    }

    func testDragonBonesExportWithAbsurdNumbers() throws {
        try check(sample: "dragonbones-waver", file: "waver_ske.json", limit: 80)
        try check(sample: "dragonbones-waver", file: "waver_tex.json", limit: 40)
    }

    func testFlumpExportWithAbsurdNumbers() throws {
        try check(sample: "flump-hopbot", file: "library.json", limit: 80)
    }
}
