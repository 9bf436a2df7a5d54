import Foundation
import KeyframeBenchmarks
import KeyframeExport
import KeyframeImport
import KeyframeTestSupport
import XCTest

/// Runs each benchmark at a tiny size: the code that `keyframe bench` runs must do its work and report it.
///
/// Nothing here measures speed (timings are not asserted, and a debug build says nothing about them); the benchmarks
/// themselves run through `keyframe bench` in a release build (docs/performance.md).
final class BenchmarkSmokeTests: XCTestCase {
    private let sample = TestPaths.packageRoot.appendingPathComponent("Samples/bta-spinner")

    func testEngineBenchmarkRunsAtTinySize() {
        let report = EngineBenchmark.run(animators: 20, ticks: 5, repetitions: 2)
        XCTAssertEqual(report.animators, 20)
        XCTAssertEqual(report.ticks, 5)
        XCTAssertEqual(report.repetitions, 2)
        XCTAssertGreaterThan(report.cubicAnimatorTick.value, 0)
        XCTAssertGreaterThan(report.plainInterpolationTick.value, 0)
        XCTAssertGreaterThan(report.cubicAnimatorTickCPU.value, 0)
        XCTAssertTrue(report.checksum.isFinite)
        XCTAssertGreaterThan(report.checksum, 0)
        XCTAssertTrue(report.description.contains("cubic / plain lerp"))
        XCTAssertTrue(report.description.contains("fastest of 2 runs"))
    }

    func testRasterBenchmarkRunsAtTinySize() {
        let report = RasterBenchmark.run(
            RasterBenchmark.Configuration(frameSize: 96, spriteCount: 4, spriteSizes: 16...32, frames: 1))
        XCTAssertGreaterThan(report.millisecondsPerFrame, 0)
        XCTAssertFalse(report.description.isEmpty)
    }

    func testPNGBenchmarkRunsAtTinySize() throws {
        let scene = RasterBenchmark.Configuration(frameSize: 96, spriteCount: 4, spriteSizes: 16...32, frames: 1)
        let report = try PNGBenchmark.run(PNGBenchmark.Configuration(scene: scene, frames: 1))
        XCTAssertGreaterThan(report.bytesPerFrame, 0)
        XCTAssertGreaterThan(report.encodeMillisecondsPerFrame, 0)
    }

    /// Both exporters; the Lottie export cuts pictures, so its floor has some, and the report names the export.
    func testExportBenchmarkRunsOnASample() throws {
        for format in [ExportFormat.lottie, .coreAnimation] {
            var configuration = ExportBenchmark.Configuration(format: format)
            configuration.repetitions = 1
            configuration.options.jobs = 1
            let results = try ExportBenchmark.run(folders: [sample], configuration: configuration)
            let result = try XCTUnwrap(results.first)
            XCTAssertGreaterThan(result.clips, 0)
            XCTAssertGreaterThan(result.outputBytes, 0)
            XCTAssertGreaterThan(result.export.wall, 0)
            XCTAssertGreaterThan(result.convert.wall, 0)
            XCTAssertGreaterThan(result.poseSamplingCPU, 0)
            if format == .lottie { XCTAssertGreaterThan(result.pictures, 0) }
            let report = ExportBenchmark.report(results, configuration: configuration)
            XCTAssertTrue(report.contains("bta-spinner") && report.contains("total"), report)
        }
    }

    /// `--meshes`: the waver (one mesh) is exported again without it, which writes fewer bytes; the spinner (none) has
    /// no such figures, and the report's mesh table names only the waver.
    func testExportBenchmarkComparesMeshesWithTheirAbsence() throws {
        let waver = TestPaths.packageRoot.appendingPathComponent("Samples/dragonbones-waver")
        var configuration = ExportBenchmark.Configuration(format: .lottie)
        configuration.repetitions = 1
        configuration.comparesMeshes = true
        let results = try ExportBenchmark.run(folders: [waver, sample], configuration: configuration)
        let meshFree = try XCTUnwrap(results.first?.withoutMeshes)
        XCTAssertEqual(meshFree.meshes, 1)
        XCTAssertLessThan(meshFree.mainBytes, meshFree.mainBytesWithMeshes)
        XCTAssertNil(results.last?.withoutMeshes)
        // The baked alternative: the flag drawn at each frame it shows, fewer distinct pictures than frames at most.
        let baked = meshFree.baked
        XCTAssertGreaterThan(baked.meshItems, 0)
        XCTAssertGreaterThan(baked.pictures, 0)
        XCTAssertLessThanOrEqual(baked.pictures, baked.meshItems)
        XCTAssertGreaterThan(baked.pictureBytes, baked.pictures * 57, "each picture is at least a PNG's fixed chunks")
        let report = ExportBenchmark.report(results, configuration: configuration)
        let table = try XCTUnwrap(report.components(separatedBy: "meshes: ").last)
        XCTAssertTrue(table.contains("dragonbones-waver") && !table.contains("bta-spinner"), report)
        XCTAssertTrue(report.contains("meshes baked instead"), report)
    }

