import Foundation
import KeyframeExport
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// Filters `keyframe render` draws (blur, glow, drop shadow, adjust colour) reach a Lottie file as pictures of the
/// filtered nodes drawn with them (docs/lottie.md); filters nothing draws (bevels) are left out, and the export says
/// so: a warning naming the node and kind, the report listing it as dropped, and `--strict` failing. A report never
/// shows "dropped: none" beside a warning.
final class LottieFilterReportTests: XCTestCase {
    /// `AnimateFixture.filtered` with a real 4 × 4 atlas picture, so the export can cut its sprite.
    func filteredExport() throws -> (Document, AtlasLibrary) {
        let fixture = try AnimateFixture(animation: AnimateFixture.filtered)
        var picture = Bitmap(width: 4, height: 4)
        picture.clear(to: RGBAColor(r: 200, g: 60, b: 40))
        var encoder = PNGEncoder()
        try encoder.write(picture, to: fixture.folder.appendingPathComponent("spritemap1.png").path)
        let document = try Importer.importDocument(at: fixture.folder)
        return (document, try AtlasLibrary(document: document, folder: fixture.folder))
    }

    func testEveryDrawnFilterAClipShowsIsBakedNotDropped() throws {
        let (document, library) = try filteredExport()
        XCTAssertEqual(document.clips.map(\.name), ["first", "second", "filtered"])
        // Frame 0 shows the glowing instance only; frame 1 also the adjusted one: one picture per filtered node
        // and frame.
        let expected: [String: Int] = ["first": 1, "second": 2, "filtered": 2]
        for profile in LottieExportSettings.Profile.allCases {
            var options = ExportOptions()
            options.lottie.profile = profile
            options.strict = true
            let (result, reports) = try LottieExporter().exportWithReports(document, library: library,
                                                                          clips: document.clips, options: options)
            XCTAssertFalse(result.diagnostics.contains { $0.severity == .warning }, "\(result.diagnostics)")
            for clip in document.clips {
                let report = try XCTUnwrap(reports[clip.name])
                XCTAssertEqual(report.dropped, [], "\(profile) \(clip.name)")
                XCTAssertNotNil(report.flattened, "\(profile) \(clip.name): filtered clips are written flattened")
                XCTAssertGreaterThanOrEqual(report.bakedFilterPictures, 1, report.summary)
                XCTAssertLessThanOrEqual(report.bakedFilterPictures, expected[clip.name] ?? 0, report.summary)
                XCTAssertTrue(report.summary.contains("baked filter pictures"), report.summary)
                XCTAssertTrue(result.diagnostics.contains {
                    $0.code == "lottie-filter-baked" && $0.message.hasPrefix("clip \"\(clip.name)\"")
                })
                // The file carries no effect: the filters are in its pictures.
                let file = try XCTUnwrap(result.clips.first { $0.clip == clip.name })
                XCTAssertFalse(String(decoding: file.main.bytes, as: UTF8.self).contains("\"ef\""))
                XCTAssertTrue(String(decoding: file.main.bytes, as: UTF8.self).contains("_filtered_"))
            }
        }
    }

    /// The samples and a filtered Animate export from the corpus (written flattened, its filters baked), and the
    /// rule that holds for every report: each warning's node is listed among the approximated or the dropped, so no
    /// report says "none" beside a warning; a bevel (which nothing draws) is still a dropped filter.
    func testWarningsAndReportsAgreeOnSamplesAndAFlattenedFilterExport() throws {
        // animate-glow: every filter kind Animate writes, nested and frame-level filters, a bevel.
        var exports = (LottieExportTests.samples + ["animate-glow"])
            .map { TestPaths.packageRoot.appendingPathComponent("Samples/\($0)") }
        exports += try TestPaths.corpus("animate_atlas").filter { $0.lastPathComponent == "openfl-fx-boule-filters-2018" }
        var filtered = 0
        for export in exports {
            let document = try Importer.importDocument(at: export)
            let library = try AtlasLibrary(document: document, folder: try Importer.detect(export).folder)
            for profile in LottieExportSettings.Profile.allCases {
                var options = ExportOptions()
                options.lottie.profile = profile
                let (result, reports) = try LottieExporter().exportWithReports(document, library: library,
                                                                              clips: document.clips, options: options)
                for clip in document.clips {
                    let report = try XCTUnwrap(reports[clip.name])
                    let listed = report.dropped.union(report.approximated)
                    let warnings = result.diagnostics.filter {
                        $0.severity == .warning && $0.message.hasPrefix("clip \"\(clip.name)\"")
                    }
                    for warning in warnings {
                        let node = try XCTUnwrap(warning.path, "\(warning)")
                        XCTAssertTrue(listed.contains { $0 == node || $0.hasPrefix(node + " (") },
                                      "\(export.lastPathComponent) \(clip.name): \(warning) not in the report \(listed)")
                    }
                    if report.bakedFilterPictures > 0 {
                        filtered += 1
                        XCTAssertNotNil(report.flattened, "\(export.lastPathComponent): expected the flattened form")
                    }
                    if warnings.contains(where: { $0.code == "lottie-filter-dropped" }) {
                        let drawn = ["blur", "glow", "dropShadow", "adjustColor"]
                        XCTAssertTrue(warnings.allSatisfy { warning in
                            warning.code != "lottie-filter-dropped"
                                || !drawn.contains { warning.message.contains("the \($0) filter") }
                        }, "\(warnings)")
                        if export.lastPathComponent == "openfl-fx-boule-filters-2018" {
                            XCTAssertNotNil(report.flattened, "\(export.lastPathComponent): expected the flattened form")
                        }
                        XCTAssertFalse(report.summary.contains("dropped: none"), report.summary)
                    }
                }
            }
        }
        XCTAssertGreaterThan(filtered, 0, "no clip baked a filter")
    }
}
