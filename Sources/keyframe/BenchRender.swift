import ArgumentParser
import Foundation

/// `keyframe render` (not written yet).
struct BenchRender: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Rendering throughput against libpng encoding alone.")

    func run() throws {
        throw fail("not available yet")
    }
}
