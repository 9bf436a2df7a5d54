import Foundation
import KeyframeFiles
import KeyframeImport
import KeyframeModel
import KeyframeRender
import KeyframeTestSupport
import XCTest

/// Checking a path and reading the file are one step (trust trial, class 1): a link in an export swapped between a
/// file inside and a file outside while it is read never yields the outside file's bytes. Before, the path was
/// checked (`realpath`) and then opened again by name, so a swap in between read the outside file (5 of 500
/// `keyframe export` runs copied it into `OUT/images/`).
final class LinkSwapRaceTests: XCTestCase {
    var work: URL!
    var export: URL { work.appendingPathComponent("export") }
    /// A PNG outside the export whose bytes must never be returned.
    var secret: URL { work.appendingPathComponent("secret/evil.png") }

    override func setUpWithError() throws {
        work = try TestPaths.temporaryFolder("link-swap")
        let samples = TestPaths.packageRoot.appendingPathComponent("Samples")
        try FileManager.default.copyItem(at: samples.appendingPathComponent("animate-walker"), to: export)
        try FileManager.default.createDirectory(at: secret.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: samples.appendingPathComponent("flump-hopbot/atlas0.png"), to: secret)
        // The real atlas stays inside under another name; spritemap1.png becomes the link that is swapped.
        try FileManager.default.moveItem(at: export.appendingPathComponent("spritemap1.png"),
                                         to: export.appendingPathComponent("inside.png"))
        try FileManager.default.createSymbolicLink(atPath: export.appendingPathComponent("spritemap1.png").path,
                                                   withDestinationPath: "inside.png")
    }

    override func tearDownWithError() throws {
        if let work { try? FileManager.default.removeItem(at: work) }
    }

    /// Replaces `link` (atomically, by `rename`) with a link to `inside` and to `outside` in turn until `stop` is set;
    /// returns once the first swaps are done, so every read races with it.
    func swapping(_ link: String, inside: String, outside: String, until stop: ManagedAtomicFlag) -> Thread {
        let started = ManagedAtomicFlag()
        let thread = Thread {
            var count = 0
            while !stop.isSet {
                if count == 16 { started.set() }
                let fresh = link + ".swap"
                unlink(fresh)
                symlink(count % 2 == 0 ? outside : inside, fresh)
                rename(fresh, link)
                count += 1
            }
            unlink(link)
            symlink(inside, link)
        }
        thread.start()
        while !started.isSet { usleep(100) }
        return thread
    }

    func finish(_ thread: Thread, _ stop: ManagedAtomicFlag) {
        stop.set()
        while !thread.isFinished { usleep(1000) }
    }

    /// 2,000 reads of the atlas image through `AtlasLibrary.imageBytes` — what rendering and both exporters read —
    /// while the link flips: every read is the inside file or a refusal naming the link, never the secret.
    func testAnAtlasImageLinkSwappedInAndOutNeverYieldsTheOutsideBytes() throws {
        let document = try Importer.importDocument(at: export, options: ImportOptions(allowMissingImages: true))
        let image = try XCTUnwrap(document.assets.images.first)
        let insideBytes = try Data(contentsOf: export.appendingPathComponent("inside.png"))
        let secretBytes = try Data(contentsOf: secret)
        let folder = InputFolder(export.path)
        let stop = ManagedAtomicFlag()
        let thread = swapping(export.appendingPathComponent("spritemap1.png").path, inside: "inside.png",
                              outside: secret.path, until: stop)
        var outcomes = (inside: 0, refused: 0, leaked: 0)
        for _ in 0..<2_000 {
            do {
                let read = try AtlasLibrary.imageBytes(image, index: 0, in: folder)
                if Data(read.bytes) == secretBytes { outcomes.leaked += 1 }
                XCTAssertEqual(Data(read.bytes), insideBytes)
                outcomes.inside += 1
            } catch {
                outcomes.refused += 1
                let text = "\(error)"
                XCTAssertTrue(text.contains("leads outside") || text.contains("not found")
                              || text.contains("No such file"), text)
            }
        }
        finish(thread, stop)
        print("LinkSwapRaceTests: atlas image: \(outcomes.inside) inside, \(outcomes.refused) refused, "
              + "\(outcomes.leaked) outside")
        XCTAssertEqual(outcomes.leaked, 0)
        XCTAssertEqual(outcomes.inside + outcomes.refused, 2_000)
    }

    /// 200 imports while the spritemap JSON's link flips between the export's own file and an outside one that
    /// names a different tool: no document carries the outside file's content.
    func testAnImportNeverReadsAnOutsideFileWhileLinksSwap() throws {
        let spritemap = export.appendingPathComponent("spritemap1.json")
        try FileManager.default.moveItem(at: spritemap, to: export.appendingPathComponent("inside.json"))
        var object = try XCTUnwrap(JSONSerialization.jsonObject(
            with: Data(contentsOf: export.appendingPathComponent("inside.json")).drop { $0 == 0xEF || $0 == 0xBB || $0 == 0xBF })
            as? [String: Any])
        var meta = try XCTUnwrap(object["meta"] as? [String: Any])
        meta["app"] = "OUTSIDE-SECRET"
        meta["image"] = "inside.png"
        object["meta"] = meta
        let outside = work.appendingPathComponent("secret/spritemap1.json")
        try JSONSerialization.data(withJSONObject: object).write(to: outside)
        try FileManager.default.createSymbolicLink(atPath: spritemap.path, withDestinationPath: "inside.json")
        let stop = ManagedAtomicFlag()
        let thread = swapping(spritemap.path, inside: "inside.json", outside: outside.path, until: stop)
        var outcomes = (inside: 0, refused: 0, leaked: 0)
        for _ in 0..<200 {
            do {
                let document = try Importer.importDocument(at: export, options: ImportOptions(allowMissingImages: true))
                if document.source.tool?.contains("OUTSIDE-SECRET") == true { outcomes.leaked += 1 } else {
                    outcomes.inside += 1
                }
            } catch {
                outcomes.refused += 1
            }
        }
        finish(thread, stop)
        print("LinkSwapRaceTests: import: \(outcomes.inside) inside, \(outcomes.refused) refused, "
              + "\(outcomes.leaked) outside")
        XCTAssertEqual(outcomes.leaked, 0)
    }

    /// The opened file decides, not the path: a file opened inside and a link that now points out are told apart.
    func testTheOpenedFileIsCheckedNotThePath() throws {
        let folder = InputFolder(export.path)
        XCTAssertEqual(try folder.read("inside.png"), [UInt8](try Data(contentsOf: export.appendingPathComponent("inside.png"))))
        unlink(export.appendingPathComponent("spritemap1.png").path)
        symlink(secret.path, export.appendingPathComponent("spritemap1.png").path)
        XCTAssertThrowsError(try folder.read("spritemap1.png")) { error in
            guard case .outside(let path)? = error as? InputReadFailure else { return XCTFail("\(error)") }
            XCTAssertEqual(path.reason, .linksOutside(secret.resolvingSymlinksInPath().path))
        }
    }
}