    func testExportBenchmarkNamesAnUnreadableInput() {
        let missing = URL(fileURLWithPath: "/nonexistent/export")
        XCTAssertThrowsError(try ExportBenchmark.run(folders: [missing],
                                                     configuration: ExportBenchmark.Configuration(format: .lottie))) {
            XCTAssertTrue("\($0)".contains("/nonexistent/export"), "\($0)")
        }
    }

    func testBatchBenchmarkRunsOnASample() throws {
        var configuration = BatchBenchmark.Configuration(roots: [sample], toolVersion: "smoke")
        configuration.repetitions = 1
        let report = try BatchBenchmark.run(configuration)
        XCTAssertEqual(report.exports, 1)
        XCTAssertEqual(report.failed, 0)
        XCTAssertGreaterThan(report.bareLoop.wall, 0)
        XCTAssertGreaterThan(report.oneJob.processCPU, 0)
        XCTAssertTrue(report.description.contains("overhead over baseline"))
    }

    func testPreviewBenchmarkRunsOnASample() throws {
        var configuration = PreviewBenchmark.Configuration(input: sample)
        configuration.frames = 2
        configuration.size = 32
        configuration.repetitions = 1
        let report = try PreviewBenchmark.run(configuration)
        XCTAssertGreaterThan(report.pageBytes, 0)
        XCTAssertGreaterThan(report.render.wall, 0)
        XCTAssertTrue(report.description.contains("preview / render"))
    }

    /// Without node only the Swift side is measured; each format gets its own table.
    func testConversionBenchmarkRunsOnSamplesWithoutNode() throws {
        var configuration = ConversionBenchmark.Configuration()
        configuration.repetitions = 1
        configuration.node = false
        let folders = [sample, TestPaths.packageRoot.appendingPathComponent("Samples/dragonbones-waver")]
        let results = try ConversionBenchmark.run(folders: folders, configuration: configuration)
        XCTAssertEqual(results.map(\.format), [.animateAtlas, .dragonBones])
        for result in results {
            XCTAssertGreaterThan(result.inputBytes, 0)
            XCTAssertGreaterThan(result.outputBytes, 0)
            XCTAssertGreaterThan(result.parse.wall, 0)
            XCTAssertGreaterThan(result.convert.wall, 0)
            XCTAssertNil(result.nodeParse)
            XCTAssertNil(result.runtimeParse)
        }
        let report = ConversionBenchmark.report(results)
        XCTAssertTrue(report.contains("bta-spinner") && report.contains("dragonbones-waver"), report)
        XCTAssertTrue(report.contains("goal ≤ 2× DragonBonesJS"), report)
    }

    /// A runtime that is not there is named in the report instead of failing the benchmark (node itself times the
    /// JSON.parse baseline when it is installed).
    func testConversionBenchmarkNamesAMissingRuntime() throws {
        var configuration = ConversionBenchmark.Configuration()
        configuration.repetitions = 1
        configuration.dragonBonesRuntime = "/nonexistent/dragonBones.js"
        let waver = TestPaths.packageRoot.appendingPathComponent("Samples/dragonbones-waver")
        let result = try XCTUnwrap(ConversionBenchmark.run(folders: [waver], configuration: configuration).first)
        XCTAssertNil(result.runtimeParse)
        XCTAssertNotNil(result.runtimeNote)
    }

    func testConversionBenchmarkNamesAnUnreadableInput() {
        XCTAssertThrowsError(try ConversionBenchmark.run(folders: [URL(fileURLWithPath: "/nonexistent/export")],
                                                         configuration: ConversionBenchmark.Configuration())) {
            XCTAssertTrue("\($0)".contains("/nonexistent/export"), "\($0)")
        }
    }

    func testBenchmarkInputsListFoldersOnly() throws {
        let folder = try TestPaths.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("b"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("a"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: folder.appendingPathComponent("README.md"))
        XCTAssertEqual(try BenchmarkInputs.folders([], defaultFolder: folder.path).map(\.lastPathComponent), ["a", "b"])
        XCTAssertEqual(try BenchmarkInputs.folders(["x/y"], defaultFolder: folder.path).map(\.path).last?.hasSuffix("x/y"),
                       true)
        XCTAssertThrowsError(try BenchmarkInputs.folders([], defaultFolder: folder.path + "/none"))
    }
}
