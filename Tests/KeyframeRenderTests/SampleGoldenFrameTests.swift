import Foundation
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

// Golden frames for the bundled samples (every export folder under Samples/).
//
// Each clip is rendered as `keyframe render` does by default (stage framing, or content when the document has no
// stage; transparent background; the document's frame rate), and every third frame plus the last is compared with
// Tests/KeyframeRenderTests/Golden/<sample>/<clip>-NNNN.png, pixel by pixel, within a tolerance of 2 per channel.
//
// - A failing comparison writes `<name>.diff.png` (expected dimmed, differing pixels red) and `<name>.actual.png`
//   into Tests/KeyframeRenderTests/Artifacts/<sample>/ (or $KEYFRAME_TEST_ARTIFACTS), which git ignores.
// - RECORD_SNAPSHOTS=1 rewrites the goldens and fails on purpose, so recording is never silent. The goldens were
//   reviewed by eye on contact sheets when recorded; the pixel-exact placement checks live in RenderPipelineTests
//   and CorpusRenderTests.

private let renderTestsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
private let goldenFolder = renderTestsFolder.appendingPathComponent("Golden")
private let artifactsFolder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["KEYFRAME_TEST_ARTIFACTS"]
    ?? renderTestsFolder.appendingPathComponent("Artifacts").path)

final class SampleGoldenFrameTests: XCTestCase {
    static let tolerance = 2
    static let stride = 3

    /// Every sample folder that holds an export.
    static func samples() throws -> [URL] {
        let root = TestPaths.packageRoot.appendingPathComponent("Samples")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        return names.map { root.appendingPathComponent($0) }.filter { (try? Importer.detect($0)) != nil }
    }

    /// The frame numbers checked for a clip of `count` frames.
    static func checkedFrames(count: Int) -> [Int] {
        var frames = Array(Swift.stride(from: 0, to: count, by: stride))
        if frames.last != count - 1 { frames.append(count - 1) }
        return frames
    }

    func testEverySampleMatchesItsGoldenFrames() throws {
        let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
        let samples = try Self.samples()
        XCTAssertGreaterThanOrEqual(samples.count, 3, "expected the bundled samples under Samples/")
        var expectedFiles: Set<String> = []
        var compared = 0
        for sample in samples {
            let name = sample.lastPathComponent
            let document = try Importer.importDocument(at: sample)
            let scene = try RenderScene(document: document, assetsFolder: try Importer.detect(sample).folder)
            for clip in document.clips {
                let all = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                              fps: document.frameRate.framesPerSecond, selection: .all)
                let plans = Self.checkedFrames(count: all.count).map { all[$0] }
                let (framing, _) = try Framing.make(plans: all, scenes: [scene], fit: .stage, size: nil)
                var renderer = FrameRenderer()
                var frame = Bitmap(width: 0, height: 0)
                for plan in plans {
                    renderer.render(plan, scenes: [scene], framing: framing, background: .transparent, into: &frame)
                    let file = RenderSession.frameFileName(stem: RenderSession.fileStem(clip.name), number: plan.number)
                    let golden = goldenFolder.appendingPathComponent(name).appendingPathComponent(file)
                    expectedFiles.insert("\(name)/\(file)")
                    if record {
                        try FileManager.default.createDirectory(at: golden.deletingLastPathComponent(),
                                                                withIntermediateDirectories: true)
                        var encoder = PNGEncoder(options: .compact)
                        try encoder.write(frame, to: golden.path)
                        continue
                    }
                    guard FileManager.default.fileExists(atPath: golden.path) else {
                        XCTFail("\(name)/\(file): no golden frame; record with RECORD_SNAPSHOTS=1 and review it")
                        continue
                    }
                    let expected = try PNGDecoder().decode(contentsOf: golden.path)
                    let comparison = BitmapComparison.compare(frame, expected, tolerance: Self.tolerance)
                    compared += 1
                    if !comparison.matches {
                        var encoder = PNGEncoder()
                        let diff = comparison.writeArtifacts(
                            named: file.replacingOccurrences(of: ".png", with: ""), actual: frame,
                            directory: artifactsFolder.appendingPathComponent(name).path,
                            encoder: { try encoder.encode($0) })
                        XCTFail("\(name)/\(file): \(comparison.summary); diff: \(diff ?? "not written")")
                    }
                }
            }
        }
        if record {
            XCTFail("RECORD_SNAPSHOTS=1: golden frames rewritten; review them and run again without it")
            return
        }
        XCTAssertGreaterThan(compared, 20)
        // Orphans: goldens that no sample produces any more.
        let enumerator = FileManager.default.enumerator(atPath: goldenFolder.path)
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".png") else { continue }
            XCTAssertTrue(expectedFiles.contains(path), "Golden/\(path) is not produced by any sample; delete it")
        }
    }

    func testRenderingIsDeterministicAcrossWorkers() throws {
        let sample = TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker")
        let document = try Importer.importDocument(at: sample)
        let scene = try RenderScene(document: document, assetsFolder: sample)
        let clip = try XCTUnwrap(document.clips.first)
        let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate, fps: 24, selection: .all)
        let (framing, _) = try Framing.make(plans: plans, scenes: [scene], fit: .content, size: nil)
        let one = try TestPaths.temporaryFolder("render-jobs1")
        let two = try TestPaths.temporaryFolder("render-jobs2")
        let name: @Sendable (FramePlan) -> String = { "f-\($0.number).png" }
        _ = try BatchRenderer(scenes: [scene], framing: framing, jobs: 1).run(plans, into: one, fileName: name)
        _ = try BatchRenderer(scenes: [scene], framing: framing, jobs: 2).run(plans, into: two, fileName: name)
        for plan in plans {
            let a = try Data(contentsOf: one.appendingPathComponent(name(plan)))
            let b = try Data(contentsOf: two.appendingPathComponent(name(plan)))
            XCTAssertEqual(a, b, "frame \(plan.number) differs between 1 and 2 workers")
        }
    }
}
