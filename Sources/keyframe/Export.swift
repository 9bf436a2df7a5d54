import ArgumentParser
import Foundation
import KeyframeExport
import KeyframeFiles
import KeyframeImport
import KeyframeModel
import KeyframePNG

extension ExportFormat: ExpressibleByArgument {}
extension CALayerTreeFile.Format: ExpressibleByArgument {}
extension LottieExportSettings.Profile: ExpressibleByArgument {}
extension LottieExportSettings.Images: ExpressibleByArgument {}
extension LottieExportSettings.Container: ExpressibleByArgument {}
extension SpriteSheetSettings.Format: ExpressibleByArgument {}

/// `keyframe export`: writes a document's clips in a player's format (Lottie, Core Animation, sprite sheets).
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export an export's clips for players: Lottie or Core Animation keyframe data, or sprite sheets.",
        discussion: """
            INPUT is anything `convert` reads. One file per clip: with one clip, -o names the file; with several, \
            -o is a folder and each clip is written as <clip>.json in it. Lottie with --single-file: one file, \
            every clip a marker range; with --container dotlottie: one .lottie archive holding the files. \
            Sprite sheets: every chosen clip in one sheet; -o names the data file and the pages are written \
            beside it under its name (walker.xml, walker.png; walker-0.png, walker-1.png… with several pages).
            """)

    @Argument(help: "The export or normalized JSON to export.", completion: .file())
    var input: String

    @Option(help: "The format to write.")
    var to: ExportFormat

    @Option(name: .shortAndLong, help: ArgumentHelp("The file (one clip) or folder (several clips) to write.", valueName: "PATH"),
            completion: .file())
    var output: String

    @Option(help: "Export only this clip (repeat for several; default: every clip).")
    var clip: [String] = []

    @Flag(help: "Fail when the conversion or the export reports any warning diagnostic.")
    var strict = false

    @Option(help: ArgumentHelp("Folder holding the atlas images (default: the input's folder).", valueName: "DIR"),
            completion: .directory)
    var assets: String?

    @OptionGroup var scaleFactor: ScaleFactorOption
    @OptionGroup var sheet: SheetImportOptions

    @Option(name: .customLong("format"),
            help: ArgumentHelp("Core Animation: write the layer tree as json (default) or plist.", valueName: "json|plist"))
    var coreAnimationFormat: CALayerTreeFile.Format?

    @Option(help: ArgumentHelp("Lottie: the players to target, portable (rlottie, ThorVG, lottie-web, lottie-ios, lottie-android; default) or full.",
                               valueName: "portable|full"))
    var profile: LottieExportSettings.Profile?

    @Option(help: ArgumentHelp("Lottie: images embedded as data URLs (default), or written to images/ beside the file.",
                               valueName: "embed|folder"))
    var images: LottieExportSettings.Images?

    @Option(help: ArgumentHelp("Lottie: JSON files (default), or one dotLottie archive (.lottie: manifest, animations/, images/; -o names it).",
                               valueName: "json|dotlottie"))
    var container: LottieExportSettings.Container?

    @Flag(help: "Lottie: write one file for the export (-o names it), every clip a marker range in it (default: one file per clip, each marking the labels within it).")
    var singleFile = false

    @Option(help: ArgumentHelp("The PNG preset of the pictures written (Lottie images, Core Animation baked tints): compact (default; smaller files to ship) or fast (quicker to encode).",
                               valueName: "compact|fast"))
    var png: PNGPreset = .compact

    @Option(name: .customLong("sheet-format"),
            help: ArgumentHelp("Sprite sheet: the data file, sparrow (default; HaxeFlixel, Starling), json-hash, json-array (Pixi, Phaser), phaser3 (multi-atlas), aseprite, godot (SpriteFrames .tres) or cocos2d (plist).",
                               valueName: "format"))
    var sheetFormat: SpriteSheetSettings.Format?

    @Option(help: ArgumentHelp("Sprite sheet: transparent pixels between frames (default 2).", valueName: "N"))
    var padding: Int?

    @Option(help: ArgumentHelp("Sprite sheet: pixels each frame's edge is repeated outward (default 0).", valueName: "N"))
    var extrude: Int?

    @Flag(help: "Sprite sheet: let frames be stored turned a quarter turn clockwise (json-hash, json-array, phaser3).")
    var rotate = false

    @Flag(help: "Sprite sheet: page sides are powers of two.")
    var pot = false

    @Option(name: .customLong("max-size"),
            help: ArgumentHelp("Sprite sheet: the longest page side (default 4096); more frames go on more pages.", valueName: "N"))
    var maxSize: Int?

    @Option(name: .customLong("sheet-scale"),
            help: ArgumentHelp("Sprite sheet: also (or only) write the sheet at this multiple of the frame size, as <name>@<S>x (repeat; the first one's data file is -o; default 1).",
                               valueName: "S"))
    var sheetScale: [Double] = []

    @Flag(help: "Sprite sheet: store premultiplied colour in the pages (default: straight alpha, as PNG defines it).")
    var premultiplied = false

    @Flag(help: "Write the JSON indented, one member per line, for people to read (default: on one line, as players' files ship).")
    var pretty = false

    @Option(help: "Clips exported in parallel (default: all cores). Output is identical for any value.")
    var jobs: Int?

    @Flag(name: [.short, .long], help: "Print nothing but errors and warnings (not the list of files written).")
    var quiet = false

    @OptionGroup var diagnostics: DiagnosticsOption

    func validate() throws {
        if coreAnimationFormat != nil && to != .coreAnimation {
            throw ValidationError("--format applies to --to core-animation only")
        }
        if (profile != nil || images != nil || singleFile || container != nil) && to != .lottie {
            throw ValidationError("--profile, --images, --single-file and --container apply to --to lottie only")
        }
        try NumericBounds.jobs.check(jobs, "--jobs")
        try NumericBounds.sheetPadding.check(padding, "--padding")
        try NumericBounds.sheetExtrude.check(extrude, "--extrude")
        try NumericBounds.sheetPageSide.check(maxSize, "--max-size")
        try NumericBounds.sheetScale.check(sheetScale, "--sheet-scale")
        if Set(sheetScale).count != sheetScale.count { throw ValidationError("--sheet-scale: each scale once") }
        if rotate && !SpriteSheetSettings.allowsRotation(sheetFormat ?? .sparrow) {
            throw ValidationError("--rotate: the \((sheetFormat ?? .sparrow).rawValue) format cannot store rotated "
                                  + "frames; use json-hash, json-array or phaser3")
        }
        if pot, let maxSize, maxSize & (maxSize - 1) != 0 {
            throw ValidationError("--pot needs a power-of-two --max-size (\(maxSize) is not)")
        }
        let sheetOptions = sheetFormat != nil || padding != nil || extrude != nil || rotate || pot || maxSize != nil
            || premultiplied || !sheetScale.isEmpty
        if sheetOptions && to != .spriteSheet {
            throw ValidationError("--sheet-format, --padding, --extrude, --rotate, --pot, --max-size, "
                                  + "--sheet-scale and --premultiplied apply to --to spritesheet only")
        }
        if pretty && coreAnimationFormat == .plist {
            throw ValidationError("--pretty applies to JSON; a property list is always written indented")
        }
    }

    func run() throws {
        guard let exporter = Exporters.exporter(for: to) else {
            throw fail("export --to \(to.rawValue) is not available in this build")
        }
        let loaded = try InputDocument.load(input, options: sheet.applied(to: ImportOptions(strict: strict, scaleFactor: scaleFactor.value)),
                                            diagnostics: diagnostics.format)
        let assetsFolder = assets.map { InputFolder($0) } ?? loaded.inputFolder
        // Every file planned below is checked against these before the first is written.
        try InputDocument.protect(loaded.commandInputs(assets: assetsFolder))
        try loaded.printWarnings()
        var options = ExportOptions(clips: clip.isEmpty ? nil : clip, strict: strict)
        if let coreAnimationFormat { options.coreAnimationFormat = coreAnimationFormat }
        options.pictures = png
        options.prettyJSON = pretty
        options.jobs = jobs
        // A dotLottie archive holds its pictures as files unless --images embed says otherwise.
        let packing = container ?? .json
        options.lottie = LottieExportSettings(profile: profile ?? .portable,
                                              images: images ?? (packing == .dotLottie ? .folder : .embed),
                                              singleFile: singleFile, container: packing)
        options.spriteSheet = spriteSheetSettings()
        let result: ExportResult
        do {
            result = try exporter.export(loaded.document, assetsFolder: assetsFolder, options: options)
        } catch {
            if diagnostics.format == .build {
                try DiagnosticsOption.print([BuildMessage(.error, file: input, message: "\(to.rawValue) export: \(error)")])
                throw ExitCode(1)
            }
            throw fail("\(input): \(error)")
        }
        let warnings = result.diagnostics.filter { $0.severity == .warning }
        if diagnostics.format == .build {
            try DiagnosticsOption.print(warnings.buildMessages(folder: loaded.displayFolder, prefix: "\(to.rawValue): "))
        } else {
            for diagnostic in warnings { try Output.warn("\(diagnostic)") }
        }
        let files = try plan(result)
        for (path, bytes) in files {
            do { try writeAtomically(bytes, to: path) } catch { throw fail("\(error)") }
        }
        if quiet { return }
        for exported in result.clips { try Output.out(line: "\(exported.clip): \(mainPath(of: exported, in: result))") }
    }

    /// The sprite-sheet settings of the options given; the files are named after -o's file name.
    func spriteSheetSettings() -> SpriteSheetSettings {
        var settings = SpriteSheetSettings()
        if let sheetFormat { settings.format = sheetFormat }
        if let padding { settings.padding = padding }
        if let extrude { settings.extrude = extrude }
        if let maxSize { settings.maximumPageSide = maxSize }
        settings.rotation = rotate
        settings.powerOfTwo = pot
        settings.premultipliedAlpha = premultiplied
        if !sheetScale.isEmpty { settings.scales = sheetScale }
        let file = ((output as NSString).lastPathComponent as NSString).deletingPathExtension
        if !output.hasSuffix("/") && !file.isEmpty { settings.name = file }
        return settings
    }

    /// Where the main file of `exported` goes: `-o` itself for a single clip, else `<-o>/<clip file>`.
    func mainPath(of exported: ExportedClip, in result: ExportResult) -> String {
        let single = result.clips.count == 1 && !output.hasSuffix("/")
        return single ? output : (output as NSString).appendingPathComponent(exported.main.relativePath)
    }

    /// Every file to write, in order, checked before the first is written: two different files may not share a path
    /// (clip names that come out the same, a picture and a main file), and every location must be writable.
    func plan(_ result: ExportResult) throws -> [(path: String, bytes: [UInt8])] {
        var files: [(path: String, bytes: [UInt8])] = []
        var owners: [String: (clip: String, bytes: [UInt8])] = [:]
        for exported in result.clips {
            let main = mainPath(of: exported, in: result)
            let folder = PathText.parent(main)
            for file in exported.companions + [exported.main] {
                let path = file == exported.main ? main : (folder as NSString).appendingPathComponent(file.relativePath)
                let key = (path as NSString).standardizingPath.lowercased()
                if let owner = owners[key] {
                    // The same picture shared by two clips is one file; anything else is a collision.
                    if owner.bytes == file.bytes { continue }
                    throw fail("clips \"\(owner.clip)\" and \"\(exported.clip)\" would both write \(path); "
                               + "export them one at a time with --clip NAME -o FILE")
                }
                owners[key] = (exported.clip, file.bytes)
                files.append((path, file.bytes))
            }
        }
        for (path, _) in files {
            do { try AtomicFile.checkWritable(path) } catch { throw fail("\(error)") }
        }
        return files
    }
}
