import Foundation
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

// Real importer output must satisfy docs/keyframe.schema.json: every Animate export of ../shared/corpus and every
// bundled sample in Samples/ is converted and checked with Scripts/validate-schema.py (python3 + jsonschema).
// Skipped with a message when python3, jsonschema or ../shared is missing.

private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

final class CorpusSchemaTests: XCTestCase {
    func testAnimateCorpusOutputMatchesTheSchema() throws {
        let folders = try TestPaths.corpus("animate_atlas")
        XCTAssertFalse(folders.isEmpty, "../shared/corpus/animate_atlas holds no samples")
        try checkConverted(folders)
    }

    func testBundledSamplesMatchTheSchema() throws {
        let samples = packageRoot.appendingPathComponent("Samples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: samples.path)) ?? []
        let folders = names.sorted().map { samples.appendingPathComponent($0) }
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .filter { $0.lastPathComponent != "scripts" }  // animator scripts, not an export
        guard !folders.isEmpty else { throw XCTSkip("no bundled samples in Samples/") }
        try checkConverted(folders)
    }

    /// Converts every folder and validates all outputs in one run of the script.
    private func checkConverted(_ folders: [URL]) throws {
        let output = try TestPaths.temporaryFolder("keyframe-corpus-schema")
        defer { try? FileManager.default.removeItem(at: output) }
        var files: [String] = []
        for folder in folders {
            let document: Document
            do { document = try Importer.importDocument(at: folder) } catch {
                XCTFail("\(folder.lastPathComponent): import failed: \(error)")
                continue
            }
            let file = output.appendingPathComponent("\(folder.lastPathComponent).json")
            try Data(document.jsonBytes()).write(to: file)
            files.append(file.path)
        }
        guard !files.isEmpty else { return }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "Scripts/validate-schema.py"] + files
        process.currentDirectoryURL = packageRoot
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch {
            throw XCTSkip("cannot run /usr/bin/env python3 (\(error)); schema validation skipped")
        }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        switch process.terminationStatus {
        case 0:
            XCTAssertEqual(text.components(separatedBy: ": valid").count - 1, files.count, text)
        case 3:
            throw XCTSkip("python3 has no `jsonschema` package (python3 -m pip install jsonschema); schema validation skipped")
        case 126, 127:
            throw XCTSkip("python3 is not installed; schema validation skipped: \(text)")
        default:
            XCTFail("converted output does not match docs/keyframe.schema.json:\n\(text)")
        }
    }
}
