import Foundation
import KeyframeExport
import KeyframeImport
import KeyframeModel
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// Warnings about what a Lottie file approximates say how far off the file is, and the figure is what a real player
/// shows: rlottie 0.1 draws every layer with the normal blend mode, so its frame of `animate-blend`'s `portable` file
/// differs from `keyframe render` where the blended cells are, by about the pixels the warnings measured.
final class ApproximationReportTests: XCTestCase {
    func testBlendModeWarningsMeasureWhatRLottieShows() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("Samples/animate-blend")
        let document = try Importer.importDocument(at: url)
        let library = try AtlasLibrary(document: document, folder: try Importer.detect(url).folder)
        let clip = try XCTUnwrap(document.clips.first)
        var options = ExportOptions()
        options.lottie = LottieExportSettings(profile: .portable, images: .embed)
        let (result, reports) = try LottieExporter().exportWithReports(document, library: library, clips: [clip],
                                                                      options: options)
        let report = try XCTUnwrap(reports[clip.name])
        let warnings = result.diagnostics.filter { $0.code == "lottie-blend-mode" }
        XCTAssertFalse(warnings.isEmpty)
        for warning in warnings {
            XCTAssertTrue(warning.message.contains("measured against keyframe render: "), warning.message)
        }
        // One figure per blended symbol (its pictures share it): the symbols' cells do not overlap in the sample.
        var perSymbol: [String: ApproximationError] = [:]
        for (entry, error) in report.errors {
            let symbol = String(entry.split(separator: ">").first ?? Substring(entry))
            perSymbol[symbol] = max(perSymbol[symbol]?.pixelsOff ?? 0, error.pixelsOff) == error.pixelsOff
                ? error : perSymbol[symbol]
        }
        let measured = perSymbol.values.filter { $0.frame == 0 }.reduce(0) { $0 + $1.pixelsOff }
        XCTAssertGreaterThan(measured, 5000, "\(perSymbol)")

        let json = try XCTUnwrap(result.clips.first).main.bytes
        let player = try XCTUnwrap(RLottiePlayer(json: json, key: "approximation/blend"))
        let scene = RenderScene(document: document, library: library)
        let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                        fps: document.frameRate.framesPerSecond, selection: .all)
        let framing = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: nil).framing
        var renderer = FrameRenderer()
        var expected = Bitmap(width: framing.width, height: framing.height)
        renderer.render(plans[0], scenes: [scene], framing: framing, background: .transparent, into: &expected)
        let shown = player.render(frame: 0).undoingRLottieImageAlpha()
        let off = try XCTUnwrap(BitmapDifference(shown, expected, tolerance: ApproximationError.tolerance)).differingPixels
        // rlottie's nearest-texel sampling adds picture edges to what it gets wrong; the blend modes are the bulk.
        XCTAssertGreaterThan(Double(off), 0.8 * Double(measured), "rlottie \(off) px off, warnings say \(measured)")
        XCTAssertLessThan(Double(off), 1.5 * Double(measured) + 2000, "rlottie \(off) px off, warnings say \(measured)")
        print("animate-blend portable: warnings measure \(measured) px off at frame 0, rlottie shows \(off)")
    }
}
