/// How one node's motion differs between the two versions: per channel, the largest difference over the node's
/// timeline and the frame where it occurs, each side's value there, and the frames where what it shows differs.
///
/// Values are the node's own (parent-relative) tracks, sampled at every frame of its composition with each
/// keyframe's easing, so a change is reported on the node the animator edited, not on every child it carries.
public struct MotionChange: Sendable, Hashable {
    /// A numeric channel.
    public enum Channel: String, Sendable, Hashable, CaseIterable {
        /// Distance between the two positions, in pixels.
        case position
        /// Degrees.
        case rotation
        /// Percentage points of the larger of the x and y scale differences.
        case scale
        /// Degrees.
        case skew
        /// Percentage points of the effective alpha (opacity × the colour transform's alpha multiplier).
        case alpha

        /// The unit the difference is given in.
        public var unit: String {
            switch self {
            case .position: return "px"
            case .rotation, .skew: return "°"
            case .scale, .alpha: return "%"
            }
        }
    }

    /// A held property whose value differs at some frames.
    public enum Property: String, Sendable, Hashable, CaseIterable {
        /// The sprite, mesh or nested composition shown (sprites and compositions matched across renames).
        case content
        case visible
        case drawOrder
        case blendMode
        case pivot
        case color
        case filters
        case deform
    }

    /// The largest difference of one channel.
    public struct ChannelDifference: Sendable, Hashable {
        public var channel: Channel
        /// The largest difference, in ``Channel/unit``.
        public var largest: Double
        /// The composition frame where it occurs (the first such frame).
        public var frame: Int
        /// The older version's value there (x and y for position and scale).
        public var before: [Double]
        /// The newer version's value there.
        public var after: [Double]
        /// How many frames differ beyond the tolerance.
        public var frames: Int
        /// Where ``frame`` falls in the clips that play the composition.
        public var clips: [ClipTime]
        /// The node's transform at ``frame`` in the terms its source file writes (an Animate element's matrix, a
        /// DragonBones bone's parent-local x, y, skX, skY), before and after; `nil` for channels that are not part
        /// of the transform (alpha).
        public var source: SourceValues? = nil
        /// Both versions' values at every compared frame and the frames that differ, for the page's curves.
        public var series: Series? = nil
    }

    /// One channel of both versions at every frame of the composition (x and y for position and scale).
    public struct Series: Sendable, Hashable {
        /// The older version's values, frame by frame.
        public var before: [[Double]]
        /// The newer version's values, frame by frame.
        public var after: [[Double]]
        /// The frames whose difference is beyond the tolerance, ascending.
        public var differing: [Int]
    }

    /// A composition frame as a moment of a clip.
    public struct ClipTime: Sendable, Hashable {
        public var clip: String
        /// Frames from the clip's start.
        public var frame: Int
        public var seconds: Double
        /// For a node of a nested composition: the instances, from the clip's composition down, that show it
        /// (`["arm #0"]`); empty when the clip plays the composition itself.
        public var through: [String] = []
        /// How many of the clip's frames show the composition frame (through ``through``); 1 for a direct clip.
        public var count: Int = 1

        public init(clip: String, frame: Int, seconds: Double, through: [String] = [], count: Int = 1) {
            self.clip = clip
            self.frame = frame
            self.seconds = seconds
            self.through = through
            self.count = count
        }
    }

    /// A held property that differs.
    public struct PropertyDifference: Sendable, Hashable {
        public var property: Property
        /// The first frame where it differs.
        public var firstFrame: Int
        /// How many frames differ.
        public var frames: Int
        /// The values at ``firstFrame``, in words (`sprite 0003`, `hidden`).
        public var before: String
        public var after: String
        /// Where ``firstFrame`` falls in the clips that play the composition.
        public var clips: [ClipTime]
    }

    /// The composition's id in the newer version.
    public var composition: String
    /// The composition's name in the newer version.
    public var compositionName: String
    /// The node's id in the newer version.
    public var node: String
    /// The node's name path inside its composition: parents' names, then its own (`legs › leg_back #0`).
    public var path: [String]
    /// The channels that differ beyond the tolerance, in ``Channel`` order.
    public var channels: [ChannelDifference]
    /// The held properties that differ, in ``Property`` order.
    public var properties: [PropertyDifference]
    /// How many frames were compared (the longer of the two timelines).
    public var comparedFrames: Int

    /// `walker › legs › leg_back #0`.
    public var displayName: String { ([compositionName] + path).joined(separator: " › ") }
}
