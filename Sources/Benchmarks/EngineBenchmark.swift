import KeyframeEngine

/// Measures the cost of advancing and sampling many animators per tick.
///
/// It reads real clocks (wall and thread CPU time, ``BenchmarkClock``) to time itself; the animators it drives still
/// run on a ``VirtualClock``. Four workloads run in the same
/// process: animators with cubic Bézier curves sampled in one batch
/// (``VirtualClock/primaryScalars(into:)``), the same sampled one by one
/// (``PropertyAnimator/primaryScalar``), animators with linear curves (batch), and plain
/// linear interpolation of the same number of values (the floor any engine must pay). Every
/// workload adds up every value it reads into ``Report/checksum``, so nothing can be optimised away.
///
/// ```swift
/// let report = EngineBenchmark.run(animators: 10_000, ticks: 120, repetitions: 3)
/// print(report)   // per-tick times and the cubic / plain-interpolation ratio
/// ```
public enum EngineBenchmark {
    /// Timings of one benchmark run.
    public struct Report: Sendable, CustomStringConvertible {
        /// Animators (and interpolations) per workload.
        public var animators: Int
        /// Ticks measured per workload.
        public var ticks: Int
        /// Median time per tick advancing animators with cubic Bézier curves and sampling them in one batch.
        public var cubicAnimatorTick: Seconds
        /// The same, reading each animator's value through the animator object.
        public var cubicAnimatorObjectSamplingTick: Seconds
        /// Median time per tick advancing and sampling (batch) animators with linear curves.
        public var linearAnimatorTick: Seconds
        /// Median time per tick of plain linear interpolations (`a + (b − a)·t`).
        public var plainInterpolationTick: Seconds
        /// Thread CPU time per tick (the mean over the measured ticks: CPU time does not grow while the thread waits)
        /// of the cubic (batch sampling) and plain-interpolation workloads.
        public var cubicAnimatorTickCPU: Seconds
        public var plainInterpolationTickCPU: Seconds
        /// How many runs of the whole benchmark the figures are the fastest of.
        public var repetitions = 1
        /// A sum of every sampled value, so the work cannot be optimised away.
        public var checksum: Double

        /// Cubic animators relative to plain interpolation (the goal is ≤ 10).
        public var cubicToPlainRatio: Double { cubicAnimatorTick.value / plainInterpolationTick.value }
        /// Cubic animators sampled one by one relative to plain interpolation.
        public var cubicObjectSamplingToPlainRatio: Double {
            cubicAnimatorObjectSamplingTick.value / plainInterpolationTick.value
        }
        /// Cubic animators relative to linear animators (the cost of the curve solver alone).
        public var cubicToLinearAnimatorRatio: Double { cubicAnimatorTick.value / linearAnimatorTick.value }
        /// Cubic animators relative to plain interpolation in thread CPU time.
        public var cubicToPlainCPURatio: Double { cubicAnimatorTickCPU.value / plainInterpolationTickCPU.value }

        /// Keeps the faster figure of each workload (the best of several runs).
        public mutating func keepFastest(of other: Report) {
            cubicAnimatorTick = min(cubicAnimatorTick, other.cubicAnimatorTick)
            cubicAnimatorObjectSamplingTick = min(cubicAnimatorObjectSamplingTick, other.cubicAnimatorObjectSamplingTick)
            linearAnimatorTick = min(linearAnimatorTick, other.linearAnimatorTick)
            plainInterpolationTick = min(plainInterpolationTick, other.plainInterpolationTick)
            cubicAnimatorTickCPU = min(cubicAnimatorTickCPU, other.cubicAnimatorTickCPU)
            plainInterpolationTickCPU = min(plainInterpolationTickCPU, other.plainInterpolationTickCPU)
            repetitions += other.repetitions
            checksum += other.checksum
        }

        /// A short multi-line summary in microseconds.
        public var description: String {
            func us(_ s: Seconds) -> String { String(Int((s.value * 1e7).rounded()) / 10) + "." +
                String(Int((s.value * 1e7).rounded()) % 10) + " µs" }
            func ratio(_ r: Double) -> String { String(Double(Int(r * 100)) / 100) + "×" }
            return """
            engine benchmark: \(animators) animators, \(ticks) ticks
              cubic animators, batch sampling       \(us(cubicAnimatorTick)) per tick
              cubic animators, per-object sampling  \(us(cubicAnimatorObjectSamplingTick)) per tick
              linear animators, batch sampling      \(us(linearAnimatorTick)) per tick
              plain lerp                            \(us(plainInterpolationTick)) per tick
              cubic / plain lerp \(ratio(cubicToPlainRatio)) (per-object sampling \(ratio(cubicObjectSamplingToPlainRatio))), cubic / linear animators \(ratio(cubicToLinearAnimatorRatio))
              thread CPU per tick (mean): cubic animators \(us(cubicAnimatorTickCPU)), plain lerp \(us(plainInterpolationTickCPU)), cubic / plain lerp \(ratio(cubicToPlainCPURatio))
            """ + (repetitions > 1 ? "\n  (fastest of \(repetitions) runs per workload)" : "")
        }
    }

