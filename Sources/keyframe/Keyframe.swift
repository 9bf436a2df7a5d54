import ArgumentParser

/// The `keyframe` command: converts, inspects, plays and renders Flash-era animation exports.
@main
struct Keyframe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keyframe",
        abstract: "Convert Adobe Animate, DragonBones and Flump exports into one normalized keyframe model.",
        discussion: """
            Exit codes: 0 success, 1 input error (unreadable or invalid input, --strict diagnostics), \
            2 usage error (unknown option, bad value).
            """,
        version: "0.1.0",
        subcommands: [Convert.self, Inspect.self, Bench.self])
}
