import Foundation
import KeyframeTestSupport

/// This test target's fixture directory.
let fixturesDirectory: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

/// Loads a JSON file as a Foundation object tree.
func loadJSON(_ url: URL) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(contentsOf: url))
}
