/// When each frame of an animation shown at a fixed rate ends, in whole ticks of a format's clock.
///
/// Formats count frame delays in whole units (GIF in centiseconds, WebP in milliseconds). Rounding each delay alone
/// would drift (24 fps in centiseconds: 4 cs each, 96 cs a second instead of 100), so each frame ends at its exact
/// time rounded to the nearest tick and its delay is the difference from the previous end: no frame is off by more
/// than half a tick from its exact time, and the total is never off by more than half a tick (24 fps in centiseconds:
/// 4, 4, 5, 4, 4, 4, …, 100 cs a second).
public enum AnimationTiming {
    /// The tick at which frame `index` (from 0) begins when frames are shown at `fps` and the clock has
    /// `ticksPerSecond` ticks.
    public static func start(ofFrame index: Int, fps: Double, ticksPerSecond: Int) -> Int {
        guard fps.isFinite, fps > 0 else { return index * ticksPerSecond }
        return Int((Double(index) * Double(ticksPerSecond) / fps).rounded())
    }

    /// The delays of frames grouped into runs: `runs[i]` consecutive frames at `fps` shown as one, each run's delay
    /// in ticks (at least `minimum`).
    public static func delays(runs: [Int], fps: Double, ticksPerSecond: Int, minimum: Int = 1) -> [Int] {
        var first = 0
        var delays: [Int] = []
        delays.reserveCapacity(runs.count)
        for run in runs {
            let start = self.start(ofFrame: first, fps: fps, ticksPerSecond: ticksPerSecond)
            let end = self.start(ofFrame: first + run, fps: fps, ticksPerSecond: ticksPerSecond)
            delays.append(max(minimum, end - start))
            first += run
        }
        return delays
    }
}
