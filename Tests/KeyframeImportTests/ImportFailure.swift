import Foundation
import KeyframeImport
import XCTest

/// The error importing `folder` throws; fails the test (and returns `nil`) when the import succeeds.
func importFailure(at folder: URL, file: StaticString = #filePath, line: UInt = #line) -> ImportError? {
    do {
        _ = try Importer.importDocument(at: folder)
        XCTFail("import should have failed", file: file, line: line)
        return nil
    } catch {
        return error
    }
}
