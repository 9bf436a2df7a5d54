import ArgumentParser
import Foundation

/// The `keyframe` command: converts, inspects, plays and renders Flash-era animation exports.
@main
struct Keyframe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keyframe",
        abstract: "Convert Adobe Animate, DragonBones and Flump exports into one normalized keyframe model.",
        discussion: """
            Exit codes: 0 success, 1 input error (unreadable or invalid input, --strict diagnostics), \
            2 usage error (unknown subcommand or option, bad value).
            """,
        version: "0.1.0",
        subcommands: [Convert.self, Inspect.self, Play.self, Render.self, Export.self, Batch.self, Bench.self])

    /// Runs the command, mapping ArgumentParser's usage-error code (64) to the documented 2.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
