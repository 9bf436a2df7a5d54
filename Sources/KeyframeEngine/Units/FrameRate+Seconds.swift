import KeyframeModel

extension FrameRate {
    /// The wall time that `frames` last at this rate.
    public func seconds(for frames: Frames) -> Seconds { Seconds(frames.value / framesPerSecond) }

    /// The number of frames that pass in `seconds` at this rate.
    public func frames(for seconds: Seconds) -> Frames { Frames(seconds.value * framesPerSecond) }
}
