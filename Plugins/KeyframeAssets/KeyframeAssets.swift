import Foundation
import PackagePlugin

/// A SwiftPM build-tool plugin: converts the Animate, DragonBones and Flump exports kept in a target's folder into
/// normalized keyframe JSON, Lottie and Core Animation files, bundled as the target's resources (`Bundle.module`).
///
/// One build command per export, with every file of the export (and the configuration file) declared as an input
/// and every output declared, so SwiftPM reruns only the exports whose files changed. The tool is the package's
/// `keyframe` executable (`keyframe batch EXPORT -o DIR --player-folders`). Configuration: an optional
/// `keyframe-assets.json` in the target folder, e.g.
/// `{"to": ["normalized", "lottie", "core-animation"], "strict": true, "previews": false}`. Player formats are
/// written as the folders `<name>.lottie/` and `<name>.ca/` (one `<clip>.json` per clip): the clips are only known
/// once the export is read, a folder's name before.
///
/// The export folders must be excluded from the target's sources (`exclude: ["Exports"]`) so SwiftPM does not treat
/// their files as resources of their own; the plugin reads the target folder itself.
@main
struct KeyframeAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let tool = try context.tool(named: "keyframe").url
        let folder = URL(fileURLWithPath: target.directory.string)
        let configuration = try Configuration(folder: folder)
        var commands: [Command] = []
        var names: [String: String] = [:]
        for export in Self.exports(under: folder) {
            let name = export.folder.lastPathComponent
            // Resources land flat in the bundle, so two exports may not share a name.
            if let other = names[name.lowercased()] {
                Diagnostics.error("keyframe: exports \(other) and \(export.relative) would both be bundled as \(name); rename one")
                continue
            }
            names[name.lowercased()] = export.relative
            let output = context.pluginWorkDirectoryURL.appendingPathComponent("exports").appendingPathComponent(export.relative)
            var outputs: [URL] = []
            // SwiftPM decides what is stale; --force makes the command convert whenever SwiftPM runs it.
            var arguments = ["batch", export.folder.path, "-o", output.path, "--jobs", "1", "--force", "--player-folders"]
            for format in configuration.formats {
                arguments += ["--to", format]
                switch format {
                case "lottie": outputs.append(output.appendingPathComponent(name + ".lottie"))
                case "core-animation": outputs.append(output.appendingPathComponent(name + ".ca"))
                default: outputs.append(output.appendingPathComponent(name + ".json"))
                }
            }
            if configuration.strict { arguments.append("--strict") }
            if configuration.previews {
                arguments.append("--render-previews")
                outputs.append(output.appendingPathComponent("preview").appendingPathComponent(name + ".png"))
            }
            commands.append(.buildCommand(
                displayName: "Keyframe: converting \(export.relative)",
                executable: tool, arguments: arguments,
                inputFiles: export.files + configuration.files, outputFiles: outputs))
        }
        return commands
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

/// `keyframe-assets.json`: what the plugin writes. Unknown keys and formats the plugin cannot declare are errors.
struct Configuration {
    static let fileName = "keyframe-assets.json"

    var strict = false
    var previews = false
    /// What to write per export, in a fixed order: `normalized` (`<name>.json`), `lottie` (`<name>.lottie/`),
    /// `core-animation` (`<name>.ca/`).
    var formats = ["normalized"]
    /// The configuration file, as a build input (empty when there is none).
    var files: [URL] = []

    init(folder: URL) throws {
        let url = folder.appendingPathComponent(Configuration.fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else { return }
        files = [url]
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw PluginError("\(url.path): expected a JSON object")
        }
        for (key, value) in object {
            switch key {
            case "strict":
                guard let flag = value as? Bool else { throw PluginError("\(url.path): \"strict\" must be true or false") }
                strict = flag
            case "previews":
                guard let flag = value as? Bool else { throw PluginError("\(url.path): \"previews\" must be true or false") }
                previews = flag
            case "to":
                let known = ["normalized", "lottie", "core-animation"]
                guard let list = value as? [String], !list.isEmpty else {
                    throw PluginError("\(url.path): \"to\" must be a non-empty list of formats (\(known.joined(separator: ", ")))")
                }
                if let unknown = list.first(where: { !known.contains($0) }) {
                    throw PluginError("\(url.path): \"to\": unknown format \"\(unknown)\" (known: \(known.joined(separator: ", ")))")
                }
                formats = known.filter(list.contains)
            default:
                throw PluginError("\(url.path): unknown key \"\(key)\" (known: strict, previews, to)")
            }
        }
    }
}

struct PluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
