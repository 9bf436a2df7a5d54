import ArgumentParser
import Foundation

/// `keyframe engine` (not written yet).
struct BenchEngine: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engine",
        abstract: "Engine throughput against plain interpolation.")

    func run() throws {
        throw fail("not available yet")
    }
}
