import Foundation
import KeyframeExport
import KeyframeImport
import KeyframeModel
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// Lottie files carry no Flash filters: the export says so for every filtered node the clip shows, and its report
/// does not claim those nodes exact.
final class LottieFilterReportTests: XCTestCase {
    func testEveryFilteredNodeIsReportedAndCountedApproximated() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("Samples/animate-glow")
        let document = try Importer.importDocument(at: url)
        let library = try AtlasLibrary(document: document, folder: try Importer.detect(url).folder)
        let clip = try XCTUnwrap(document.clips.first)
        let (result, reports) = try LottieExporter().exportWithReports(document, library: library, clips: [clip],
                                                                      options: ExportOptions())
        // The filtered nodes, counted straight from the document: every node with a filters track (the sample's
        // compositions are all reachable from its clip).
        var filtered: Set<String> = []
        for composition in document.compositions {
            for node in composition.nodes where node.tracks.filters != nil { filtered.insert("\(composition.id)/\(node.id)") }
        }
        XCTAssertEqual(filtered.count, 11, "ten layers and the badge's lamp")
        let warnings = result.diagnostics.filter { $0.code == "lottie-filter-dropped" }
        XCTAssertEqual(Set(warnings.compactMap(\.path)), filtered)
        XCTAssertTrue(warnings.allSatisfy { $0.severity == .warning && $0.message.hasPrefix("clip \"\(clip.name)\": ") })
        let bevel = try XCTUnwrap(warnings.first { $0.message.contains("(bevel)") })
        XCTAssertTrue(bevel.message.contains("is drawn without them"), bevel.message)
        let report = try XCTUnwrap(reports[clip.name])
        XCTAssertTrue(filtered.isSubset(of: report.approximated))
        XCTAssertTrue(report.summary.contains("glow/6:flower/0"), report.summary)

        // A document without filters gets no such warning.
        let walker = TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker")
        let plain = try Importer.importDocument(at: walker)
        let plainResult = try LottieExporter().exportWithReports(
            plain, library: try AtlasLibrary(document: plain, folder: walker), clips: [plain.clips[0]],
            options: ExportOptions()).result
        XCTAssertFalse(plainResult.diagnostics.contains { $0.code == "lottie-filter-dropped" })
    }
}
