import Foundation
import KeyframeExport
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// Filters never reach a Lottie file (the specification defines no effects; docs/lottie.md), and the export says so:
/// each filter a clip shows is a warning naming its node and kind, the clip's report lists it as dropped, and
/// `--strict` fails. A report never shows "dropped: none" beside a warning.
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

    func testEveryFilterAClipShowsIsAWarningAndADroppedEntry() throws {
        let (document, library) = try filteredExport()
        XCTAssertEqual(document.clips.map(\.name), ["first", "second", "filtered"])
        // Frame 0 shows the glowing instance only; frame 1 also the adjusted one.
        let expected: [String: Set<String>] = [
            "first": ["glow", "blur"],
            "second": ["glow", "blur", "adjustColor"],
            "filtered": ["glow", "blur", "adjustColor"],
        ]
        for profile in LottieExportSettings.Profile.allCases {
            var options = ExportOptions()
            options.lottie.profile = profile
            let (result, reports) = try LottieExporter().exportWithReports(document, library: library,
                                                                          clips: document.clips, options: options)
            for clip in document.clips {
                let report = try XCTUnwrap(reports[clip.name])
                let kinds = Set(report.dropped.compactMap { entry -> String? in
                    guard let range = entry.range(of: #" \((\w+) filter\)$"#, options: .regularExpression) else { return nil }
                    return String(entry[range].dropFirst(2).dropLast(" filter)".count))
                })
                XCTAssertEqual(kinds, expected[clip.name], "\(profile) \(clip.name): \(report.dropped)")
                XCTAssertFalse(report.summary.contains("dropped: none"), report.summary)
                XCTAssertFalse(report.dropped.contains { $0.contains("plain") }, "\(report.dropped)")
                let warnings = result.diagnostics.filter {
                    $0.code == "lottie-filter-dropped" && $0.message.hasPrefix("clip \"\(clip.name)\"")
                }
                XCTAssertEqual(warnings.count, expected[clip.name]?.count, "\(profile) \(clip.name): \(warnings)")
                XCTAssertTrue(warnings.allSatisfy { $0.severity == .warning && $0.path != nil })
                // The file carries no effect.
                let file = try XCTUnwrap(result.clips.first { $0.clip == clip.name })
                XCTAssertFalse(String(decoding: file.main.bytes, as: UTF8.self).contains("\"ef\""))
            }
            XCTAssertThrowsError(try LottieExporter().exportWithReports(
                document, library: library, clips: document.clips,
                options: { var strict = options; strict.strict = true; return strict }())) { error in
                XCTAssertTrue("\(error)".contains("lottie-filter-dropped"), "\(error)")
            }
        }
    }

    /// The same for an Animate export from the corpus whose clip is written flattened (its glows sit on nested
    /// instances whose opacity changes), and the rule that holds for every report: each warning's node is listed
    /// among the approximated or the dropped, so no report says "none" beside a warning.
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
                    if warnings.contains(where: { $0.code == "lottie-filter-dropped" }) {
                        filtered += 1
                        if export.lastPathComponent == "openfl-fx-boule-filters-2018" {
                            XCTAssertNotNil(report.flattened, "\(export.lastPathComponent): expected the flattened form")
                        }
                        XCTAssertFalse(report.summary.contains("dropped: none"), report.summary)
                    }
                }
            }
        }
        XCTAssertGreaterThan(filtered, 0, "no flattened clip reported a filter")
    }
}
