import ArgumentParser
import Foundation

/// `keyframe render` (not written yet).
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render frames of a clip to PNG.")

    func run() throws {
        throw fail("not available yet")
    }
}
