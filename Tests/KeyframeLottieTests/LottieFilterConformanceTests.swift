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

/// Filtered clips (Animate glow, blur, drop shadow, adjust colour) carried into Lottie as baked pictures: rlottie,
/// ThorVG and lottie-web (svg, canvas, html) play the exports of the filtered corpus exports and the `animate-glow`
/// sample like the full `keyframe render` (filters drawn), by the players' own conformance criteria and recorded
/// bounds; and a control: the export with one node's filters left out fails the same comparison.
final class LottieFilterConformanceTests: XCTestCase {
    static let corpusNames = ["openfl-fx-boule-filters-2018", "flxanimate05-mom-bg-mask", "flxanimate05-week7-cutscene",
                              "openfl-astronaut-res0.5", "flxanimate-picoShoot-fnf", "libanimateatlas-sml-bta"]

    /// The filtered exports: the sample with every filter kind Animate writes, and the corpus's filtered exports.
    static func exports() throws -> [URL] {
        let corpus = try TestPaths.corpus("animate_atlas").filter { corpusNames.contains($0.lastPathComponent) }
        return [TestPaths.packageRoot.appendingPathComponent("Samples/animate-glow")] + corpus
    }

    /// Frames per export (first, middle and last; `KEYFRAME_LOTTIE_FILTER_FRAMES` spreads more).
    static let frameLimit = Int(ProcessInfo.processInfo.environment["KEYFRAME_LOTTIE_FILTER_FRAMES"] ?? "") ?? 3

    func testFilteredExportsPlayLikeTheFullRenderInRLottie() throws {
        let rlottie = RLottieConformanceTests(name: "rlottie", testClosure: { _ in })
        var lines: [String] = []
        for export in try Self.exports() {
            for profile in LottieExportSettings.Profile.allCases {
                let figures = try rlottie.conformance(of: export, profile: profile, frameLimit: Self.frameLimit)
                lines.append("\(profile.rawValue) " + figures.line)
                for failure in figures.failures { XCTFail(failure) }
            }
        }
        print("rlottie, filtered exports against the full render:\n" + lines.joined(separator: "\n"))
    }

    func testFilteredExportsPlayLikeTheFullRenderInThorVG() throws {
        let thorvg = ThorVGConformanceTests(name: "thorvg", testClosure: { _ in })
        var lines: [String] = []
        for export in try Self.exports() {
            for profile in LottieExportSettings.Profile.allCases {
                let figures = try thorvg.conformance(of: export, profile: profile, frameLimit: Self.frameLimit)
                lines.append(figures.line)
                for failure in figures.failures { XCTFail(failure) }
            }
        }
        if ThorVGConformanceTests.recording { try ThorVGConformanceTests.frameFigures.save() }
        print("ThorVG, filtered exports against the full render:\n" + lines.joined(separator: "\n"))
    }

    func testFilteredExportsPlayLikeTheFullRenderInLottieWeb() throws {
        let web = LottieWebConformanceTests(name: "lottie-web", testClosure: { _ in })
        let player = try LottieWebConformanceTests.player()
        defer { LottieWebConformanceTests.tearDown() }
        var lines: [String] = []
        for export in try Self.exports() {
            for profile in LottieExportSettings.Profile.allCases {
                for figures in try web.conformance(of: export, profile: profile, frameLimit: Self.frameLimit,
                                                   player: player) {
                    lines.append(figures.line)
                    if let reason = figures.unasserted, let first = figures.failures.first {
                        print("not asserted (\(reason)), \(figures.failures.count) frames: \(first)")
                    } else {
                        for failure in figures.failures { XCTFail(failure) }
                    }
                }
            }
        }
        if LottieWebConformanceTests.recording { try LottieWebConformanceTests.frameFigures.save() }
        print("lottie-web, filtered exports against the full render:\n" + lines.joined(separator: "\n"))
    }

    /// The filters are in the file as pictures, not warnings: no `lottie-filter-dropped` for a filter `render` draws,
    /// one info naming the pictures, and the report counts them.
    func testFilteredExportsCarryTheirFiltersAsPictures() throws {
        for export in try Self.exports() {
            let document = try Importer.importDocument(at: export)
            let library = try AtlasLibrary(document: document, folder: try Importer.detect(export).folder)
            let clip = try XCTUnwrap(document.clips.first)
            for profile in LottieExportSettings.Profile.allCases {
                var options = ExportOptions()
                options.lottie.profile = profile
                let (result, reports) = try LottieExporter().exportWithReports(document, library: library,
                                                                              clips: [clip], options: options)
                let report = try XCTUnwrap(reports[clip.name])
                let name = "\(export.lastPathComponent) (\(profile))"
                XCTAssertGreaterThan(report.bakedFilterPictures, 0, "\(name): \(report.summary)")
                XCTAssertTrue(result.diagnostics.contains { $0.code == "lottie-filter-baked" && $0.severity == .info },
                              name)
                let drawnKinds: Set<String> = ["blur", "glow", "dropShadow", "adjustColor"]
                for warning in result.diagnostics where warning.code == "lottie-filter-dropped" {
                    XCTAssertFalse(drawnKinds.contains { warning.message.contains("the \($0) filter") },
                                   "\(name): \(warning)")
                }
            }
        }
    }

