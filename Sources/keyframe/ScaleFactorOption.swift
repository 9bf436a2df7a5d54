import ArgumentParser

/// `--scale-factor`, shared by the subcommands that import an export.
struct ScaleFactorOption: ParsableArguments {
    @Option(name: .customLong("scale-factor"),
            help: "Flump: the texture group to use (default: 1×, else the largest below, else the smallest).")
    var value: Double?

    func validate() throws {
        try NumericBounds.scaleFactor.check(value, "--scale-factor")
    }
}
