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
            2 usage error (unknown subcommand or option, bad value). Every error is printed as `keyframe: error: …`.
            """,
        version: "0.1.0",
        subcommands: [Convert.self, Inspect.self, Play.self, Render.self, Verify.self, Preview.self, Diff.self, Export.self,
                      Batch.self, Bench.self])

    /// Runs the command. Usage errors exit with 2 (not ArgumentParser's 64) and, like every other error, are
    /// printed as `keyframe: error: …`; help and version text go through the checked ``Output``.
    static func main() {
        let arguments = CommandArguments.attachingNegativeNumbers(Array(CommandLine.arguments.dropFirst()))
        GivenPaths.register(arguments: arguments)
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch let code as ExitCode {
            // The command has already said why (fail(_:), Output).
            Foundation.exit(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                do { if !message.isEmpty { try Output.out(message + "\n") } } catch { Foundation.exit(1) }
                Foundation.exit(0)
            }
            var text = message
            if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
            Output.write(Array("keyframe: error: \(text)\n".utf8), to: STDERR_FILENO)
            Foundation.exit(code == .validationFailure ? 2 : 1)
        }
    }
}
