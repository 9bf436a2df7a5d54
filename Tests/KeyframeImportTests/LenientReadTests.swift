import Foundation
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Values written in a type their format does not have (format.md §6.4): read as the runtimes read them, and
/// reported as a warning naming the file, the first value's path and the count, so `--strict` fails; what a format's
/// own tools write as text is not reported.
final class LenientReadTests: XCTestCase {
    /// The files of a sample export, relative path → bytes, with `edits` (file → [(find, replace)]) applied once each.
    private func sample(_ name: String, _ edits: [String: [(String, String)]] = [:]) throws -> [String: [UInt8]] {
        let folder = TestPaths.packageRoot.appendingPathComponent("Samples/\(name)")
        var files: [String: [UInt8]] = [:]
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: folder.path))
        while let file = enumerator.nextObject() as? String {
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path, isDirectory: &isFolder)
            if isFolder.boolValue { continue }
            var bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(file)))
            for (find, replace) in edits[file] ?? [] {
                let text = String(decoding: bytes, as: UTF8.self)
                let range = try XCTUnwrap(text.range(of: find), "\(find) in \(file)")
                bytes = Array(text.replacingCharacters(in: range, with: replace).utf8)
            }
            files[file] = bytes
        }
        return files
    }

    private func lenient(_ document: Document) -> [Diagnostic] {
        document.diagnostics.filter { ["number-as-string", "boolean-as-string", "boolean-as-number"].contains($0.code) }
    }

    func testAFlumpFrameRateWrittenAsAStringIsAWarningAndFailsStrict() throws {
        let files = try sample("flump-hopbot", ["library.json": [("\"frameRate\":24", "\"frameRate\":\"24\"")]])
        let document = try Importer.importDocument(files: files)
        XCTAssertEqual(document.frameRate.framesPerSecond, 24, "read as the runtimes read it")
        XCTAssertEqual(lenient(document), [Diagnostic(
            severity: .warning, code: "number-as-string",
            message: "a number written as a string was read leniently (\"24\" as 24)", file: "library.json",
            path: "frameRate")])
        XCTAssertThrowsError(try Importer.importDocument(files: files, options: ImportOptions(strict: true))) { error in
            guard case .strictDiagnostics(let diagnostics)? = (error as? ImportError)?.kind else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(diagnostics.map(\.code), ["number-as-string"])
        }
    }

    func testAnimateAndDragonBonesNumbersAndFlagsWrittenAsTextAreWarningsPerFile() throws {
        let animate = try Importer.importDocument(files: try sample("animate-walker", [
            "Animation.json": [("\"FRT\":24.0", "\"FRT\":\"24\"")],
        ]))
        XCTAssertEqual(lenient(animate).map { "\($0.code) \($0.file ?? "") \($0.path ?? "") \($0.count)" },
                       ["number-as-string Animation.json MD.FRT 1"])

        // Two kinds in the skeleton (an easing and a flag as text), one in the atlas: one warning per file and kind.
        let dragonBones = try Importer.importDocument(files: try sample("dragonbones-waver", [
            "waver_ske.json": [("\"tweenEasing\": 2", "\"tweenEasing\": \"2\""),
                               ("\"tweenEasing\": 2", "\"tweenEasing\": \"2\""),
                               ("\"duration\": 12", "\"duration\": true")],
            "waver_tex.json": [("\"x\": 26", "\"x\": \"26\"")],
        ]))
        XCTAssertEqual(lenient(dragonBones).map { "\($0.file ?? "") \($0.code) \($0.count)" }.sorted(),
                       ["waver_ske.json boolean-as-number 1", "waver_ske.json number-as-string 2",
                        "waver_tex.json number-as-string 1"])
        let easing = try XCTUnwrap(lenient(dragonBones).first { $0.code == "number-as-string" })
        XCTAssertEqual(easing.message, "a number written as a string was read leniently (\"2\" as 2)")
        XCTAssert(easing.path?.hasSuffix(".tweenEasing") == true, "\(easing.path ?? "")")
    }

    func testWhatTheFormatsThemselvesWriteAsTextIsNotReported() throws {
        // Animate's spritemap writes `"resolution": "1"`; DragonBones writes "NaN" for a hold and flags as 0/1.
        for name in ["animate-walker", "bta-spinner", "dragonbones-waver", "flump-hopbot"] {
            XCTAssertEqual(lenient(try Importer.importDocument(files: try sample(name))), [], name)
        }
        let dragonBones = try Importer.importDocument(files: try sample("dragonbones-waver", [
            "waver_ske.json": [("\"tweenEasing\": 2", "\"tweenEasing\": \"NaN\"")],
        ]))
        XCTAssertEqual(lenient(dragonBones), [])
    }
}
