import ArgumentParser
import Foundation
import KeyframeEngine
import KeyframeFiles
import KeyframeImport
import KeyframeModel
import KeyframeRender

/// What every command that draws frames reads first: INPUT imported into a ``RenderScene``, and, for `--script`,
/// the script played into frame plans over the scenes of every document it names. `render`, `verify` and `preview`
/// share it, so the same options always draw the same frames.
struct RenderInput {
    /// INPUT, imported.
    var loaded: InputDocument
    /// INPUT ready to draw.
    var scene: RenderScene
    /// What the command reads (INPUT's files and atlas images; a script and its documents once played), protected
    /// from every write of the command (``InputDocument/protect(_:outputs:)``).
    var inputs: CommandInputs

    /// Imports `input` and decodes its atlases (from `options.assets` when given), printing the conversion's warnings
    /// unless `quiet`.
    ///
    /// - Throws: `ExitCode(1)` after printing the error.
    /// `outputs` are the files the command names before it writes anything: each is refused if it is an input.
    /// `diagnostics` is how import errors and warnings are printed (`render --diagnostics-format`).
    static func load(_ input: String, options: RenderOptions, quiet: Bool, outputs: [String?] = [],
                     diagnostics: DiagnosticsFormat = .plain) throws -> RenderInput
    {
        let loaded = try InputDocument.load(input, options: ImportOptions(scaleFactor: options.scaleFactor.value),
                                            diagnostics: diagnostics)
        let assetsFolder = options.assets.map { InputFolder($0) } ?? loaded.inputFolder
        let inputs = loaded.commandInputs(assets: assetsFolder)
        try InputDocument.protect(inputs, outputs: outputs)
        // What the conversion could not represent also cannot be drawn: say so, as `convert` does.
        if !quiet { try loaded.printWarnings() }
        do {
            return RenderInput(loaded: loaded, scene: try RenderScene(document: loaded.document, assetsFolder: assetsFolder),
                               inputs: inputs)
        } catch {
            throw fail(loaded.describe(error, assets: options.assets))
        }
    }

    /// An animator script played at `rate` and planned into frames.
    struct ScriptRun {
        /// The script.
        var script: AnimatorScript
        /// Its ticks on the virtual clock.
        var ticks: [ScriptTick]
        /// One frame per tick.
        var plans: [FramePlan]
        /// Scene 0 is INPUT; every other document the script loaded has its own scene.
        var scenes: [RenderScene]
        /// The script's file name without its extension: its frames are named after it.
        var name: String
    }

    /// Plays `scriptPath` on the virtual clock at `rate`: each animator with a clip target draws its clip at its clip
    /// time, in declaration order, over INPUT's scene.
    ///
    /// - Throws: `ExitCode(1)` after printing the error.
    func playScript(_ scriptPath: String, inputPath: String, rate: Double) throws -> ScriptRun {
        var inputs = self.inputs
        inputs.add(scriptPath)
        let url = URL(fileURLWithPath: scriptPath)
        let documents = Play.Documents(relativeTo: url.deletingLastPathComponent(),
                                       writtenAs: (scriptPath as NSString).deletingLastPathComponent)
        let bytes: [UInt8]
        do { bytes = try InputFile.read(scriptPath) } catch {
            throw fail("\(scriptPath): cannot read the script: \(error.reason)")
        }
        let parsed: AnimatorScript
        let ticks: [ScriptTick]
        do {
            parsed = try AnimatorScript(jsonBytes: bytes, file: scriptPath)
            ticks = try ScriptRunner(script: parsed, resolver: documents.resolve).run(fps: rate)
        } catch {
            throw fail("\(error)")
        }
        var scenes = [scene]
        var documentList = [scene.document]
        var index = [inputPath: 0]
        for (path, document) in documents.loaded.sorted(by: { $0.key < $1.key }) where index[path] == nil {
            do {
                let detected = try Importer.detect(URL(fileURLWithPath: path))
                let assets = InputFolder(detected.folder.path, mainFile: detected.file)
                InputDocument.add(document, folder: detected.folder, format: detected.format, mainFile: detected.file,
                                  assets: assets, to: &inputs)
                scenes.append(try RenderScene(document: document, assetsFolder: assets))
            } catch {
                throw fail("\(error)")
            }
            documentList.append(document)
            index[path] = scenes.count - 1
        }
        try InputDocument.protect(inputs)
        let plans: [FramePlan]
        do { plans = try FramePlan.plans(for: ticks, scenes: index, documents: documentList) } catch {
            throw fail("\(error)")
        }
        return ScriptRun(script: parsed, ticks: ticks, plans: plans, scenes: scenes,
                         name: url.deletingPathExtension().lastPathComponent)
    }
}
