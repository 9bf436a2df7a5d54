import Foundation
@testable import KeyframeBatch
import KeyframeTestSupport
import XCTest

/// The journal's lines survive what a full disk or a crash leaves: a torn last line never swallows the next one.
final class BatchJournalTests: XCTestCase {
    func testALineAfterATornOneStartsOnItsOwnLine() throws {
        let folder = try TestPaths.temporaryFolder("journal")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(BatchJournal.fileName)
        // An earlier run stopped inside a line.
        try Data("{\"id\":\"a\",\"started\":[\"a.json\"]}\n{\"id\":\"b\",\"ent".utf8).write(to: path)
        let journal = BatchJournal(folder: folder.path)
        try journal.appendStarted(id: "c", files: ["c.json", "preview/c.png"])
        let entry = BatchManifest.Entry(inputs: ["x.json": "00"], options: "o", tool: "t",
                                        outputs: ["x.json": BatchManifest.Output(size: 2, digest: "01")], warnings: [])
        journal.appendFinished(id: "d", entry: entry)
        XCTAssertEqual(BatchJournal.records(in: folder.path),
                       [.started(id: "a", files: ["a.json"]), .started(id: "c", files: ["c.json", "preview/c.png"]),
                        .finished(id: "d", entry: entry)])
    }
}