    /// Runs the four workloads `repetitions` times and reports, for each, the fastest of its median times per tick
    /// (each tick is timed alone).
    ///
    /// - Parameters:
    ///   - animators: how many animators (and plain interpolations) each tick advances and samples.
    ///   - ticks: how many 1/60 s ticks are measured per workload (after one warm-up tick).
    public static func run(animators: Int = 10_000, ticks: Int = 120, repetitions: Int) -> Report {
        var best = run(animators: animators, ticks: ticks)
        for _ in 1..<max(1, repetitions) { best.keepFastest(of: run(animators: animators, ticks: ticks)) }
        return best
    }

    /// Runs the four workloads once and reports the median time per tick of each (each tick is timed alone).
    public static func run(animators: Int = 10_000, ticks: Int = 120) -> Report {
        let count = max(1, animators), tickCount = max(1, ticks)
        let dt = 1.0 / 60
        // Long enough that no animator completes during the run, so every tick does full work.
        let duration = Double(tickCount + 2) * dt * 1.25
        let curves: [TimingCurve] = [.easeIn, .easeOut, .easeInEaseOut, .default, .bezier(0.68, -0.55, 0.265, 1.55),
                                     .bezier(0.1, 0.7, 1, 0.1), .bezier(0.3, 0.2, 0.7, 0.9)]
        var checksum = 0.0

        func animatorWorkload(batch: Bool, _ curveAt: (Int) -> TimingCurve) -> (wall: Seconds, cpu: Seconds) {
            let clock = VirtualClock()
            var list: [PropertyAnimator] = []
            list.reserveCapacity(count)
            for i in 0..<count {
                // Different durations give every animator its own time fraction, so no two solves are alike.
                let animator = PropertyAnimator(duration: Seconds(duration * (1 + Double(i % 101) / 101)),
                                                timing: curveAt(i))
                _ = try? animator.addAnimations(.value(from: Double(i), to: Double(i) + 100))
                try? animator.start()
                clock.register(animator)
                list.append(animator)
            }
            var sum = 0.0
            var values = [Double](repeating: 0, count: count)
            var times: [Double] = []
            times.reserveCapacity(tickCount)
            var cpuStart = 0.0
            for tick in 0...tickCount {
                // Tick 0 warms up (and moves the animators into the lane).
                if tick == 1 { cpuStart = BenchmarkClock.threadCPU() }
                let start = BenchmarkClock.wall()
                clock.advance(by: Seconds(dt))
                if batch {
                    clock.primaryScalars(into: &values)
                    for value in values { sum += value }
                } else {
                    for animator in list { sum += animator.primaryScalar ?? 0 }
                }
                if tick > 0 { times.append(BenchmarkClock.wall() - start) }
            }
            let cpu = (BenchmarkClock.threadCPU() - cpuStart) / Double(tickCount)
            checksum += sum
            return (median(times), Seconds(cpu))
        }

        let cubic = animatorWorkload(batch: true) { curves[$0 % curves.count] }
        let cubicObjects = animatorWorkload(batch: false) { curves[$0 % curves.count] }
        let linear = animatorWorkload(batch: true) { _ in .linear }
        let plain = plainInterpolation(count: count, ticks: tickCount, step: dt / duration, checksum: &checksum)

        return Report(animators: count, ticks: tickCount, cubicAnimatorTick: cubic.wall,
                      cubicAnimatorObjectSamplingTick: cubicObjects.wall, linearAnimatorTick: linear.wall,
                      plainInterpolationTick: plain.wall, cubicAnimatorTickCPU: cubic.cpu,
                      plainInterpolationTickCPU: plain.cpu, checksum: checksum)
    }

    /// The baseline: `count` values advanced and interpolated linearly per tick, in flat arrays.
    private static func plainInterpolation(count: Int, ticks: Int, step: Double, checksum: inout Double)
        -> (wall: Seconds, cpu: Seconds)
    {
        var from = [Double](repeating: 0, count: count), to = from, time = from
        for i in 0..<count { from[i] = Double(i); to[i] = Double(i) + 100 }
        var sum = 0.0
        var times: [Double] = []
        times.reserveCapacity(ticks)
        var cpuStart = 0.0
        for tick in 0...ticks {
            if tick == 1 { cpuStart = BenchmarkClock.threadCPU() }
            let start = BenchmarkClock.wall()
            for i in 0..<count {
                let t = min(1, time[i] + step)
                time[i] = t
                sum += from[i] + (to[i] - from[i]) * t
            }
            if tick > 0 { times.append(BenchmarkClock.wall() - start) }
        }
        let cpu = (BenchmarkClock.threadCPU() - cpuStart) / Double(ticks)
        checksum += sum
        return (median(times), Seconds(cpu))
    }

    /// The median of per-tick times: robust against ticks stretched by other processes on a shared machine.
    private static func median(_ times: [Double]) -> Seconds {
        let sorted = times.sorted()
        guard !sorted.isEmpty else { return .zero }
        let middle = sorted.count / 2
        return Seconds(sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2)
    }

}
