import KeyframeJSON

/// What a node stands for in its source; it changes no evaluation rule, but tells tools and people what they see.
public enum NodeKind: String, Sendable, Hashable, CaseIterable {
    /// An Animate layer or a Flump layer: a container in draw order.
    case layer
    /// A placed symbol or sprite instance (an Animate element).
    case instance
    /// A skeleton bone (DragonBones): transforms only, draws nothing itself.
    case bone
    /// A skeleton slot (DragonBones): draws its displayed content.
    case slot
    /// Any other grouping node.
    case group
}

/// One node of a composition's tree: a parent-relative transform plus what it displays, animated by tracks.
///
/// Nodes are listed flat in their ``Composition``, parents before children; their order is the default draw order
/// (back to front, depth first). A node's world transform is its parent's world transform times its own
/// ``NodeTracks`` transform.
public struct Node: Sendable, Hashable {
    /// Unique within the composition.
    public var id: String
    /// The name from the source (layer name, instance name, bone name).
    public var name: String
    /// What the node stands for.
    public var kind: NodeKind
    /// The id of the parent node, or `nil` for a top-level node.
    public var parent: String?
    /// Whether this node is a mask: it is not drawn, its coverage clips the nodes that name it in ``maskedBy``.
    public var isMask: Bool
    /// The id of the mask node that clips this node and its descendants.
    public var maskedBy: String?
    /// The animated properties.
    public var tracks: NodeTracks
    /// For skeleton bones: length and inheritance flags; `nil` means the node composes as §4.4 says.
    public var bone: BoneInheritance? = nil

    public init(id: String, name: String, kind: NodeKind, parent: String? = nil, isMask: Bool = false,
                maskedBy: String? = nil, tracks: NodeTracks = NodeTracks(), bone: BoneInheritance? = nil) {
        self.bone = bone
        self.id = id
        self.name = name
        self.kind = kind
        self.parent = parent
        self.isMask = isMask
        self.maskedBy = maskedBy
        self.tracks = tracks
    }
}

extension Node: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        let kindCursor = try json.member("kind")
        guard let kind = NodeKind(rawValue: try kindCursor.string()) else {
            throw kindCursor.error("unknown node kind \"\(try kindCursor.string())\"")
        }
        self.init(
            id: try json.decode("id"), name: try json.decode("name"), kind: kind,
            parent: try json.decodeIfPresent("parent"), isMask: try json.decodeIfPresent("isMask") ?? false,
            maskedBy: try json.decodeIfPresent("maskedBy"),
            tracks: try json.optionalMember("tracks").map { (cursor) throws(JSONSchemaError) in
                try NodeTracks(json: cursor)
            } ?? NodeTracks(),
            bone: try json.decodeIfPresent("bone"))
    }

    public var json: JSONValue {
        var object: JSONObject = ["id": .string(id), "name": .string(name), "kind": .string(kind.rawValue)]
        object.setIfPresent("parent", parent)
        if isMask { object["isMask"] = true }
        object.setIfPresent("maskedBy", maskedBy)
        if !tracks.isEmpty { object["tracks"] = tracks.json }
        object.setIfPresent("bone", bone)
        return .object(object)
    }
}
