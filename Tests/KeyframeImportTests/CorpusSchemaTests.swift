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
        var documents: [String: [UInt8]] = [:]
        for folder in folders {
            do { documents[folder.lastPathComponent] = try Importer.importDocument(at: folder).jsonBytes() } catch {
                XCTFail("\(folder.lastPathComponent): import failed: \(error)")
            }
        }
        try SchemaValidator.assertValid(documents, "converted output")
    }
}
