import Foundation
import KeyframeExport
import KeyframePNG

/// What a batch writes for each export: the normalized JSON or a player format.
public enum BatchTarget: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Keyframe's normalized JSON: `<name>.json`.
    case normalized
    /// A player format from an exporter: `<name>.<suffix>` for one clip, a `<name>.<kind>/` folder for several.
    case exporter(ExportFormat)

    /// Parses `normalized`, `lottie` or `core-animation`.
    public init?(argument: String) {
        if argument == "normalized" { self = .normalized; return }
        guard let format = ExportFormat(rawValue: argument) else { return nil }
        self = .exporter(format)
    }

    /// Every target a batch knows, whether or not this build has its exporter.
    public static var all: [BatchTarget] { [.normalized] + ExportFormat.allCases.map { .exporter($0) } }

    public var description: String {
        switch self {
        case .normalized: return "normalized"
        case .exporter(let format): return format.rawValue
        }
    }

    public static func < (a: BatchTarget, b: BatchTarget) -> Bool { a.description < b.description }
}

/// How a batch runs: what it writes and how it treats failures.
public struct BatchOptions: Sendable {
    /// The outputs per export, in any order (duplicates are ignored).
    public var targets: [BatchTarget] = [.normalized]
    /// Also render a contact sheet per export to `<relative path>/preview/<name>.png`.
    public var previews = false
    /// Treat warning diagnostics as failures.
    public var strict = false
    /// Stop starting exports after the first failure (the ones under way finish).
    public var failFast = false
    /// Remove the outputs of exports recorded in the manifest that no longer exist.
    public var prune = false
    /// Convert every export even when the manifest says it is up to date.
    public var force = false
    /// Exports converted at the same time.
    public var jobs = 1
    /// For exports with several resolutions: the scale factor to use.
    public var scaleFactor: Double?
    /// The PNG preset of the pictures the player formats write (`ExportOptions/pictures`).
    public var pictures: PNGPreset = .compact
    /// Lottie: the players to target (`LottieExportSettings/Profile`).
    public var lottieProfile: LottieExportSettings.Profile = .portable
    /// Write the player formats' JSON indented, for people to read (`ExportOptions/prettyJSON`).
    public var prettyJSON = false
    /// Verify (or with `record`, record) every export's frames against a golden tree (`--verify`); `nil`: do not.
    /// Not part of ``fingerprint``: verification does not change conversion outputs.
    public var verify: BatchVerifyOptions?
    /// Write every player format as the folder `<name>.<kind>/` (one `<clip>.json` per clip), even for a single clip:
    /// a set of outputs known before the conversion, for build systems that declare outputs (the SwiftPM plugin).
    public var playerFolders = false
    /// Also make each result's ``BatchExportResult/messages`` (errors and warnings in the build form, with positions
    /// read from the files): what `--diagnostics-format build` prints. Not part of ``fingerprint``.
    public var buildMessages = false
    /// Where the manifest, its journal, the stat cache and the lock live (`nil`: in OUT itself). A separate folder
    /// keeps OUT holding nothing but outputs, for a build that ships OUT as it is (the SwiftPM plugin bundles it).
    /// Not part of ``fingerprint``.
    public var stateFolder: URL?
    /// The executable whose content hash is recorded in the manifest beside ``toolVersion`` (`--tool-digest`), so
    /// that a rebuilt tool of the same version converts everything again: for builds that compile the tool from
    /// source (the SwiftPM plugin). `nil`: the version alone. Not part of ``fingerprint``.
    public var toolFile: String?
    /// The version of the tool, recorded in the manifest: a different version reconverts everything.
    public var toolVersion: String

    public init(toolVersion: String) {
        self.toolVersion = toolVersion
    }

    /// The targets without duplicates, in a fixed order.
    public var orderedTargets: [BatchTarget] { Array(Set(targets)).sorted() }

    /// Everything in the options that changes the bytes of an output, as one string the manifest compares.
    public var fingerprint: String {
        var parts = ["to=" + orderedTargets.map(\.description).joined(separator: ",")]
        parts.append("previews=\(previews)")
        parts.append("strict=\(strict)")
        parts.append("scale=" + (scaleFactor.map { "\($0)" } ?? "default"))
        if playerFolders { parts.append("folders=true") }
        // Only when not the default, so manifests written before the option existed stay valid.
        if pictures != .compact { parts.append("png=\(pictures.rawValue)") }
        if lottieProfile != .portable { parts.append("profile=\(lottieProfile.rawValue)") }
        if prettyJSON { parts.append("pretty=true") }
        // Core Animation JSON is written on one line (it used to be indented): outputs recorded in the old layout
        // are converted again once rather than kept.
        if targets.contains(.exporter(.coreAnimation)) { parts.append("ca-json=line") }
        return parts.joined(separator: ";")
    }
}
