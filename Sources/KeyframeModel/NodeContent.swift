import KeyframeJSON

/// What a node displays at a moment: nothing, a sprite, or an instance of another composition.
public enum NodeContent: Sendable, Hashable {
    /// Nothing is drawn (an empty keyframe, or a layer that has ended).
    case none
    /// A sprite from the document's assets, by id.
    case sprite(String)
    /// A nested composition playing on its own timeline.
    case composition(CompositionInstance)
    /// A textured mesh from the document's assets, by id (DragonBones mesh displays).
    case mesh(String)
}

/// How a nested composition's timeline runs inside its parent.
public enum LoopMode: String, Sendable, Hashable, CaseIterable {
    /// Plays from the first frame and wraps around.
    case loop
    /// Plays from the first frame and stops on the last.
    case playOnce
    /// Shows the first frame only.
    case singleFrame
    /// Plays backwards from the first frame and wraps around (Animate 24 `loopReverse`).
    case loopReverse
    /// Plays backwards from the first frame and stops on frame 0 (Animate 24 `playonceReverse`).
    case playOnceReverse
}

/// Which clock drives a nested composition.
public enum CompositionClock: String, Sendable, Hashable, CaseIterable {
    /// Time follows the parent's playhead: when the parent holds a frame, the child holds too (Animate graphics,
    /// DragonBones child armatures with a parent-driven time).
    case parent
    /// Time advances with global time from the moment the instance appears, whatever the parent's playhead does
    /// (Animate movie clips, Flump nested movies).
    case independent
}

/// An instance of a composition inside another one, with its time mapping.
///
/// With `age` = frames elapsed since the content keyframe that holds this value began (on ``clock``) and `L` the
/// child's duration, the child's frame is:
/// `loop`: `(firstFrame + age) mod L`; `playOnce`: `min(firstFrame + age, L − 1)`; `singleFrame`: `firstFrame`;
/// `loopReverse`: `(firstFrame − age) mod L`; `playOnceReverse`: `max(firstFrame − age, 0)`.
public struct CompositionInstance: Sendable, Hashable {
    /// The id of the nested composition.
    public var composition: String
    /// The child frame shown when the instance appears.
    public var firstFrame: Frames
    /// How the child's time runs past its end.
    public var loop: LoopMode
    /// Which clock advances the child.
    public var clock: CompositionClock
    /// With ``CompositionClock/independent``: the instance keeps its own time across the loops and holds of the
    /// timeline that shows it (format.md §4.7): its age is measured on that timeline's unwrapped time, so a movie
    /// inside a shorter or stopped parent keeps running. Written (as `keepsTime: true`) only when set.
    public var keepsTime: Bool

    public init(composition: String, firstFrame: Frames = .zero, loop: LoopMode = .loop,
                clock: CompositionClock = .parent, keepsTime: Bool = false) {
        self.composition = composition
        self.firstFrame = firstFrame
        self.loop = loop
        self.clock = clock
        self.keepsTime = keepsTime
    }
}

extension NodeContent: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        let type = try json.member("type")
        switch try type.string() {
        case "none": self = .none
        case "sprite": self = .sprite(try json.decode("sprite"))
        case "mesh": self = .mesh(try json.decode("mesh"))
        case "composition":
            let loopCursor = try json.member("loop")
            guard let loop = LoopMode(rawValue: try loopCursor.string()) else {
                throw loopCursor.error("unknown loop mode \"\(try loopCursor.string())\"")
            }
            let clockCursor = try json.member("clock")
            guard let clock = CompositionClock(rawValue: try clockCursor.string()) else {
                throw clockCursor.error("unknown clock \"\(try clockCursor.string())\"")
            }
            self = .composition(CompositionInstance(
                composition: try json.decode("composition"), firstFrame: try json.decode("firstFrame"),
                loop: loop, clock: clock,
                keepsTime: try json.optionalMember("keepsTime").map { (c) throws(JSONSchemaError) in try c.bool() } ?? false))
        case let other: throw type.error("unknown content type \"\(other)\"")
        }
    }

    public var json: JSONValue {
        switch self {
        case .none: return ["type": "none"]
        case .sprite(let id): return ["type": "sprite", "sprite": .string(id)]
        case .mesh(let id): return ["type": "mesh", "mesh": .string(id)]
        case .composition(let instance):
            var members: JSONObject = [
                "type": "composition", "composition": .string(instance.composition),
                "firstFrame": instance.firstFrame.json, "loop": .string(instance.loop.rawValue),
                "clock": .string(instance.clock.rawValue),
            ]
            if instance.keepsTime { members["keepsTime"] = .bool(true) }
            return .object(members)
        }
    }
}
