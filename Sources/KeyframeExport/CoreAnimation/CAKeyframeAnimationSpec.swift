import KeyframeJSON
import KeyframeModel

/// One `CAKeyframeAnimation` of the Core Animation layer-tree format, field for field (docs/core-animation.md §4).
///
/// Values are stored as vectors of numbers whatever their type (`valueType` says how a loader boxes them:
/// `NSNumber`, `CGPoint`, `CATransform3D`), so that the Linux model, the validator and the writers treat every key
/// path alike.
public struct CAKeyframeAnimationSpec: Sendable, Hashable {
    /// How the numbers of one value become a Core Animation value.
    public enum ValueType: String, Sendable, Hashable, CaseIterable {
        /// One number (`NSNumber` of a `CGFloat`).
        case number
        /// `[x, y]` (`CGPoint` in an `NSValue`).
        case point
        /// 16 numbers `m11 … m44`, row by row (`CATransform3D` in an `NSValue`).
        case transform
        /// One number, 0 or 1 (`NSNumber` of a `Bool`).
        case bool

        /// How many numbers one value has.
        public var width: Int {
            switch self {
            case .number, .bool: return 1
            case .point: return 2
            case .transform: return 16
            }
        }
    }

    /// The layer property animated (`position`, `transform.rotation.z`, `hidden`, …).
    public var keyPath: String
    /// How to box each value.
    public var valueType: ValueType
    /// The keyframe values.
    public var values: [[Double]]
    /// Key times in 0…1: one per value (`linear`, `cubic`) or one more than values (`discrete`).
    public var keyTimes: [Double]
    /// Control points `[c1x, c1y, c2x, c2y]` of each segment's `CAMediaTimingFunction` (values − 1 of them).
    public var timingFunctions: [[Double]]
    /// `linear`, `discrete`, `paced`, `cubic` or `cubicPaced`.
    public var calculationMode: String
    /// Timing inside the group (seconds).
    public var beginTime: Double = 0
    public var duration: Double
    public var timeOffset: Double = 0
    public var speed: Double = 1
    public var repeatCount: Double = 0
    public var repeatDuration: Double = 0
    public var autoreverses: Bool = false
    public var fillMode: String = "both"
    /// Always `false`: the layer keeps the animated value when the animation ends.
    public var isRemovedOnCompletion: Bool = false

    public init(keyPath: String, valueType: ValueType, values: [[Double]], keyTimes: [Double],
                timingFunctions: [[Double]], calculationMode: String, duration: Double) {
        self.keyPath = keyPath
        self.valueType = valueType
        self.values = values
        self.keyTimes = keyTimes
        self.timingFunctions = timingFunctions
        self.calculationMode = calculationMode
        self.duration = duration
    }
}

extension CAKeyframeAnimationSpec: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        let typeCursor = try json.member("valueType")
        guard let type = ValueType(rawValue: try typeCursor.string()) else {
            throw typeCursor.error("unknown value type \"\(try typeCursor.string())\"")
        }
        var values: [[Double]] = []
        for value in try json.member("values").array() {
            values.append(try CAValueCoding.decode(value, as: type))
        }
        var functions: [[Double]] = []
        for function in try json.member("timingFunctions").array() {
            let points = try [Double](json: function)
            guard points.count == 4 else { throw function.error("a timing function has 4 control-point numbers") }
            functions.append(points)
        }
        self.init(keyPath: try json.decode("keyPath"), valueType: type, values: values,
                  keyTimes: try json.decode("keyTimes"), timingFunctions: functions,
                  calculationMode: try json.decode("calculationMode"), duration: try json.decode("duration"))
        beginTime = try json.decode("beginTime")
        timeOffset = try json.decode("timeOffset")
        speed = try json.decode("speed")
        repeatCount = try json.decode("repeatCount")
        repeatDuration = try json.decode("repeatDuration")
        autoreverses = try json.decode("autoreverses")
        fillMode = try json.decode("fillMode")
        isRemovedOnCompletion = try json.decode("isRemovedOnCompletion")
    }

    public var json: JSONValue {
        [
            "keyPath": .string(keyPath), "valueType": .string(valueType.rawValue),
            "values": .array(values.map { CAValueCoding.encode($0, as: valueType) }),
            "keyTimes": keyTimes.json, "timingFunctions": .array(timingFunctions.map { $0.json }),
            "calculationMode": .string(calculationMode), "beginTime": .number(beginTime), "duration": .number(duration),
            "timeOffset": .number(timeOffset), "speed": .number(speed), "repeatCount": .number(repeatCount),
            "repeatDuration": .number(repeatDuration), "autoreverses": .bool(autoreverses),
            "fillMode": .string(fillMode), "isRemovedOnCompletion": .bool(isRemovedOnCompletion),
        ]
    }
}