    /// Baked pictures keep exports deterministic: the same bytes (files, pictures and names) for any number of jobs
    /// and on every run, in both formats.
    func testFilteredExportsAreTheSameBytesForAnyJobs() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("Samples/animate-glow")
        let document = try Importer.importDocument(at: url)
        let folder = try Importer.detect(url).folder
        for format in [ExportFormat.lottie, .coreAnimation] {
            let exporter = try XCTUnwrap(Exporters.exporter(for: format))
            var runs: [[String: [UInt8]]] = []
            for jobs in [1, 4, 1] {
                var options = ExportOptions()
                options.jobs = jobs
                options.pictures = .fast
                options.lottie.images = .folder
                var files: [String: [UInt8]] = [:]
                for clip in try exporter.export(document, assetsFolder: folder, options: options).clips {
                    files[clip.main.relativePath] = clip.main.bytes
                    for companion in clip.companions { files[companion.relativePath] = companion.bytes }
                }
                runs.append(files)
            }
            XCTAssertTrue(runs[0].keys.contains { $0.contains("filter") }, "\(format): \(runs[0].keys.sorted())")
            XCTAssertEqual(runs[0], runs[1], "\(format): jobs 1 and 4 differ")
            XCTAssertEqual(runs[0], runs[2], "\(format): two runs differ")
        }
    }

    /// The control: rlottie playing the export of a document with one filtered node's filters removed differs
    /// from the full render beyond the criterion the real export meets, for the sample and a corpus export.
    func testComparisonFailsWithOneFilterLeftOut() throws {
        let exports = try Self.exports().filter {
            ["animate-glow", "openfl-fx-boule-filters-2018"].contains($0.lastPathComponent)
        }
        XCTAssertEqual(exports.count, 2)
        for export in exports {
            let document = try Importer.importDocument(at: export)
            let library = try AtlasLibrary(document: document, folder: try Importer.detect(export).folder)
            let clip = try XCTUnwrap(document.clips.first)
            let sampler = PoseSampler(document: document)
            let pose = sampler.sample(clip: clip, time: Frames(0))
            // The filtered node whose filters change frame 0 most.
            let scene = RenderScene(document: document, library: library)
            let plans = try FramePlan.plans(for: clip, documentRate: document.frameRate,
                                            fps: document.frameRate.framesPerSecond, selection: .all)
            let (framing, _) = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: nil)
            var renderer = FrameRenderer()
            var full = Bitmap(width: 1, height: 1)
            renderer.render(pose, library: library, framing: framing, background: .transparent, into: &full)
            var best: (document: Document, path: String, mean: Double)? = nil
            for group in pose.filterGroups where group.parent == nil {
                guard let stripped = Self.removingFilters(of: group.path, from: document) else { continue }
                var plain = Bitmap(width: 1, height: 1)
                renderer.render(PoseSampler(document: stripped).sample(clip: clip, time: Frames(0)), library: library,
                                framing: framing, background: .transparent, into: &plain)
                let mean = FrameDifference(plain, full).worstMean
                if mean > best?.mean ?? -1 { best = (stripped, group.path, mean) }
            }
            let chosen = try XCTUnwrap(best, "\(export.lastPathComponent): no filtered node at frame 0")
            for (label, exported) in [("export", document), ("export without \(chosen.path)'s filters", chosen.document)] {
                var options = ExportOptions(clips: [clip.name])
                options.lottie = LottieExportSettings(profile: .portable, images: .embed)
                options.pictures = .fast
                let json = try XCTUnwrap(try LottieExporter().export(
                    exported, assetsFolder: try Importer.detect(export).folder, options: options).clips.first).main.bytes
                let player = try XCTUnwrap(RLottiePlayer(json: json, key: "\(export.lastPathComponent)/\(label)"))
                let difference = FrameDifference(player.render(frame: 0), full)
                let compensated = FrameDifference(player.render(frame: 0).undoingRLottieImageAlpha().boxBlurred(),
                                                  full.boxBlurred(), offBy: 32)
                let meets = difference.passes
                    || (compensated.worstMean <= RLottieConformanceTests.compensatedMeanLimit
                        && compensated.offShare <= RLottieConformanceTests.compensatedOffLimit)
                print(String(format: "filter control %@, %@: worst channel mean %.3f, %.2f %% off (compensated %.3f, %.2f %%)",
                             export.lastPathComponent, label, difference.worstMean, difference.offShare * 100,
                             compensated.worstMean, compensated.offShare * 100))
                if label == "export" {
                    XCTAssertTrue(meets, "\(export.lastPathComponent): the export itself misses the criterion")
                } else {
                    XCTAssertFalse(meets, "\(export.lastPathComponent): the \(label) still meets the criterion")
                }
            }
        }
    }

    /// `document` with the filters of the node at pose path `path` (`…/<composition>/<node>`) removed.
    static func removingFilters(of path: String, from document: Document) -> Document? {
        var copy = document
        for c in copy.compositions.indices {
            for n in copy.compositions[c].nodes.indices
            where path.hasSuffix("\(copy.compositions[c].id)/\(copy.compositions[c].nodes[n].id)")
                && copy.compositions[c].nodes[n].tracks.filters != nil
            {
                copy.compositions[c].nodes[n].tracks.filters = nil
                return copy
            }
        }
        return nil
    }
}
