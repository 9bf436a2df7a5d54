import Foundation

/// The clocks a benchmark reads: wall time, and the CPU time of the process (all threads) and of the calling thread.
///
/// On a shared machine a single-threaded measurement's wall time swings with what else runs, its CPU time much less;
/// benchmarks report both.
public enum BenchmarkClock {
    /// Seconds on the monotonic clock.
    public static func wall() -> Double { read(CLOCK_MONOTONIC) }

    /// CPU seconds used by this process so far, all threads.
    public static func processCPU() -> Double { read(CLOCK_PROCESS_CPUTIME_ID) }

    /// CPU seconds used by the calling thread so far.
    public static func threadCPU() -> Double { read(CLOCK_THREAD_CPUTIME_ID) }

    private static func read(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// What one timed run took.
    public struct Span: Sendable {
        /// Wall-clock seconds.
        public var wall: Double
        /// CPU seconds of the whole process (all threads) meanwhile.
        public var processCPU: Double
        /// CPU seconds of the calling thread meanwhile.
        public var threadCPU: Double

        /// An empty span to take minima into: every field infinite.
        public static let worst = Span(wall: .infinity, processCPU: .infinity, threadCPU: .infinity)

        /// The field-by-field minimum (each clock's best run).
        public func fastest(_ other: Span) -> Span {
            Span(wall: min(wall, other.wall), processCPU: min(processCPU, other.processCPU),
                 threadCPU: min(threadCPU, other.threadCPU))
        }
    }

    /// Runs `body` and returns its result with the time it took on each clock.
    public static func measure<T>(_ body: () throws -> T) rethrows -> (result: T, span: Span) {
        let cpu = processCPU(), thread = threadCPU(), start = wall()
        let result = try body()
        let span = Span(wall: wall() - start, processCPU: processCPU() - cpu, threadCPU: threadCPU() - thread)
        return (result, span)
    }
}
