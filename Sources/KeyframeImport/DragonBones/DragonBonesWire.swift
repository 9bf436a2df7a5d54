import KeyframeJSON
import KeyframeModel

/// DragonBones skeleton data as the file states it (4.0–5.6 names; 2.x/3.0 data is up-converted into this form
/// first). Values keep the file's units (degrees, percent colour multipliers, frame counts); the normalizer converts.
enum DragonBonesWire {
    /// A transform as written: `x`, `y`, `skX`/`skY` (or `rotate`/`skew`) in degrees, `scX`/`scY`.
    struct Transform: Sendable {
        var x = 0.0, y = 0.0
        /// `skX` and `skY`, when the transform uses them.
        var skewX: Double? = nil, skewY: Double? = nil
        /// `rotate` and `skew` (5.x), when the transform uses them.
        var rotate: Double? = nil, skew: Double? = nil
        var scaleX = 1.0, scaleY = 1.0
    }

    /// A colour transform: multipliers in percent, offsets in 8-bit units.
    struct Color: Sendable, Equatable {
        var aM = 100.0, rM = 100.0, gM = 100.0, bM = 100.0
        var aO = 0.0, rO = 0.0, gO = 0.0, bO = 0.0
    }

    /// Skeleton data: the top-level object of `*_ske.json`.
    struct Data: Sendable {
        var name: String
        var version: String
        var frameRate: Double
        var armatures: [Armature]
    }

    /// One armature.
    struct Armature: Sendable {
        var name: String
        var frameRate: Double?
        var bones: [Bone]
        var slots: [Slot]
        var skins: [Skin]
        var ik: [IK]
        var animations: [Animation]
        /// The animation named by `defaultActions[].gotoAndPlay`, when present.
        var defaultAnimation: String?
        /// Path constraints (not converted).
        var pathConstraintCount = 0
        var path: JSONPath
    }

    struct Bone: Sendable {
        var name: String
        var parent: String?
        var transform: Transform
        var length: Double
        var inheritTranslation: Bool, inheritRotation: Bool, inheritScale: Bool, inheritReflection: Bool
        var path: JSONPath
    }

    struct Slot: Sendable {
        var name: String
        var parent: String
        var displayIndex: Int
        var blendMode: String?
        var color: Color?
        var path: JSONPath
    }

    struct Skin: Sendable {
        var name: String
        /// Displays per slot name, in file order.
        var displays: [String: [Display]]
    }

    /// A mesh's geometry as written.
    struct Mesh: Sendable {
        var vertices: [Double]
        var uvs: [Double]
        var triangles: [Int]
        var weights: [Double]?
        var slotPose: [Double]?
        var bonePose: [Double]?
        /// Binary data: each influence's position already in its bone's bind space (the runtime's load-time
        /// transform, done by the exporter), in `weights` order; `slotPose` and `bonePose` are then not needed.
        var influencePositions: [Vector2]? = nil
    }

    struct Display: Sendable {
        var name: String
        /// The texture or armature name (`path`, else `name`).
        var path: String
        /// `image`, `armature`, `mesh`, `boundingBox`, `path`.
        var type: String
        var transform: Transform
        /// Pivot as fractions of the texture size (default 0.5, 0.5).
        var pivot: Vector2
        var mesh: Mesh?
        var share: String?
        /// A binary file's mesh: the offset of its geometry in the packed int array (decoded by the binary reader).
        var packedGeometry: Int? = nil
        var jsonPath: JSONPath
        /// For an armature display, the animations its play actions start when the child becomes the slot's
        /// display: the display's `actions`, or the slot's `actions` for the display at the slot's `displayIndex`.
        var plays: [String] = []
    }

    struct IK: Sendable {
        var name: String
        var bone: String
        var target: String
        var bendPositive: Bool
        var chain: Int
        var weight: Double
        var path: JSONPath
    }

    /// How a keyframe eases to the next one.
    enum Tween: Sendable, Equatable {
        /// `tweenEasing` missing, null or NaN: no tween.
        case none
        /// `tweenEasing` e.
        case easing(Double)
        /// `curve` control points.
        case curve([Double])
        /// A curve already sampled by the exporter (binary data): eased progress at evenly spaced times, ends
        /// excluded.
        case samples([Double])
    }

    /// One keyframe: its duration in frames, easing and value.
    struct Frame<Value: Sendable>: Sendable {
        var duration: Int
        var tween: Tween
        var value: Value
        /// `tweenRotate` (4.x) / `clockwise` (5.x).
        var clockwise: Double = 0
    }

    struct BoneTimeline: Sendable {
        var name: String
        var scale = 1.0, offset = 0.0
        /// 4.x/5.0 `frame[]` with full transforms.
        var all: [Frame<Transform>]?
        /// 5.5 split timelines.
        var translate: [Frame<Vector2>]?
        var rotate: [Frame<(rotate: Double, skew: Double)>]?
        var scaleFrames: [Frame<Vector2>]?
        /// Whether `rotate` values are already unwrapped keyframe to keyframe (binary data stores them so).
        var rotationsUnwrapped = false
        var path: JSONPath
    }

    struct SlotTimeline: Sendable {
        var name: String
        var scale = 1.0, offset = 0.0
        var display: [Frame<Int>]?
        var color: [Frame<Color>]?
        var path: JSONPath
    }

    struct DeformTimeline: Sendable {
        var slot: String
        /// The mesh display's name.
        var display: String
        var skin: String
        var scale = 1.0, offset = 0.0
        var frames: [Frame<(offset: Int, vertices: [Double])>]
        /// Binary data of a weighted mesh: the offsets are already per influence, in each influence's bone space.
        var perInfluence = false
        var path: JSONPath
    }

    /// A play action that starts an animation in a child armature during an animation: from a slot's display
    /// frame (that slot), a bone's frame (the slots on that bone) or an animation frame naming a `slot` or `bone`.
    struct ChildAction: Sendable, Equatable {
        /// Where it fires, in the animation's frames (the start of the frame that holds it).
        var frame: Int
        /// The slot whose child armature plays, or `nil` for every slot on `bone`.
        var slot: String?
        var bone: String?
        var animation: String
    }

    struct ZOrderFrame: Sendable {
        var duration: Int
        /// Pairs of slot index and offset.
        var changes: [Int]
    }

    struct Animation: Sendable {
        var name: String
        /// Length in frames (`duration`).
        var duration: Int
        var playTimes: Int
        /// Duration multiplier.
        var scale: Double
        /// Seconds over which the runtime cross-fades into this animation when `fadeIn` starts it (`fadeInTime`).
        var fadeInTime = 0.0
        var bones: [BoneTimeline]
        var slots: [SlotTimeline]
        var deforms: [DeformTimeline]
        var zOrder: [ZOrderFrame]?
        /// Actions that play an animation of a child armature (converted).
        var childActions: [ChildAction] = []
        /// Events, sounds and actions found anywhere in the animation (not converted).
        var eventCount: Int
        /// IK weight/bend timelines (not converted).
        var ikTimelineCount: Int
        var path: JSONPath
    }
}
