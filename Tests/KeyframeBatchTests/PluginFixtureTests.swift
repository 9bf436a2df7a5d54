import Foundation
import KeyframeImport
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift"] + arguments + ["--package-path", fixture.path,
                                                     "--scratch-path", fixture.appendingPathComponent(".build").path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
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
        // What the app read from Bundle.module must be what Keyframe's importer makes of the same exports.
        var expected = ""
        for (name, path) in [("animate-walker", "animate-walker"), ("flump-hopbot", "characters/flump-hopbot")] {
            let document = try Importer.importDocument(
                at: fixture.appendingPathComponent("Sources/PluginApp/Exports").appendingPathComponent(path))
            expected += "\(name): " + document.clips.map(\.name).joined(separator: ", ") + "\n"
        }
        XCTAssertEqual(printed, expected)

        // In a fresh scratch folder the build after the first relinks the `keyframe` tool once more and so runs
        // every build command again; from the third build on it is stable (seen on the batch branch alone too; the
        // cause — SwiftPM's tool-build signatures or something in this package — is not pinned down yet). Settle
        // that one rerun, then check incrementality.
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
