import KeyframeJSON
import KeyframeModel

/// The files of a DragonBones export, recognised by what they hold rather than by their names: the skeleton and its
/// texture atlases, with the reason each was chosen.
///
/// DragonBones Pro names them `<name>_ske.json` and `<name>_tex.json`, but exports travel under other names: older
/// editors and Flash panels write `<name>.json` with `<name>Texture.json`, a Godot plugin renames skeletons
/// `<name>.dbjson`, people rename everything. The runtime does not care: it reads whatever data it is handed and pairs
/// atlases with skeletons by the data's `name`. So a skeleton is any JSON (`.json`, `.dbjson`) whose top level has an
/// `armature` list and a version, or a `.dbbin`; an atlas is any JSON with a `SubTexture` list (DragonBones) or
/// TexturePacker's `frames` and `meta`; atlases are paired with the skeleton by file name where the names follow a
/// known convention, else by the `name` they share with the skeleton's data, else every atlas of the folder is read.
struct DragonBonesFileSet {
    /// The skeleton file.
    var skeleton: String
    /// Its texture atlases, in reading order.
    var atlases: [String]
    /// Why these files were chosen, for a diagnostic; empty when they follow DragonBones' own names.
    var reasons: [String]
    /// Other skeletons in the folder that were not read.
    var otherSkeletons: [String]

    /// The skeleton named by DragonBones' own conventions (`*_ske.json`, `skeleton.json`), if any.
    static func conventionalSkeleton(_ names: [String]) -> String? {
        names.first { $0.hasSuffix("_ske.json") || $0 == "skeleton.json" }
    }

    /// The skeleton of a folder whose entries are `names` (sorted): by convention, else the first JSON or `.dbjson`
    /// whose content is skeleton data, else a `.dbbin` (`*_ske.dbbin` first).
    static func skeleton(in folder: SourceFolder, names: [String]) -> String? {
        if let name = conventionalSkeleton(names) { return name }
        if let name = skeletonsByContent(in: folder, names: names).first { return name }
        return names.first { $0.hasSuffix("_ske.dbbin") } ?? names.first { $0.lowercased().hasSuffix(".dbbin") }
    }

    /// Every JSON or `.dbjson` file among `names` whose top level is DragonBones skeleton data (an `armature` list and
    /// a `version` or `compatibleVersion`).
    static func skeletonsByContent(in folder: SourceFolder, names: [String]) -> [String] {
        names.filter { name in
            guard isJSONName(name), let root = try? folder.readJSON(name) else { return false }
            return isSkeleton(root)
        }
    }

    /// Whether `root` is DragonBones skeleton data.
    static func isSkeleton(_ root: JSONCursor) -> Bool {
        guard case .array? = root.value["armature"] else { return false }
        return DragonBonesReader.version(of: root) != nil
    }

    /// Whether `root` is a texture atlas DragonBones reads: its own (`SubTexture`) or TexturePacker's JSON array.
    static func isAtlas(_ root: JSONCursor) -> Bool {
        if case .array? = root.value["SubTexture"] { return true }
        return root.has("frames") && root.has("meta")
    }

