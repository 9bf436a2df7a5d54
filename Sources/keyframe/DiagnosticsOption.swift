import ArgumentParser
import KeyframeImport

/// How `convert`, `export` and `batch` print errors and warnings.
enum DiagnosticsFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// `keyframe: error: walker/Animation.json:16:9: invalid JSON: …`, for people at a terminal.
    case plain
    /// `walker/Animation.json:16:9: error: invalid JSON: …`: the form compilers print, which IDEs, editors and CI
    /// logs turn into links; what the SwiftPM plugin and the Bazel rule use.
    case build
}

/// `--diagnostics-format`, shared by the subcommands that run inside asset builds.
struct DiagnosticsOption: ParsableArguments {
    @Option(name: .customLong("diagnostics-format"),
            help: ArgumentHelp("How errors and warnings are printed: plain (keyframe: error: …) or build (PATH:LINE:COLUMN: error: …, as compilers print them for IDEs and build logs).",
                               valueName: "plain|build"))
    var format: DiagnosticsFormat = .plain

    /// Prints `messages` on standard error, one line each (``BuildMessage`` form).
    static func print(_ messages: [BuildMessage]) throws(ExitCode) {
        for message in messages { try Output.err("\(message)\n") }
    }
}
