import KeyframeJSON
import KeyframeModel

/// One layer's `CAAnimationGroup`: the media timing shared by its keyframe animations (docs/core-animation.md §3).
public struct CAAnimationGroupSpec: Sendable, Hashable {
    /// When the group starts, in the layer's local time (seconds). 0 means time zero, not "now" (the loader passes
    /// `AVCoreAnimationBeginTimeAtZero` for it).
    public var beginTime: Double
    /// One pass, seconds (> 0).
    public var duration: Double
    public var timeOffset: Double = 0
    public var speed: Double = 1
    /// Passes; `Float.greatestFiniteMagnitude` repeats for as long as the tree plays.
    public var repeatCount: Double = 0
    public var repeatDuration: Double = 0
    public var autoreverses: Bool = false
    /// `both`: the first values before the group begins and the last after it ends.
    public var fillMode: String = "both"
    /// Always `false`.
    public var isRemovedOnCompletion: Bool = false
    /// The keyframe animations, one per key path.
    public var animations: [CAKeyframeAnimationSpec]

    public init(beginTime: Double, duration: Double, repeatCount: Double = 0, animations: [CAKeyframeAnimationSpec]) {
        self.beginTime = beginTime
        self.duration = duration
        self.repeatCount = repeatCount
        self.animations = animations
    }

    /// The number `repeatCount` holds for "forever" (JSON and property lists have no infinity).
    public static let forever = Double(Float.greatestFiniteMagnitude)
}

extension CAAnimationGroupSpec: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        self.init(beginTime: try json.decode("beginTime"), duration: try json.decode("duration"),
                  repeatCount: try json.decode("repeatCount"), animations: try json.decode("animations"))
        timeOffset = try json.decode("timeOffset")
        speed = try json.decode("speed")
        repeatDuration = try json.decode("repeatDuration")
        autoreverses = try json.decode("autoreverses")
        fillMode = try json.decode("fillMode")
        isRemovedOnCompletion = try json.decode("isRemovedOnCompletion")
    }

    public var json: JSONValue {
        [
            "beginTime": .number(beginTime), "duration": .number(duration), "timeOffset": .number(timeOffset),
            "speed": .number(speed), "repeatCount": .number(repeatCount), "repeatDuration": .number(repeatDuration),
            "autoreverses": .bool(autoreverses), "fillMode": .string(fillMode),
            "isRemovedOnCompletion": .bool(isRemovedOnCompletion), "animations": animations.json,
        ]
    }
}