    static func isJSONName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".json") || lower.hasSuffix(".dbjson")
    }

    /// The name of a skeleton file without its extension and DragonBones' `_ske` suffix (`Hero.dbjson` → `Hero`).
    static func baseName(of skeleton: String) -> String {
        var base = skeleton
        if let dot = base.lastIndex(of: "."), dot != base.startIndex { base = String(base[..<dot]) }
        if base.hasSuffix("_ske") { base = String(base.dropLast(4)) }
        return base
    }

    /// The files for `skeleton` in `folder`: its atlases, paired by name or by the data `name` they share with it
    /// (`dataName`, the skeleton's top-level `name`), and the reasons.
    static func resolve(skeleton: String, in folder: SourceFolder, dataName: String?) -> DragonBonesFileSet {
        let names = folder.listFiles()
        let base = baseName(of: skeleton)
        let conventional = conventionalSkeleton([skeleton]) != nil || skeleton.hasSuffix("_ske.dbbin")
        var reasons: [String] = []
        if !conventional {
            let what = skeleton.lowercased().hasSuffix(".dbbin") ? "binary skeleton data (DBDT)"
                : "its content (a top-level armature list and a version)"
            reasons.append("skeleton \(skeleton), recognised by \(what)")
        }
        // Atlases by content; a file that does not parse stays a candidate by name, so that reading it reports its
        // error instead of the export seeming to have no atlas.
        var atlases: [(name: String, root: JSONCursor?)] = []
        for name in names where name != skeleton && isJSONName(name) {
            guard let root = try? folder.readJSON(name) else {
                atlases.append((name, nil))
                continue
            }
            if isAtlas(root) { atlases.append((name, root)) }
        }
        // `_tex.dbjson` atlases (renamed like their `.dbjson` skeletons) pair exactly as `.json` ones do.
        func lowerStem(_ name: String) -> String {
            let lower = name.lowercased()
            return String(lower.dropLast(lower.hasSuffix(".dbjson") ? ".dbjson".count : ".json".count))
        }
        let lowerBase = base.lowercased()
        // DragonBones' names first (<base>_tex.json, <base>_tex_N.json; texture.json beside skeleton.json), then the
        // older editors' and other tools' (<base>Texture.json, <base>_texture[_N].json, <base>-texture.json,
        // <base>.json beside a .dbjson or .dbbin skeleton), then the Flash panel's texture.json.
        let textureNames = ["texture", "_texture", "-texture", ".texture"].map { lowerBase + $0 }
        let conventions: [(matches: (String) -> Bool, reason: String, standard: Bool)] = [
            ({ $0 == lowerBase + "_tex" || $0.hasPrefix(lowerBase + "_tex_") }, "named after the skeleton (\(base)_tex)", true),
            ({ skeleton == "skeleton.json" && $0 == "texture" }, "texture.json beside skeleton.json", true),
            ({ stem in textureNames.contains { stem == $0 || stem.hasPrefix($0 + "_") } },
             "named after the skeleton (\(base)Texture)", false),
            ({ $0 == lowerBase }, "named after the skeleton (\(base).json)", false),
            ({ $0 == "texture" }, "the folder's texture.json", false),
        ]
        for convention in conventions {
            let matches = atlases.filter { convention.matches(lowerStem($0.name)) }.map(\.name)
            guard !matches.isEmpty else { continue }
            if !convention.standard || !conventional {
                reasons.append("texture atlas \(list(matches)), \(convention.reason)")
            }
            return DragonBonesFileSet(skeleton: skeleton, atlases: matches, reasons: reasons,
                                      otherSkeletons: others(of: skeleton, in: folder, names: names))
        }
        // The runtime pairs atlases with skeleton data by the `name` both carry.
        atlases.removeAll { $0.root == nil }
        if let dataName, !dataName.isEmpty {
            let matches = atlases.filter { (try? $0.root?.optionalName("name")) == dataName }.map(\.name)
            if !matches.isEmpty {
                reasons.append("texture atlas \(list(matches)), whose name \"\(dataName)\" is the skeleton data's")
                return DragonBonesFileSet(skeleton: skeleton, atlases: matches, reasons: reasons,
                                          otherSkeletons: others(of: skeleton, in: folder, names: names))
            }
        }
        let all = atlases.map(\.name)
        if !all.isEmpty {
            reasons.append("texture atlas \(list(all)), the folder's atlas file(s) (none is paired with the skeleton by name)")
        }
        return DragonBonesFileSet(skeleton: skeleton, atlases: all, reasons: reasons,
                                  otherSkeletons: others(of: skeleton, in: folder, names: names))
    }

    /// The other skeletons by content in the folder (not read: a path to one of them chooses it).
    private static func others(of skeleton: String, in folder: SourceFolder, names: [String]) -> [String] {
        var found = skeletonsByContent(in: folder, names: names.filter { $0 != skeleton })
        found += names.filter { $0 != skeleton && $0.lowercased().hasSuffix(".dbbin") }
        // A binary twin of the skeleton is the same data.
        return found.filter { !($0.lowercased().hasSuffix(".dbbin") && baseName(of: $0) == baseName(of: skeleton)) }
    }

    private static func list(_ names: [String]) -> String { names.joined(separator: ", ") }

    /// The info diagnostic saying which files were read and why, when they do not follow DragonBones' own names or
    /// other skeletons were left aside; `nil` otherwise.
    var diagnostic: Diagnostic? {
        var parts = reasons
        if !otherSkeletons.isEmpty {
            parts.append("other skeleton(s) not read (give a file's path to read it): \(otherSkeletons.joined(separator: ", "))")
        }
        guard !parts.isEmpty else { return nil }
        return Diagnostic(severity: .info, code: "files-chosen", message: parts.joined(separator: "; "), file: skeleton)
    }
}
