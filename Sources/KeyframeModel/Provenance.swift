import KeyframeJSON

/// The export format a document was converted from.
public enum SourceFormat: String, Sendable, Hashable, CaseIterable {
    /// Adobe Animate's official texture-atlas export (`Animation.json` + `spritemap*.json`).
    case animateAtlas
    /// The BetterTextureAtlas variant of the Animate export.
    case betterTextureAtlas
    /// DragonBones JSON.
    case dragonBones
    /// Flump JSON or XML.
    case flump
    /// A sprite sheet: JSON hash or array (Animate's "Generate Sprite Sheet", TexturePacker) or Starling/Sparrow XML.
    case spriteSheet
    /// A normalized Keyframe document.
    case keyframe
}

/// Where a document came from: format, versions and tool as far as the source says.
public struct Provenance: Sendable, Hashable {
    public var format: SourceFormat
    /// The data format's own version when it has one (DragonBones `version`, BTA `V`).
    public var formatVersion: String?
    /// The exporting application (spritemap `meta.app`, DragonBones editor).
    public var tool: String?
    /// The exporting application's version (Animate build from `meta.version`).
    public var toolVersion: String?
    /// Which key spelling an Animate export uses (`optimized` or `long`), when it applies.
    public var variant: String?
    /// The files that were read, relative to the input folder, sorted.
    public var files: [String]

    public init(format: SourceFormat, formatVersion: String? = nil, tool: String? = nil, toolVersion: String? = nil,
                variant: String? = nil, files: [String] = []) {
        self.format = format
        self.formatVersion = formatVersion
        self.tool = tool
        self.toolVersion = toolVersion
        self.variant = variant
        self.files = files
    }
}

extension Provenance: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        let formatCursor = try json.member("format")
        guard let format = SourceFormat(rawValue: try formatCursor.string()) else {
            throw formatCursor.error("unknown source format \"\(try formatCursor.string())\"")
        }
        self.init(
            format: format, formatVersion: try json.decodeIfPresent("formatVersion"),
            tool: try json.decodeIfPresent("tool"), toolVersion: try json.decodeIfPresent("toolVersion"),
            variant: try json.decodeIfPresent("variant"), files: try json.decodeIfPresent("files") ?? [])
    }
    public var json: JSONValue {
        var object: JSONObject = ["format": .string(format.rawValue), "files": files.json]
        object.setIfPresent("formatVersion", formatVersion)
        object.setIfPresent("tool", tool)
        object.setIfPresent("toolVersion", toolVersion)
        object.setIfPresent("variant", variant)
        return .object(object)
    }
}
