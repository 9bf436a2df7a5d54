import Foundation
import KeyframeFuzzHarness
import XCTest

/// Replays every input committed under `FuzzRegressions/<surface>/` (crashes, hangs and out-of-memory inputs the
/// fuzzers in `Fuzz/` found, minimised by `Fuzz/Scripts/commit-crash.sh`) through the same entry point the fuzzer
/// ran. A fixed bug that comes back crashes this test; a slow one fails the time bound.
final class FuzzRegressionTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzRegressions")

    /// Each folder is named after a surface, so no input is silently never replayed.
    func testEveryFolderNamesASurface() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { !$0.hasPrefix(".") }
        for name in names where name != "README.md" {
            XCTAssertNotNil(FuzzSurface.named(name), "FuzzRegressions/\(name) is not a fuzz surface "
                            + "(surfaces: \(FuzzSurface.all.map(\.name).joined(separator: ", ")))")
        }
    }

    func testCommittedInputsReplayCleanly() throws {
        var replayed = 0
        for surface in FuzzSurface.all {
            let folder = Self.folder.appendingPathComponent(surface.name)
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
            for name in names where !name.hasPrefix(".") {
                let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
                let start = Date()
                surface.run(bytes)
                let seconds = Date().timeIntervalSince(start)
                // libFuzzer's -timeout=10 under ASan; a debug build without sanitizers must be well inside it.
                XCTAssertLessThan(seconds, 10, "\(surface.name)/\(name) took \(seconds) s")
                replayed += 1
            }
        }
        XCTAssertGreaterThan(replayed, 0, "no committed regression inputs found under \(Self.folder.path)")
    }
}
