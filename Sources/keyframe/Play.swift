import ArgumentParser
import Foundation

/// `keyframe play` (not written yet).
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play an animator script on the virtual clock.")

    func run() throws {
        throw fail("not available yet")
    }
}
