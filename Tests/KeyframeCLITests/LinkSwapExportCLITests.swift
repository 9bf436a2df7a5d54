import Foundation
import KeyframeTestSupport
import XCTest

/// The trial's own case of class 1, end to end: `keyframe export --to core-animation` while a thread swaps the atlas
/// image's link between a file inside the export and one outside. Every run exports the inside picture or refuses
/// the link; no run copies the outside file into `OUT/images/`. (The library-level race, 2,000 reads, is
/// `LinkSwapRaceTests`.)
final class LinkSwapExportCLITests: XCTestCase {
    func testExportWhileTheAtlasLinkIsSwappedNeverCopiesTheOutsideFile() throws {
        let work = try TestPaths.temporaryFolder("link-swap-export")
        defer { try? FileManager.default.removeItem(at: work) }
        let samples = TestPaths.packageRoot.appendingPathComponent("Samples")
        let export = work.appendingPathComponent("walker")
        try FileManager.default.copyItem(at: samples.appendingPathComponent("animate-walker"), to: export)
        let secret = work.appendingPathComponent("secret.png")
        try FileManager.default.copyItem(at: samples.appendingPathComponent("flump-hopbot/atlas0.png"), to: secret)
        let secretBytes = try Data(contentsOf: secret)
        let link = export.appendingPathComponent("spritemap1.png").path
        try FileManager.default.moveItem(atPath: link, toPath: export.appendingPathComponent("inside.png").path)
        XCTAssertEqual(symlink("inside.png", link), 0)

        let stop = SwapFlag(), started = SwapFlag()
        let swapper = Thread {
            var count = 0
            while !stop.isSet {
                let fresh = link + ".swap"
                unlink(fresh)
                symlink(count % 2 == 0 ? secret.path : "inside.png", fresh)
                rename(fresh, link)
                count += 1
                if count == 16 { started.set() }
            }
        }
        swapper.start()
        while !started.isSet { usleep(100) }
        var outcomes = (exported: 0, refused: 0)
        for run in 0..<40 {
            let out = work.appendingPathComponent("out\(run)")
            let result = try CLIRunner.run(["export", export.path, "--to", "core-animation", "-o", out.path + "/"])
            if result.status == 0 { outcomes.exported += 1 } else {
                outcomes.refused += 1
                XCTAssertTrue(result.stderr.contains("leads outside") || result.stderr.contains("not found")
                              || result.stderr.contains("No such file"), result.stderr)
            }
            let images = out.appendingPathComponent("images")
            for name in (try? FileManager.default.contentsOfDirectory(atPath: images.path)) ?? [] {
                XCTAssertNotEqual(try Data(contentsOf: images.appendingPathComponent(name)), secretBytes,
                                  "run \(run) copied the outside file into images/\(name)")
            }
        }
        stop.set()
        while !swapper.isFinished { usleep(1000) }
        print("LinkSwapExportCLITests: \(outcomes.exported) exported, \(outcomes.refused) refused")
        XCTAssertEqual(outcomes.exported + outcomes.refused, 40)
    }
}

/// A flag one thread sets and another polls.
private final class SwapFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
