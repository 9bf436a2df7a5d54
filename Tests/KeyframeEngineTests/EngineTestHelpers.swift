import Foundation
import XCTest

/// Asserts `actual` is within `tolerance` of `expected` (absolute), never with `==`.
func assertClose(_ actual: Double, _ expected: Double, tolerance: Double = 1e-9, _ message: @autoclosure () -> String = "",
                 file: StaticString = #filePath, line: UInt = #line) {
    XCTAssert(abs(actual - expected) <= tolerance,
              "\(actual) is not within \(tolerance) of \(expected) \(message())", file: file, line: line)
}

/// The checkout's root directory (three levels above this file).
let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// `../shared` beside the checkout, where the team's reference material and goldens live.
let sharedDirectory: URL = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")

/// This test target's fixture directory.
let fixturesDirectory: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

/// Loads a JSON file as a Foundation object tree.
func loadJSON(_ url: URL) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(contentsOf: url))
}

/// A small deterministic generator (SplitMix64) so random tests replay identically.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
