import ArgumentParser
import KeyframeImport

extension SpriteSheetAnimations: ExpressibleByArgument {}
extension DragonBonesPreference: ExpressibleByArgument {}

/// `--sheet-fps`, `--sheet-animations` and `--prefer`: how sprite sheets and DragonBones twins are read, shared by
/// the subcommands that import an export.
struct SheetImportOptions: ParsableArguments {
    @Option(name: .customLong("sheet-fps"),
            help: "Sprite sheets: frames per second (default: the FNF character JSON beside the sheet, else 24).")
    var fps: Double?

    @Option(name: .customLong("sheet-animations"),
            help: "Sprite sheets: names (declared animations, else frame names without their trailing number), declared (declared only, else one clip), single (one clip of all frames).")
    var animations: SpriteSheetAnimations = .names

    @Option(name: .customLong("prefer"),
            help: "DragonBones: read the JSON skeleton or its .dbbin when both are there (default: the one named; json for a folder).")
    var prefer: DragonBonesPreference?

    func validate() throws {
        try NumericBounds.framesPerSecond.check(fps, "--sheet-fps")
    }

    /// `options` with these settings.
    func applied(to options: ImportOptions) -> ImportOptions {
        var options = options
        options.sheetFrameRate = fps
        options.sheetAnimations = animations
        options.prefer = prefer
        return options
    }
}
