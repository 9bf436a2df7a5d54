import Foundation
import KeyframePNG
import KeyframeRaster
import KeyframeTestSupport
import KeyframeVerify
import XCTest

/// The comparison figures, the verifier's verdicts on hand-made golden folders, and recording.
final class GoldenVerifierTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kf-verify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func solid(_ width: Int, _ height: Int, _ color: RGBAColor) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        bitmap.clear(to: color)
        return bitmap
    }

    private func write(_ bitmap: Bitmap, _ path: String) throws {
        var encoder = PNGEncoder(options: .fast)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try encoder.write(bitmap, to: path)
    }

    func testFiguresOfAKnownChange() throws {
        let expected = solid(10, 8, RGBAColor(r: 10, g: 20, b: 30))
        var actual = expected
        // Three pixels changed: two by 40 in red, one by 1 (inside a tolerance of 2).
        actual.setPixel(x: 2, y: 3, RGBAColor(r: 50, g: 20, b: 30).premultiplied)
        actual.setPixel(x: 6, y: 5, RGBAColor(r: 50, g: 20, b: 30).premultiplied)
        actual.setPixel(x: 9, y: 0, RGBAColor(r: 11, g: 20, b: 30).premultiplied)
        let difference = try XCTUnwrap(BitmapDifference(actual, expected, tolerance: 2))
        XCTAssertEqual(difference.differingPixels, 2)
        XCTAssertEqual(difference.maxDifference, 40)
        XCTAssertEqual(difference.meanDifference, 81.0 / (10 * 8 * 4), accuracy: 1e-12)
        XCTAssertEqual(difference.bounds, PixelRect(x: 2, y: 3, width: 5, height: 3))
        XCTAssertEqual(difference.first?.x, 2)
        XCTAssertEqual(difference.first?.y, 3)
        let picture = difference.image(actual: actual, expected: expected)
        XCTAssertEqual(picture.pixel(x: 2, y: 3), RGBAColor(r: 255, g: 0, b: 0).premultiplied)
        XCTAssertNotEqual(picture.pixel(x: 9, y: 0), RGBAColor(r: 255, g: 0, b: 0).premultiplied)
        XCTAssertNotEqual(picture.pixel(x: 0, y: 0), RGBAColor(r: 255, g: 0, b: 0).premultiplied)
        XCTAssertNil(BitmapDifference(actual, solid(10, 9, .black)))
        XCTAssertEqual(BitmapDifference(actual, expected, tolerance: 40)?.differingPixels, 0)
    }

    func testVerdictsPerFrame() throws {
        let golden = folder.appendingPathComponent("golden")
        let render = folder.appendingPathComponent("render")
        let base = solid(6, 6, RGBAColor(r: 200, g: 100, b: 0))
        var changed = base
        changed.setPixel(x: 1, y: 1, RGBAColor.black.premultiplied)
        // Render: frames 0–4 of "walk". Golden: 0 same, 1 changed, 2 another size, 3 corrupt, 4 absent, 5 extra.
        var frames: [RenderedFrame] = []
        for number in 0..<5 {
            let name = String(format: "walk-%04d.png", number)
            try write(number == 1 ? changed : base, render.appendingPathComponent(name).path)
            frames.append(RenderedFrame(clip: "walk", number: number, fileName: name,
                                        path: render.appendingPathComponent(name).path))
        }
        try write(base, golden.appendingPathComponent("walk-0000.png").path)
        try write(base, golden.appendingPathComponent("walk-0001.png").path)
        try write(solid(7, 6, .black), golden.appendingPathComponent("walk-0002.png").path)
        try Data("not a png".utf8).write(to: golden.appendingPathComponent("walk-0003.png"))
        try write(base, golden.appendingPathComponent("walk-0005.png").path)
        try write(base, golden.appendingPathComponent("other-0009.png").path)  // another clip: not ours

        let before = try snapshot(golden)
        var report = try GoldenVerifier(goldenFolder: golden, jobs: 3).verify(frames, extrasFor: ["walk": "walk"])
        XCTAssertEqual(try snapshot(golden), before, "verify must not modify the golden folder")
        XCTAssertEqual(report.frames.map(\.status), [.match, .differs, .sizeMismatch, .unreadableGolden,
                                                     .missingGolden, .extraGolden])
        XCTAssertFalse(report.passed)
        XCTAssertEqual(report.frames[1].difference?.differingPixels, 1)
        XCTAssertEqual(report.frames[1].difference?.bounds, PixelRect(x: 1, y: 1, width: 1, height: 1))
        XCTAssertTrue(report.frames[2].message.contains("7×6"), report.frames[2].message)
        XCTAssertTrue(report.frames[3].message.contains("walk-0003.png"), report.frames[3].message)

        // Allowing 1 differing pixel in 36 (≈2.8%) with a 3% share passes frame 1.
        let lenient = try GoldenVerifier(goldenFolder: golden, criteria: VerifyCriteria(tolerance: 2,
                                                                                         maxDifferingShare: 0.03))
            .verify(frames)
        XCTAssertEqual(lenient.frames[1].status, .match)

        try VerifyArtifacts.write(&report, to: folder.appendingPathComponent("artifacts"))
        let diffPath = try XCTUnwrap(report.frames[1].savedDiffPath)
        let diff = try PNGDecoder().decode(contentsOf: diffPath)
        XCTAssertEqual(diff.pixel(x: 1, y: 1), RGBAColor(r: 255, g: 0, b: 0).premultiplied)
        XCTAssertNotNil(report.frames[4].savedActualPath)

        let json = String(decoding: report.jsonBytes, as: UTF8.self)
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(parsed["passed"] as? Bool, false)
        let html = VerifyHTMLReport.html(for: report)
        XCTAssertEqual(html.components(separatedBy: "<section class=\"frame\"").count - 1, 5)
        XCTAssertFalse(html.contains("http://") || html.contains("https://"))

        let summary = try GoldenRecorder.record(report)
        XCTAssertEqual(summary.added, ["walk-0004.png"])
        XCTAssertEqual(summary.updated, ["walk-0001.png", "walk-0002.png", "walk-0003.png"])
        XCTAssertEqual(summary.removed, ["walk-0005.png"])
        XCTAssertEqual(summary.unchanged, 1)
        let again = try GoldenVerifier(goldenFolder: golden).verify(frames, extrasFor: ["walk": "walk"])
        XCTAssertTrue(again.passed, again.summary)
        XCTAssertTrue(FileManager.default.fileExists(atPath: golden.appendingPathComponent("other-0009.png").path))
    }

    func testMissingGoldenFolderIsAnError() {
        XCTAssertThrowsError(try GoldenVerifier(goldenFolder: folder.appendingPathComponent("nope")).verify([])) {
            XCTAssertTrue("\($0)".contains("does not exist"), "\($0)")
        }
    }

    /// Every file's name and bytes.
    private func snapshot(_ url: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
            out[name] = try Data(contentsOf: url.appendingPathComponent(name))
        }
        return out
    }
}
