import KeyframeModel
import KeyframeEngine

/// One output frame: its number and time, and the clips (one or several) sampled into it, back to front.
public struct FramePlan: Sendable, Equatable {
    /// One clip sampled into the frame.
    public struct Layer: Sendable, Equatable {
        /// Index of the scene (document) in the batch's scene list.
        public var scene: Int
        /// The clip to sample.
        public var clip: Clip
        /// Clip time in document frames, counted from the clip's start.
        public var time: Frames
        /// For a clip played longer than its own duration (`--duration`): document frames of playback since the
        /// clip started, beyond its end; ``time`` is then where the playhead is (§4.10) and instances that keep
        /// their own time age with this (§4.7). `nil`: the playback time is ``time``.
        public var playback: Frames?

        public init(scene: Int, clip: Clip, time: Frames, playback: Frames? = nil) {
            self.scene = scene
            self.clip = clip
            self.time = time
            self.playback = playback
        }

        /// This layer's pose in `scene`.
        public func pose(in scene: RenderScene) -> Pose {
            if let playback { return scene.sampler.sample(clip: clip, playback: playback) }
            return scene.sampler.sample(clip: clip, time: time)
        }
    }

    /// The frame number, as it appears in the file name and on the contact sheet.
    public var number: Int
    /// The frame's time in seconds from the start of the render.
    public var seconds: Double
    /// What to draw, back to front.
    public var layers: [Layer]

    public init(number: Int, seconds: Double, layers: [Layer]) {
        self.number = number
        self.seconds = seconds
        self.layers = layers
    }

    /// Which frames of a clip to render.
    public enum Selection: Sendable, Equatable {
        /// Every frame of the clip at the output rate.
        case all
        /// Output frames `lowerBound...upperBound` (numbered from 0 at the output rate).
        case range(ClosedRange<Int>)
        /// One frame at each of these times in seconds; numbered by the output frame each falls in.
        case times([Double])
    }

    /// The number of frames one pass of `clip` lasts at `fps` frames per second (saturating at about 10⁹).
    public static func frameCount(of clip: Clip, documentRate: FrameRate, fps: Double) -> Int {
        let seconds = clip.duration.value / documentRate.framesPerSecond
        return max(1, Int(saturatingRounded: (seconds * fps - 1e-9).rounded(.up)))
    }

    /// The number of frames `clip` renders at `fps`: one pass, or `duration` seconds when given.
    public static func frameCount(of clip: Clip, documentRate: FrameRate, fps: Double, duration: Double?) -> Int {
        guard let duration, duration.isFinite, duration > 0 else {
            return frameCount(of: clip, documentRate: documentRate, fps: fps)
        }
        return max(1, Int(saturatingRounded: (duration * fps - 1e-9).rounded(.up)))
    }

    /// The most frames one clip may render without choosing them (`--frames` or `--at` can pick fewer).
    public static let maximumFrames = 100_000

    /// The frames to render for `clip` of scene `scene`, at `fps` frames per second.
    ///
    /// - Throws: ``RenderError`` for an empty or out-of-range selection, a negative time, or two times that fall
    ///   on the same frame number.
    ///
    /// With `duration` (seconds), the clip is played for that long instead of one pass: it wraps between plays
    /// and rests on its last frame after `loopCount` plays (§4.10), while instances that keep their own time run on.
    public static func plans(for clip: Clip, scene: Int = 0, documentRate: FrameRate, fps: Double,
                             selection: Selection, duration: Double? = nil) throws(RenderError) -> [FramePlan] {
        guard fps.isFinite, fps > 0 else { throw RenderError(.invalidSetting("--fps must be a positive number")) }
        if let duration, !(duration.isFinite && duration > 0) {
            throw RenderError(.invalidSetting("--duration must be a positive number of seconds"))
        }
        let count = frameCount(of: clip, documentRate: documentRate, fps: fps, duration: duration)
        func plan(_ number: Int, _ seconds: Double) -> FramePlan {
            let elapsed = seconds * documentRate.framesPerSecond
            guard duration != nil else {
                return FramePlan(number: number, seconds: seconds,
                                 layers: [Layer(scene: scene, clip: clip, time: Frames(elapsed))])
            }
            let time = Frames(PoseSampler.clipTime(clip, playback: elapsed))
            return FramePlan(number: number, seconds: seconds,
                             layers: [Layer(scene: scene, clip: clip, time: time, playback: Frames(elapsed))])
        }
        switch selection {
        case .all:
            guard count <= maximumFrames else {
                throw RenderError(.invalidSetting(
                    "clip \"\(clip.name)\"\(duration == nil ? "" : " played for \(duration!) s") lasts \(count) frames at \(formatRate(fps)) fps, more than the "
                        + "\(maximumFrames) Keyframe renders in one go; choose some with --frames or --at"))
            }
            return (0..<count).map { plan($0, Double($0) / fps) }
        case .range(let range):
            guard range.lowerBound >= 0, range.upperBound < count else {
                throw RenderError(.invalidSetting(
                    "--frames \(range.lowerBound)..\(range.upperBound) is outside clip \"\(clip.name)\", "
                        + "which has frames 0..\(count - 1) at \(formatRate(fps)) fps"))
            }
            return range.map { plan($0, Double($0) / fps) }
        case .times(let times):
            var seen: [Int: Double] = [:]
            var plans: [FramePlan] = []
            for seconds in times {
                guard seconds.isFinite, seconds >= 0 else {
                    throw RenderError(.invalidSetting("--at \(seconds): times must be zero or positive seconds"))
                }
                let number = Int(saturatingRounded: (seconds * fps + 1e-9).rounded(.down))
                guard number < count else {
                    throw RenderError(.invalidSetting(
                        "--at \(formatRate(seconds)) is after the end of clip \"\(clip.name)\", which lasts "
                            + "\(formatRate(Double(count) / fps)) s (frames 0..\(count - 1) at \(formatRate(fps)) fps)"))
                }
                if let other = seen[number] {
                    throw RenderError(.invalidSetting(
                        "--at \(other) and \(seconds) both fall on frame \(number) at \(formatRate(fps)) fps"))
                }
                seen[number] = seconds
                plans.append(plan(number, seconds))
            }
            return plans
        }
    }
}

/// A frame rate or time for messages: `24`, `29.97`, `1e+19` (any value, also one no integer type holds).
func formatRate(_ fps: Double) -> String {
    fps == fps.rounded() && abs(fps) < 1e15 ? String(Int(fps)) : String(fps)
}
