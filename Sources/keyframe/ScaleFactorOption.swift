import ArgumentParser

/// `--scale-factor`, shared by the subcommands that import an export.
struct ScaleFactorOption: ParsableArguments {
    @Option(name: .customLong("scale-factor"),
            help: "Flump: the texture group to use (default: 1×, else the largest below, else the smallest).")
    var value: Double?

    func validate() throws {
        if let value, !(value > 0 && value.isFinite) {
            throw ValidationError("--scale-factor \(RenderOptions.number(value)): must be a positive, finite number (e.g. 1 or 2)")
        }
    }
}
