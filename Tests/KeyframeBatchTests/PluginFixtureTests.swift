import Foundation
import KeyframeImport
import KeyframeJSON
import KeyframeTestSupport
import XCTest

/// The SwiftPM build-tool plugin for real: builds a working copy of `Tests/Fixtures/PluginApp` (which depends on this
/// package by path) with `swift build`, runs it, and edits it as a user would: an export's file, the configuration
/// (a new format, previews, `strict`), a removed export, two broken exports.
///
/// The copy lives at `Tests/Fixtures/PluginApp/.build/app` and builds into `.build/scratch` (both ignored by git), at
/// fixed paths so that the compiled Keyframe package is reused between runs: the first build compiles it (about 2–3
/// minutes from clean), later ones take seconds. Each test starts from a fresh copy of the fixture's sources.
final class PluginFixtureTests: XCTestCase {
    private let fixture = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/PluginApp")
    private var app: URL { fixture.appendingPathComponent(".build/app") }
    private var scratch: URL { fixture.appendingPathComponent(".build/scratch") }
    private var exports: URL { app.appendingPathComponent("Sources/PluginApp/Exports") }
    private var configuration: URL { app.appendingPathComponent("Sources/PluginApp/keyframe-assets.json") }
    /// The folder the plugin's outputs are bundled as.
    private var bundled: URL { scratch.appendingPathComponent("debug/PluginApp_PluginApp.resources/Keyframe") }
    private let sources = ["animate-walker": "animate-walker", "flump-hopbot": "characters/flump-hopbot"]

