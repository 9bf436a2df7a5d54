import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// Every Flash blend mode, rendered from the bundled sample `animate-blend` (an Animate texture-atlas export, one
/// cell per mode over a colourful, partly transparent backdrop) through the whole pipeline (import → pose sampler →
/// groups → renderer), against an independent NumPy computation of Flash's definitions from the same export
/// (`Fixtures/blend_reference.py`: reads the export's JSON and PNG itself, written from the AS3 `BlendMode`
/// reference and the W3C compositing formulas, not from the renderer's code).
///
/// Pass: every channel of every pixel, premultiplied, within 1/255 of the reference; in the hard light and overlay
/// cells within 2/255 (their `B` has slope 2 in the deciding colour, so the 1/255 by which the renderer's 8-bit
/// normal compositing of the blended symbol's two pictures may differ from exact rounding becomes 2/255: measured,
/// 4 pixels of the hard light cell). Controls: the same export with any one mode set to normal misses the reference
/// in that mode's cell by far more.
final class BlendReferenceTests: XCTestCase {
    static let size = (width: 360, height: 216)
    static let cell = 72
    static let columns = 5
    /// The sample's cells in order, and the `B` value each one's control sets to normal.
    static let cells: [(name: String, mode: String)] = [
        ("normal", "normal"), ("add", "add"), ("multiply", "multiply"), ("screen", "screen"),
        ("lighten", "lighten"), ("darken", "darken"), ("difference", "difference"), ("subtract", "subtract"),
        ("invert", "invert"), ("overlay", "overlay"), ("hardlight", "hardlight"), ("layer", "layer"),
        ("alpha", "alpha"), ("erase", "erase"), ("erase without a layer", "erase"),
    ]

    static var sample: URL { TestPaths.packageRoot.appendingPathComponent("Samples/animate-blend") }

    /// Frame 0 of `export`'s first clip, root coordinates on the canvas, transparent background.
    static func render(_ export: URL) throws -> Bitmap {
        let document = try Importer.importDocument(at: export)
        let scene = try RenderScene(document: document, assetsFolder: try Importer.detect(export).folder)
        let plans = try FramePlan.plans(for: document.clips[0], documentRate: document.frameRate,
                                        fps: document.frameRate.framesPerSecond, selection: .all)
        let framing = Framing(scene: Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height)),
                              size: nil)
        var renderer = FrameRenderer()
        var frame = Bitmap(width: 0, height: 0)
        renderer.render(plans[0], scenes: [scene], framing: framing, background: .transparent, into: &frame)
        return frame
    }

    /// The NumPy reference of `export`, premultiplied 8-bit.
    static func reference(_ export: URL) throws -> Bitmap {
        let folder = try TestPaths.temporaryFolder("blend-reference")
        let output = folder.appendingPathComponent("reference.raw")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/blend_reference.py")
        let run = try CommandRun.run(["python3", script.path, export.path, "\(size.width)", "\(size.height)",
                                      output.path])
        if run.output.contains("No module named 'numpy'") { throw XCTSkip("NumPy is not installed") }
        XCTAssertEqual(run.status, 0, run.output)
        let bytes = [UInt8](try Data(contentsOf: output))
        return try XCTUnwrap(Bitmap(width: size.width, height: size.height, premultipliedRGBA: bytes))
    }

    /// The largest difference allowed in a cell, in levels of 255 (see the type's comment).
    static func tolerance(_ cell: String) -> Int { cell == "hardlight" || cell == "overlay" ? 2 : 1 }

    static func rect(ofCell index: Int) -> PixelRect {
        PixelRect(x: cell * (index % columns), y: cell * (index / columns), width: cell, height: cell)
    }

    func testEveryBlendModeMatchesTheNumPyReference() throws {
        let frame = try Self.render(Self.sample)
        let reference = try Self.reference(Self.sample)
        for (index, entry) in Self.cells.enumerated() {
            let area = Self.rect(ofCell: index)
            let ours = frame.cropped(to: area), expected = reference.cropped(to: area)
            let result = BitmapComparison.compare(ours, expected, tolerance: Self.tolerance(entry.name))
            print("BLEND \(entry.name): largest difference \(result.maxDifference)")
            if !result.matches {
                let path = result.writeArtifacts(named: "blend-\(index)", actual: ours,
                                                 directory: BitmapComparison.artifactDirectory)
                XCTFail("\(entry.name): \(result.summary); diff \(path ?? "not written")")
            }
        }
        // Nothing outside the cells, and the whole frame agrees too.
        let whole = BitmapComparison.compare(frame, reference, tolerance: 2)
        XCTAssertTrue(whole.matches, whole.summary)
    }

    /// The controls: with any one mode set to normal, its cell misses the reference (so the comparison above would
    /// catch a mode drawn as normal), and every other cell still matches.
    func testAModeDrawnAsNormalFailsTheComparison() throws {
        let reference = try Self.reference(Self.sample)
        let original = try String(contentsOf: Self.sample.appendingPathComponent("Animation.json"), encoding: .utf8)
        let controls = try TestPaths.temporaryFolder("blend-control")
        for (index, entry) in Self.cells.enumerated() where entry.mode != "normal" {
            let folder = controls.appendingPathComponent(entry.mode)
            if !FileManager.default.fileExists(atPath: folder.path) {
                try SampleEdit.copy("animate-blend", to: folder)
                let edited = original.replacingOccurrences(of: "\"B\":\"\(entry.mode)\"", with: "\"B\":\"normal\"")
                XCTAssertNotEqual(edited, original, entry.mode)
                try Data(edited.utf8).write(to: folder.appendingPathComponent("Animation.json"))
            }
            let frame = try Self.render(folder)
            let area = Self.rect(ofCell: index)
            let result = BitmapComparison.compare(frame.cropped(to: area), reference.cropped(to: area), tolerance: 1)
            print("BLEND CONTROL \(entry.name) as normal: largest difference \(result.maxDifference), "
                + "\(result.differingPixels) pixel(s) off")
            XCTAssertFalse(result.matches, "\(entry.name) drawn as normal still matches the reference")
            XCTAssertGreaterThan(result.maxDifference, Self.tolerance(entry.name))
            XCTAssertGreaterThan(result.maxDifference, 8, "\(entry.name): the mode changes too little to test")
        }
    }
}
