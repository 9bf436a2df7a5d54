import Foundation
import KeyframeExport
import KeyframeImport
import KeyframeJSON
import KeyframeModel
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// `--container dotlottie`: one `.lottie` archive in the dotLottie 1.0 layout, read back by Python's `zipfile`
/// (an independent ZIP reader): every entry's CRC checks, the entries are `manifest.json`, `animations/<id>.json`
/// for each id the manifest lists and `images/<id>.png` for each picture an animation names, the animations are the
/// JSON export's files (pictures referred to under `/images/`), and the bytes are the same on every run.
final class DotLottieArchiveTests: XCTestCase {
    /// Reads an archive with Python's zipfile and prints, as JSON: the test result, the entries (name, method, size)
    /// and the content of every `.json` entry.
    static let reader = """
        import json, sys, zipfile
        z = zipfile.ZipFile(sys.argv[1])
        out = {"bad": z.testzip(), "entries": [[i.filename, i.compress_type, i.file_size] for i in z.infolist()],
               "json": {n: json.loads(z.read(n)) for n in z.namelist() if n.endswith(".json")}}
        print(json.dumps(out))
        """

    func archive(_ sample: String, singleFile: Bool = false) throws -> (bytes: [UInt8], document: Document) {
        let url = TestPaths.packageRoot.appendingPathComponent("Samples/\(sample)")
        let document = try Importer.importDocument(at: url)
        var options = ExportOptions()
        options.lottie = LottieExportSettings(images: .folder, singleFile: singleFile, container: .dotLottie)
        let result = try LottieExporter().export(document, assetsFolder: url, options: options)
        XCTAssertEqual(result.clips.count, 1)
        let file = try XCTUnwrap(result.clips.first)
        XCTAssertEqual(file.main.relativePath, "\(document.name).lottie")
        XCTAssertTrue(file.companions.isEmpty)
        return (file.main.bytes, document)
    }

    func read(_ bytes: [UInt8]) throws -> [String: Any] {
        let folder = try TestPaths.temporaryFolder("keyframe-dotlottie")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.lottie")
        try Data(bytes).write(to: path)
        let script = folder.appendingPathComponent("read.py")
        try Data(Self.reader.utf8).write(to: script)
        let (status, output) = try CommandRun.run(["python3", script.path, path.path])
        XCTAssertEqual(status, 0, output)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], output)
    }

    func testArchivesReadBackWithPythonsZipfile() throws {
        for (sample, single) in [("animate-walker", false), ("flump-hopbot", false), ("dragonbones-waver", true)] {
            let (bytes, document) = try archive(sample, singleFile: single)
            XCTAssertEqual(try archive(sample, singleFile: single).bytes, bytes, "\(sample): not deterministic")
            let zip = try read(bytes)
            XCTAssertTrue(zip["bad"] is NSNull, "\(sample): a damaged entry: \(String(describing: zip["bad"]))")
            let entries = try XCTUnwrap(zip["entries"] as? [[Any]]).map { $0[0] as? String ?? "" }
            let json = try XCTUnwrap(zip["json"] as? [String: Any])
            XCTAssertEqual(entries.first, "manifest.json")
            let manifest = try XCTUnwrap(json["manifest.json"] as? [String: Any])
            XCTAssertEqual(manifest["version"] as? String, "1")
            let ids = (manifest["animations"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            let expectedIDs = single ? [document.name]
                : document.clips.map { String(LottieExporter.fileName(for: $0.name).dropLast(".json".count)) }
            XCTAssertEqual(ids, expectedIDs, sample)
            XCTAssertEqual(manifest["activeAnimationId"] as? String, ids.first)
            let animations = entries.filter { $0.hasPrefix("animations/") }
            XCTAssertEqual(animations, ids.map { "animations/\($0).json" }, sample)
            var named: Set<String> = []
            for name in animations {
                let animation = try XCTUnwrap(json[name] as? [String: Any])
                for asset in animation["assets"] as? [[String: Any]] ?? [] where asset["layers"] == nil {
                    XCTAssertEqual(asset["u"] as? String, "/images/", "\(sample) \(name)")
                    XCTAssertEqual(asset["e"] as? Int, 0)
                    named.insert("images/" + (asset["p"] as? String ?? "?"))
                }
                if single { XCTAssertFalse((animation["markers"] as? [Any] ?? []).isEmpty, "\(sample): no markers") }
            }
            let pictures = entries.filter { $0.hasPrefix("images/") }
            XCTAssertEqual(Set(pictures), named, "\(sample): pictures named and pictures packed differ")
            XCTAssertEqual(pictures.count, named.count, "\(sample): a picture packed twice")
            XCTAssertEqual(entries.count, 1 + animations.count + pictures.count, "\(sample): \(entries)")
        }
    }

    /// The archive's animations are the JSON export's files, but for where they look for their pictures.
    func testAnimationsAreTheJSONExportsFiles() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("Samples/animate-walker")
        let document = try Importer.importDocument(at: url)
        var options = ExportOptions()
        options.lottie = LottieExportSettings(images: .folder)
        let plain = try LottieExporter().export(document, assetsFolder: url, options: options)
        let json = try XCTUnwrap(try read(try archive("animate-walker").bytes)["json"] as? [String: Any])
        for clip in plain.clips {
            let packed = try XCTUnwrap(json["animations/\(clip.main.relativePath)"])
            let text = String(decoding: clip.main.bytes, as: UTF8.self).replacingOccurrences(of: "\"u\":\"images/\"",
                                                                                         with: "\"u\":\"/images/\"")
            let original = try JSONSerialization.jsonObject(with: Data(text.utf8))
            XCTAssertEqual(try JSONSerialization.data(withJSONObject: packed, options: .sortedKeys),
                           try JSONSerialization.data(withJSONObject: original, options: .sortedKeys), clip.clip)
        }
    }
}
