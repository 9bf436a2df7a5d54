// The platform-independent half of the Core Animation loader: what every layer and animation of a
// `keyframe export --to core-animation` file gets, decided without QuartzCore, so it compiles and is tested on Linux.
// `KeyframeLayerTree` (Apple platforms only) copies these values onto CALayer / CAAnimationGroup / CAKeyframeAnimation.
import Foundation

/// A Core Animation export file read into plain values, one field per Core Animation property.
///
/// Everything the loader decides happens here: the file's spelling (JSON or property list), its format and version,
/// every field's type and arity, where images are read from (inside the file's folder only), and the media-timing
/// rules Core Animation needs spelled out (a `beginTime` of 0 becomes ``Timing/beginTimeAtZero``). What is left for
/// the QuartzCore side is a field-for-field copy.
///
/// ```swift
/// let description = try LayerTreeDescription(contentsOf: url)
/// print(description.clip, description.root.sublayers.count)
/// ```
public struct LayerTreeDescription: Sendable, Hashable {
    /// The format name a file must carry in `format`.
    public static let formatName = "keyframe-core-animation"
    /// The one version this loader reads.
    public static let formatVersion = 1

    /// The clip's name.
    public var clip: String
    /// Frames per second of the source.
    public var frameRate: Double
    /// The clip's length in seconds.
    public var duration: Double
    /// The source's loop count (0: forever), for the app to use.
    public var loopCount: Int
    /// The images layers show, by id, as files inside the export's folder.
    public var images: [String: URL]
    /// The root layer.
    public var root: Layer

    /// One `CALayer`.
    public struct Layer: Sendable, Hashable {
        public var name: String
        public var bounds: Rect
        public var anchorPoint: Point
        public var position: Point
        /// `CATransform3D` `m11 … m44`, row by row.
        public var transform: [Double]
        public var opacity: Float
        public var isHidden: Bool
        public var zPosition: Double
        public var allowsGroupOpacity: Bool
        /// The id of an image in ``LayerTreeDescription/images`` (nil: no contents).
        public var contents: String?
        public var contentsRect: Rect
        /// The layer's own media timing (`beginTime` is copied as written: 0 on a layer means "parent time 0").
        public var beginTime: Double
        public var timeOffset: Double
        public var speed: Float
        /// The group added under the key `keyframe`.
        public var animation: AnimationGroup?
        /// `CALayer.mask` (zero or one layer).
        public var mask: [Layer]
        /// Back to front.
        public var sublayers: [Layer]
        /// A `CAShapeLayer`'s closed polygon in bounds space, filled opaque (non-zero rule); empty for a plain
        /// `CALayer`. Mesh triangles use it as their mask.
        public var path: [Point] = []
    }

    /// The `CAMediaTiming` fields of an animation.
    public struct Timing: Sendable, Hashable {
        /// Core Animation reads an animation `beginTime` of exactly 0 as "now"; this value (AVFoundation's
        /// `AVCoreAnimationBeginTimeAtZero`) is the documented way to say time zero, so a file's 0 becomes it.
        public static let beginTimeAtZero: Double = 1e-100

        public var beginTime: Double
        public var duration: Double
        public var timeOffset: Double
        public var speed: Float
        public var repeatCount: Float
        public var repeatDuration: Double
        public var autoreverses: Bool
        /// `CAMediaTimingFillMode` raw value (`both`, `forwards`, `backwards`, `removed`).
        public var fillMode: String
        public var isRemovedOnCompletion: Bool
    }

    /// A `CAAnimationGroup`.
    public struct AnimationGroup: Sendable, Hashable {
        public var timing: Timing
        public var animations: [KeyframeAnimation]
    }

    /// A `CAKeyframeAnimation`.
    public struct KeyframeAnimation: Sendable, Hashable {
        public var keyPath: String
        public var values: [Value]
        public var keyTimes: [Double]
        /// `CAMediaTimingFunction(controlPoints:)`, four numbers each.
        public var timingFunctions: [[Float]]
        /// `CAAnimationCalculationMode` raw value.
        public var calculationMode: String
        public var timing: Timing
    }

    /// One keyframe value, typed by the animation's `valueType`.
    public enum Value: Sendable, Hashable {
        case number(Double)
        case bool(Bool)
        case point(Point)
        /// 16 numbers, as ``Layer/transform``.
        case transform([Double])
    }

    /// A point (`CGPoint`).
    public struct Point: Sendable, Hashable {
        public var x: Double, y: Double
    }

    /// A rectangle (`CGRect`).
    public struct Rect: Sendable, Hashable {
        public var x: Double, y: Double, width: Double, height: Double
    }
}
