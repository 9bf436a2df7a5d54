import KeyframeJSON

/// A timeline with its own node tree: an Animate symbol, a DragonBones armature animation, a Flump movie.
public struct Composition: Sendable, Hashable {
    /// Unique within the document.
    public var id: String
    /// The source's name for it.
    public var name: String
    /// The length of the timeline; frames run from 0 to `duration − 1` (a frame lasts until the next).
    public var duration: Frames
    /// The nodes, parents before children, in default draw order (back to front).
    public var nodes: [Node]
    /// Inverse-kinematics constraints among the composition's bone nodes, in evaluation order; written only when
    /// not empty.
    public var ik: [IKConstraint] = []

    public init(id: String, name: String, duration: Frames, nodes: [Node] = [], ik: [IKConstraint] = []) {
        self.ik = ik
        self.id = id
        self.name = name
        self.duration = duration
        self.nodes = nodes
    }
}

extension Composition: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        self.init(
            id: try json.decode("id"), name: try json.decode("name"), duration: try json.decode("duration"),
            nodes: try json.decode("nodes"), ik: try json.decodeIfPresent("ik") ?? [])
    }
    public var json: JSONValue {
        var object: JSONObject = [
            "id": .string(id), "name": .string(name), "duration": duration.json, "nodes": nodes.json,
        ]
        if !ik.isEmpty { object["ik"] = ik.json }
        return .object(object)
    }
}

/// A named range of a composition's timeline that a player can ask for: an Animate frame label, a DragonBones
/// animation, a Flump movie.
public struct Clip: Sendable, Hashable {
    /// The clip's name.
    public var name: String
    /// The composition the clip plays.
    public var composition: String
    /// The first frame of the range.
    public var start: Frames
    /// The length of the range.
    public var duration: Frames
    /// How many times the clip plays; 0 means forever.
    public var loopCount: Int

    public init(name: String, composition: String, start: Frames, duration: Frames, loopCount: Int) {
        self.name = name
        self.composition = composition
        self.start = start
        self.duration = duration
        self.loopCount = loopCount
    }
}

extension Clip: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        self.init(
            name: try json.decode("name"), composition: try json.decode("composition"),
            start: try json.decode("start"), duration: try json.decode("duration"),
            loopCount: try json.decode("loopCount"))
    }
    public var json: JSONValue {
        ["name": .string(name), "composition": .string(composition), "start": start.json,
         "duration": duration.json, "loopCount": loopCount.json]
    }
}
