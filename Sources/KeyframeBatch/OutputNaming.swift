import KeyframeExport

/// Where a batch puts each output of an export, relative to OUT, and the check that no two exports share a name.
///
/// For an export `walker` whose outputs go to `chars/`:
/// - normalized JSON: `chars/walker.json`;
/// - a player format with one clip and no companion files: `chars/walker.<suffix>` (`walker.lottie.json`,
///   `walker.ca.json`); with several clips (or companion files such as images): the folder
///   `chars/walker.<kind>/` (`walker.lottie/`, `walker.ca/`) holding each clip's file under the exporter's name for
///   it (`<clip>.json`) and its companions beside it;
/// - preview: `chars/preview/walker.png`.
public enum OutputNaming {
    /// The file of one output of `export` for a single-file target.
    public static func file(for target: BatchTarget, of export: BatchExport) -> String {
        switch target {
        case .normalized: return export.outputPath(export.name + ".json")
        case .exporter(let format): return export.outputPath(export.name + "." + format.fileSuffix)
        }
    }

    /// The folder a player format's outputs go in when there are several files.
    public static func folder(for format: ExportFormat, of export: BatchExport) -> String {
        var kind = format.fileSuffix
        if kind.hasSuffix(".json") { kind.removeLast(5) }
        return export.outputPath(export.name + "." + kind)
    }

    /// The contact sheet of `export`.
    public static func preview(of export: BatchExport) -> String {
        export.outputPath("preview/" + export.name + ".png")
    }

    /// The folder of `export`'s verification pictures (`keyframe batch --verify`): `chars/verify/walker`.
    public static func verifyArtifacts(of export: BatchExport) -> String {
        export.outputPath("verify/" + export.name)
    }

    /// Every name `export` may write under, for the collision check: files, and folders (ending in `/`).
    public static func reservedNames(of export: BatchExport, options: BatchOptions) -> [String] {
        var names: [String] = []
        for target in options.orderedTargets {
            names.append(file(for: target, of: export))
            if case .exporter(let format) = target { names.append(folder(for: format, of: export) + "/") }
        }
        if options.previews { names.append(preview(of: export)) }
        if options.verify != nil { names.append(verifyArtifacts(of: export) + "/") }
        return names
    }

    /// The collisions between `exports`' outputs, one message per clash (empty when there are none).
    ///
    /// Names are compared case-insensitively, since OUT may be on a case-insensitive file system (macOS).
    public static func collisions(_ exports: [BatchExport], options: BatchOptions) -> [String] {
        var owner: [String: (id: String, name: String)] = [:]
        var messages: [String] = []
        for export in exports {
            for name in reservedNames(of: export, options: options) {
                let key = name.lowercased()
                if let first = owner[key], first.id != export.id {
                    messages.append("\(export.id) and \(first.id) would both write \(name)")
                } else {
                    owner[key] = (export.id, name)
                }
            }
        }
        return messages
    }
}
