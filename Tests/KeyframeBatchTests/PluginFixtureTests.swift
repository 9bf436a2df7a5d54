import Foundation
import KeyframeImport
import KeyframeJSON
import KeyframeTestSupport
import XCTest

/// The SwiftPM build-tool plugin for real: builds `Tests/Fixtures/PluginApp` (which depends on this package by path)
/// with `swift build`, runs it, and checks that touching one export rebuilds only that export.
///
/// The first build compiles the whole Keyframe package again in the fixture's own scratch folder
/// (`Tests/Fixtures/PluginApp/.build`, ignored by git): about 2–3 minutes from clean, seconds afterwards.
final class PluginFixtureTests: XCTestCase {
    private let fixture = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/PluginApp")

    private func swift(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try CommandRun.run(["swift"] + arguments + ["--package-path", fixture.path,
                                                    "--scratch-path", fixture.appendingPathComponent(".build").path])
    }

    /// The exports whose conversion ran in a build's output.
    private func converted(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("slowest: ") else { return nil }
            return line.dropFirst("slowest: ".count).split(separator: " ").first.map(String.init)
        }.sorted()
    }

    /// Forgets the fixture's cached build plans: SwiftPM does not notice files added to a path dependency (this
    /// package) and would build the `keyframe` tool from a stale file list. Compiled objects stay.
    private func forgetBuildPlans() {
        let scratch = fixture.appendingPathComponent(".build")
        for triple in (try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? [] {
            let folder = scratch.appendingPathComponent(triple).appendingPathComponent("debug")
            for name in ["description.json", "plugin-tools-description.json"] {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
        }
    }

    func testPluginBundlesConvertedExportsAndRebuildsOnlyTheTouchedOne() throws {
        forgetBuildPlans()
        let first = try swift(["build"])
        XCTAssertEqual(first.status, 0, first.output)
        let binary = fixture.appendingPathComponent(".build/debug/PluginApp")
        let process = Process()
        process.executableURL = binary
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        // What the app read from Bundle.module must be what Keyframe makes of the same exports: the importer's clips,
        // and for each player format exactly the files `keyframe export --to FORMAT -o DIR/` writes.
        let resources = fixture.appendingPathComponent(".build/debug/PluginApp_PluginApp.resources")
        var expected = ""
        for (name, path) in [("animate-walker", "animate-walker"), ("flump-hopbot", "characters/flump-hopbot")] {
            let source = fixture.appendingPathComponent("Sources/PluginApp/Exports").appendingPathComponent(path)
            let document = try Importer.importDocument(at: source)
            expected += "\(name): " + document.clips.map(\.name).joined(separator: ", ") + "\n"
            for (format, kind, key) in [("lottie", "lottie", "layers"), ("core-animation", "ca", "sublayers")] {
                let direct = FileManager.default.temporaryDirectory
                    .appendingPathComponent("keyframe-plugin-\(ProcessInfo.processInfo.processIdentifier)-\(name).\(kind)")
                defer { try? FileManager.default.removeItem(at: direct) }
                let exported = try BatchCLI.run(["export", source.path, "--to", format, "-o", direct.path + "/"])
                XCTAssertEqual(exported.status, 0, exported.stderr)
                let files = BatchFixtures.snapshot(direct)
                XCTAssertFalse(files.isEmpty)
                BatchFixtures.assertSame(BatchFixtures.snapshot(resources.appendingPathComponent("\(name).\(kind)")), files,
                                         "\(name).\(kind) in the bundle against keyframe export")
                var counts: [String] = []
                for file in files.keys.filter({ !$0.contains("/") && $0.hasSuffix(".json") }).sorted() {
                    let root = try JSONParser.parse(try XCTUnwrap(files[file]))
                    counts.append("\(file) \((root["root"]?[key] ?? root[key])?.arrayValue?.count ?? -1)")
                }
                expected += "\(name).\(kind): " + counts.joined(separator: ", ") + "\n"
            }
        }
        XCTAssertEqual(printed, expected)

        // In a fresh scratch folder the second build runs every conversion once more; from the third build on it is
        // stable. That is SwiftPM's doing, not this plugin's: SwiftPM 6.3 builds a plugin's tool twice in every
        // `swift build`, once for the plugin ("plugin tools", its own build database) and once in the main build
        // (another database), into the same files (`.build/<triple>/debug/*-tool.build`, `keyframe-tool`). After a
        // fresh first build each database finds files the other rewrote, so the second build recompiles the tool's C
        // target, re-wraps its modules and relinks `keyframe-tool` in both passes, and every build command, whose
        // input the tool is, runs again. A package with nothing of Keyframe in it (one executable tool, one
        // build-tool plugin writing one file; with or without a C target) does exactly the same: its command runs in builds 1 and 2, not 3
        // (`swift build -v`, 2026-11-23). So: one settling build, then check incrementality.
        let settle = try swift(["build"])
        XCTAssertEqual(settle.status, 0, settle.output)

        // Nothing changed: no conversion runs.
        let idle = try swift(["build"])
        XCTAssertEqual(idle.status, 0, idle.output)
        XCTAssertEqual(converted(idle.output), [], idle.output)

        // Touch one input: only its export is converted again.
        let input = fixture.appendingPathComponent("Sources/PluginApp/Exports/characters/flump-hopbot/library.json")
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: input.path)
        let touched = try swift(["build"])
        XCTAssertEqual(touched.status, 0, touched.output)
        XCTAssertEqual(converted(touched.output), ["flump-hopbot"], touched.output)
    }
}
