import Foundation
import PackagePlugin

/// A SwiftPM build-tool plugin: converts the Animate, DragonBones and Flump exports kept in a target's folder into
/// normalized keyframe JSON, Lottie and Core Animation files, bundled as the folder `Keyframe/` of the target's
/// resources (`Bundle.module`).
///
/// One build command per target runs `keyframe batch` over every export of the target, with every file of every
/// export and the optional `keyframe-assets.json` as its inputs, and one output: the folder `Keyframe/`. Why one
/// command and one folder, when SwiftPM 6 could run one command per export:
/// - SwiftPM plans a build once and only plans again when files are added or removed (or the manifest changes), so
///   outputs declared from the configuration's content would go stale when the configuration is edited; the
///   command passes the configuration with `--config`, and `keyframe batch` reads it when it runs;
/// - SwiftPM never removes a resource from the bundle once copied, except by copying a folder resource again whole,
///   so only a folder makes a removed export's files (or a dropped format's) leave the bundle;
/// - SwiftPM stops at the first failing command, so with one command per export only one broken export would be
///   reported per build; one batch reports every broken export's error;
/// - `keyframe batch` keeps a manifest of content hashes (in the plugin's work folder, `--state`), so a rerun
///   converts only the exports whose files or options changed (or all of them when the tool itself was rebuilt,
///   `--tool-digest`) and removes the outputs of exports that are gone.
///
/// Errors and warnings are printed as `PATH:LINE:COLUMN: error: …` (`--diagnostics-format build`), which Xcode and
/// editors link to the file. The export folders (and the configuration file) must be excluded from the target's
/// sources (`exclude: ["Exports", "keyframe-assets.json"]`) so SwiftPM does not bundle them raw.
@main
struct KeyframeAssets: BuildToolPlugin {
    /// The configuration file's name in the target folder.
    static let configurationFile = "keyframe-assets.json"
    /// The folder the outputs are bundled as.
    static let bundleFolder = "Keyframe"

    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let folder = URL(fileURLWithPath: target.directory.string)
        let exports = Self.exports(under: folder)
        guard !exports.isEmpty else { return [] }
        // Outputs are named after the export's folder, so two exports may not share a name.
        var names: [String: String] = [:]
        for export in exports {
            let name = export.folder.lastPathComponent
            if let other = names[name.lowercased()] {
                throw PluginError("keyframe: exports \(other) and \(export.relative) would both be bundled as \(name); rename one")
            }
            names[name.lowercased()] = export.relative
        }
        let work = context.pluginWorkDirectoryURL
        let output = work.appendingPathComponent(Self.bundleFolder)
        var arguments = ["batch"] + exports.map(\.folder.path)
        arguments += ["-o", output.path, "--state", work.appendingPathComponent("state").path,
                      "--player-folders", "--prune", "--tool-digest", "--diagnostics-format", "build"]
        var inputs = exports.flatMap(\.files)
        let configuration = folder.appendingPathComponent(Self.configurationFile)
        if FileManager.default.fileExists(atPath: configuration.path) {
            // Read by the tool when it runs, so an edit applies without SwiftPM planning the build again.
            arguments += ["--config", configuration.path]
            inputs.append(configuration)
        }
        return [.buildCommand(
            displayName: "Keyframe: converting \(exports.count) export\(exports.count == 1 ? "" : "s") of \(target.name)",
            executable: try context.tool(named: "keyframe").url, arguments: arguments,
            inputFiles: inputs, outputFiles: [output])]
    }

    /// Every export folder under `folder` (not searched further once found), with its files, sorted.
    static func exports(under folder: URL) -> [(folder: URL, relative: String, files: [URL])] {
        var found: [(folder: URL, relative: String, files: [URL])] = []
        func visit(_ url: URL, _ relative: String) {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
            let isExport = names.contains("Animation.json") || names.contains("library.json")
                || names.contains("library.xml") || names.contains("skeleton.json")
                || names.contains { $0.hasSuffix("_ske.json") || $0.hasSuffix("_ske.dbbin") }
            if isExport && !relative.isEmpty {
                found.append((url, relative, files(in: url)))
                return
            }
            for name in names where !name.hasPrefix(".") {
                let child = url.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: child.path, isDirectory: &isDirectory), isDirectory.boolValue {
                    visit(child, relative.isEmpty ? name : relative + "/" + name)
                }
            }
        }
        visit(folder, "")
        return found
    }

    /// Every regular, non-hidden file under `folder`.
    static func files(in folder: URL) -> [URL] {
        var files: [URL] = []
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        for name in names where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue { files += self.files(in: url) } else { files.append(url) }
        }
        return files
    }
}

struct PluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