    override func setUpWithError() throws {
        // The working copy: the fixture's sources, and its manifest pointing at this checkout.
        try? FileManager.default.removeItem(at: app.appendingPathComponent("Sources"))
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixture.appendingPathComponent("Sources"), to: app.appendingPathComponent("Sources"))
        let manifest = try String(contentsOf: fixture.appendingPathComponent("Package.swift"), encoding: .utf8)
            .replacingOccurrences(of: "path: \"../../..\"", with: "path: \"\(TestPaths.packageRoot.path)\"")
        let manifestURL = app.appendingPathComponent("Package.swift")
        // Rewritten only when it changed, so SwiftPM does not reload it for nothing.
        if (try? String(contentsOf: manifestURL, encoding: .utf8)) != manifest {
            try Data(manifest.utf8).write(to: manifestURL)
        }
        forgetBuildPlans()
    }

    private func swift(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try CommandRun.run(["swift"] + arguments + ["--package-path", app.path, "--scratch-path", scratch.path])
    }

    /// The exports whose conversion ran in a build, from `keyframe batch`'s summary line (`slowest: a (0.1 s), …`).
    private func converted(_ output: String) -> [String] {
        output.split(separator: "\n").flatMap { line -> [String] in
            guard let range = line.range(of: "slowest: ") else { return [] }
            return line[range.upperBound...].components(separatedBy: "), ").compactMap {
                $0.split(separator: " ").first.map(String.init)
            }
        }.sorted()
    }

    /// Forgets the copy's cached build plans: SwiftPM does not notice files added to a path dependency (this
    /// package) and would build the `keyframe` tool from a stale file list. Compiled objects stay.
    private func forgetBuildPlans() {
        for triple in (try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? [] {
            let folder = scratch.appendingPathComponent(triple).appendingPathComponent("debug")
            for name in ["description.json", "plugin-tools-description.json"] {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
        }
    }

    private func writeConfiguration(_ text: String) throws {
        try Data(text.utf8).write(to: configuration)
    }

    /// What `keyframe export --to FORMAT -o DIR/` writes for the export `name` of the working copy.
    private func exported(_ name: String, _ format: String) throws -> [String: [UInt8]] {
        let direct = try TestPaths.temporaryFolder("keyframe-plugin-\(name)-\(format)")
        defer { try? FileManager.default.removeItem(at: direct) }
        let source = exports.appendingPathComponent(sources[name]!)
        let run = try BatchCLI.run(["export", source.path, "--to", format, "-o", direct.path + "/"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let files = BatchFixtures.snapshot(direct)
        XCTAssertFalse(files.isEmpty)
        return files
    }

    /// Runs the built app and checks what it read from `Bundle.module` against what Keyframe makes of the same
    /// exports: the importer's clips, and for each bundled player format exactly `keyframe export`'s files.
    private func checkApp(names: [String], kinds: [(format: String, suffix: String, key: String)],
                          file: StaticString = #filePath, line: UInt = #line) throws {
        let process = Process()
        process.executableURL = scratch.appendingPathComponent("debug/PluginApp")
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, file: file, line: line)
        var expected = ""
        for name in names.sorted() {
            let document = try Importer.importDocument(at: exports.appendingPathComponent(sources[name]!))
            expected += "\(name): " + document.clips.map(\.name).joined(separator: ", ") + "\n"
            let convert = try BatchCLI.run(["convert", exports.appendingPathComponent(sources[name]!).path])
            XCTAssertEqual(FileManager.default.contents(atPath: bundled.appendingPathComponent("\(name).json").path),
                           Data(convert.stdout.utf8), "\(name).json in the bundle against keyframe convert", file: file, line: line)
            for kind in kinds {
                let files = try exported(name, kind.format)
                BatchFixtures.assertSame(BatchFixtures.snapshot(bundled.appendingPathComponent("\(name).\(kind.suffix)")),
                                         files, "\(name).\(kind.suffix) in the bundle against keyframe export",
                                         file: file, line: line)
                var counts: [String] = []
                for entry in files.keys.filter({ !$0.contains("/") && $0.hasSuffix(".json") }).sorted() {
                    let root = try JSONParser.parse(try XCTUnwrap(files[entry]))
                    counts.append("\(entry) \((root["root"]?[kind.key] ?? root[kind.key])?.arrayValue?.count ?? -1)")
                }
                expected += "\(name).\(kind.suffix): " + counts.joined(separator: ", ") + "\n"
            }
        }
        XCTAssertEqual(printed, expected, file: file, line: line)
    }

    func testPluginBundlesExportsAndFollowsEditedInputsConfigurationAndRemovedExports() throws {
        let lottie = (format: "lottie", suffix: "lottie", key: "layers")
        let coreAnimation = (format: "core-animation", suffix: "ca", key: "sublayers")
        let first = try swift(["build"])
        XCTAssertEqual(first.status, 0, first.output)
        try checkApp(names: ["animate-walker", "flump-hopbot"], kinds: [lottie])
        XCTAssertNil(FileManager.default.contents(atPath: bundled.appendingPathComponent("animate-walker.ca/walker.json").path),
                     "core-animation is not in the configuration yet")
        // The bundle holds outputs only: the batch's manifest and caches live in the plugin's work folder.
        XCTAssert(BatchFixtures.snapshot(bundled).keys.allSatisfy { !$0.split(separator: "/").contains { $0.hasPrefix(".") } },
                  "\(BatchFixtures.snapshot(bundled).keys.sorted())")

        // Nothing changed: nothing is converted. In a fresh scratch folder SwiftPM 6.3 relinks the plugin's tool in
        // the second build and so reruns the command (see docs/asset-pipelines.md); one settling build first.
        let settle = try swift(["build"])
        XCTAssertEqual(settle.status, 0, settle.output)
        let idle = try swift(["build"])
        XCTAssertEqual(idle.status, 0, idle.output)
        XCTAssertEqual(converted(idle.output), [], idle.output)

        // One export's file changes: only that export is converted again.
        let library = exports.appendingPathComponent("characters/flump-hopbot/library.json")
        try Data((try String(contentsOf: library, encoding: .utf8) + "\n").utf8).write(to: library)
        let edited = try swift(["build"])
        XCTAssertEqual(edited.status, 0, edited.output)
        XCTAssertEqual(converted(edited.output), ["flump-hopbot"], edited.output)

        // The configuration changes (a new format, previews): the next build applies it, without touching Package.swift.
        try writeConfiguration(#"{"to": ["normalized", "lottie", "core-animation"], "previews": true}"#)
        let reconfigured = try swift(["build"])
        XCTAssertEqual(reconfigured.status, 0, reconfigured.output)
        XCTAssertEqual(converted(reconfigured.output), ["animate-walker", "flump-hopbot"], reconfigured.output)
        try checkApp(names: ["animate-walker", "flump-hopbot"], kinds: [lottie, coreAnimation])
        for name in ["animate-walker", "flump-hopbot"] {
            let preview = FileManager.default.contents(atPath: bundled.appendingPathComponent("preview/\(name).png").path)
            XCTAssertEqual(preview.map { Array($0.prefix(4)) }, [0x89, 0x50, 0x4E, 0x47], "Keyframe/preview/\(name).png")
        }

        // "strict": the walker's Core Animation export has a warning, so the build fails, naming the export.
        try writeConfiguration(#"{"to": ["normalized", "lottie", "core-animation"], "previews": true, "strict": true}"#)
        let strict = try swift(["build"])
        XCTAssertNotEqual(strict.status, 0, strict.output)
        let walker = exports.appendingPathComponent("animate-walker").path
        XCTAssert(strict.output.split(separator: "\n").contains {
            $0.hasPrefix("\(walker): error: core-animation: [ca-") && $0.hasSuffix("(--strict)")
        }, strict.output)

        // An export is removed (and strict dropped again): its resources leave the bundle, the other's stay.
        try writeConfiguration(#"{"to": ["normalized", "lottie", "core-animation"], "previews": true}"#)
        try FileManager.default.removeItem(at: exports.appendingPathComponent("characters"))
        let removed = try swift(["build"])
        XCTAssertEqual(removed.status, 0, removed.output)
        let left = BatchFixtures.snapshot(bundled).keys.sorted()
        XCTAssertFalse(left.contains { $0.contains("flump-hopbot") }, "\(left)")
        XCTAssert(left.contains("animate-walker.json") && left.contains("preview/animate-walker.png"), "\(left)")
        try checkApp(names: ["animate-walker"], kinds: [lottie, coreAnimation])
    }

    func testEveryBrokenExportIsReportedWhereAnEditorCanOpenIt() throws {
        // Two exports broken in two ways: malformed JSON, and a missing key.
        let animation = exports.appendingPathComponent("animate-walker/Animation.json")
        var text = try String(contentsOf: animation, encoding: .utf8)
        let broken = try XCTUnwrap(text.range(of: "\"walk\""))
        text.replaceSubrange(broken, with: "walk")
        try Data(text.utf8).write(to: animation)
        let library = exports.appendingPathComponent("characters/flump-hopbot/library.json")
        let libraryText = try String(contentsOf: library, encoding: .utf8)
            .replacingOccurrences(of: "{\"id\":\"robot\",\"layers\"", with: "{\"id\":\"robot\",\"layerz\"")
        try Data(libraryText.utf8).write(to: library)

        // Where each problem is, counted independently: the bare word, and the movie object missing its layers.
        func place(_ text: String, _ offset: String.Index) -> String {
            let before = text[..<offset]
            let line = before.filter { $0 == "\n" }.count + 1
            let column = before.distance(from: before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex,
                                         to: before.endIndex) + 1
            return "\(line):\(column)"
        }
        let wordAt = place(text, try XCTUnwrap(text.range(of: "walk,")).lowerBound)
        let movieAt = place(libraryText, try XCTUnwrap(libraryText.range(of: "{\"id\":\"robot\"")).lowerBound)

        // Build after build, both are reported in the form compilers use.
        for _ in 0..<2 {
            let build = try swift(["build"])
            XCTAssertNotEqual(build.status, 0, build.output)
            let lines = build.output.split(separator: "\n").map(String.init)
            let expected = ["\(animation.path):\(wordAt): error: invalid JSON: ",
                            "\(library.path):\(movieAt): error: at movies[0]: missing required key \"layers\""]
            for prefix in expected {
                XCTAssertEqual(lines.filter { $0.hasPrefix(prefix) }.count, 1, "\(prefix) in:\n\(build.output)")
            }
        }
    }
}
