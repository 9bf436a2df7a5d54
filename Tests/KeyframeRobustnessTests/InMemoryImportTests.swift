import Foundation
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// `Importer.importDocument(files:)` — the in-memory entry point the fuzzers use — reads exactly what the folder
/// entry point reads, and a `.dbbin` skeleton alone with its atlas is recognised as a DragonBones export.
final class InMemoryImportTests: XCTestCase {
    /// Every file under `folder`, keyed by its path relative to it.
    func files(in folder: URL) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: folder.path))
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let url = folder.appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[relative] = [UInt8](try Data(contentsOf: url))
            }
        }
        return files
    }

    func testEverySampleImportsTheSameFromMemoryAsFromItsFolder() throws {
        let samples = TestPaths.packageRoot.appendingPathComponent("Samples")
        let names = try FileManager.default.contentsOfDirectory(atPath: samples.path).sorted().filter { $0.contains("-") }
        XCTAssertGreaterThanOrEqual(names.count, 5)
        for name in names {
            let folder = samples.appendingPathComponent(name)
            let fromDisk = try Importer.importDocument(at: folder)
            var fromMemory = try Importer.importDocument(files: try files(in: folder), name: name)
            XCTAssertEqual(fromMemory.source.files, fromDisk.source.files, name)
            fromMemory.source = fromDisk.source
            XCTAssertEqual(String(decoding: fromMemory.jsonBytes(), as: UTF8.self),
                           String(decoding: fromDisk.jsonBytes(), as: UTF8.self), name)
        }
    }

    func testInMemoryErrorsNameTheFile() throws {
        let bad = Array(#"{"AN":{"N":"x","SN":"x","TL":{"L":[}}"#.utf8)
        XCTAssertThrowsError(try Importer.importDocument(files: ["Animation.json": bad], name: "mem")) { error in
            XCTAssertTrue("\(error)".hasPrefix("Animation.json:1:36: "), "\(error)")
        }
        XCTAssertThrowsError(try Importer.importDocument(files: ["a.json": bad], main: "b.json", name: "mem")) { error in
            XCTAssertTrue("\(error)".hasPrefix("b.json: file not found"), "\(error)")
        }
        XCTAssertThrowsError(try Importer.importDocument(files: ["notes.txt": []], name: "mem")) { error in
            XCTAssertTrue("\(error)".contains("a .json or .dbjson file with an armature list, or a .dbbin"), "\(error)")
        }
    }

    /// A folder holding only `*_ske.dbbin` and its atlas (no JSON skeleton): found, and converted like the file.
    func testAFolderWithOnlyABinarySkeletonIsDetected() throws {
        guard let export = try TestPaths.corpus("dragonbones").first(where: { $0.lastPathComponent.contains("dbbin") }) else {
            throw XCTSkip("no .dbbin export in ../shared/corpus/dragonbones")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: export.path)
        let dbbin = try XCTUnwrap(names.first { $0.hasSuffix(".dbbin") })
        let stem = String(dbbin.dropLast("_ske.dbbin".count))
        let folder = try TestPaths.temporaryFolder("dbbin-only")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in names where name == dbbin || name.hasPrefix(stem + "_tex") {
            try FileManager.default.copyItem(at: export.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: folder.path).contains { $0.hasSuffix("_ske.json") })

        let detected = try Importer.detect(folder)
        XCTAssertEqual(detected.format, .dragonBones)
        XCTAssertEqual(detected.file, dbbin)
        let fromFolder = try Importer.importDocument(at: folder)
        let fromFile = try Importer.importDocument(at: folder.appendingPathComponent(dbbin))
        XCTAssertFalse(fromFolder.clips.isEmpty)
        XCTAssertEqual(fromFolder.jsonBytes(), fromFile.jsonBytes())

        // In memory too, without naming the main file.
        let memory = try Importer.importDocument(files: try files(in: folder), name: folder.lastPathComponent)
        XCTAssertEqual(memory.clips.map(\.name), fromFolder.clips.map(\.name))
    }
}
