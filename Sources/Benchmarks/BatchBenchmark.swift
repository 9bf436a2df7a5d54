import Foundation
import KeyframeBatch
import KeyframeFiles
import KeyframeImport

/// Measures `keyframe batch` against a bare conversion loop over the same exports, in the same run.
///
/// Over every export under the roots: the baseline, a plain loop that imports each export, serializes its JSON and
/// writes it atomically, one thread, nothing else; `batch --jobs 1` and `--jobs 2` into fresh output folders; and a
/// second `--jobs 2` run with nothing changed. Each repetition runs all four, the baseline and `--jobs 1` next to
/// each other in alternating order (so that a change of load hits both alike); the fastest of each is kept, in wall
/// time and in process CPU time (all threads), and the overhead is also given as the median of the repetitions' own
/// ratios of `--jobs 1` to the baseline beside it, which a loaded machine disturbs less than the ratio of minima.
public enum BatchBenchmark {
    /// What to measure.
    public struct Configuration: Sendable {
        /// Folders to search for exports.
        public var roots: [URL]
        /// Repetitions; the fastest of each run is kept.
        public var repetitions = 3
        /// The tool version batch records in its manifests.
        public var toolVersion: String

        public init(roots: [URL], toolVersion: String) {
            self.roots = roots
            self.toolVersion = toolVersion
        }
    }

    /// The figures of one benchmark run.
    public struct Report: Sendable, CustomStringConvertible {
        public var exports: Int
        public var inputBytes: Int
        /// Exports batch reported as failed (the baseline skips what it cannot import).
        public var failed: Int
        public var bareLoop: BenchmarkClock.Span
        public var oneJob: BenchmarkClock.Span
        public var twoJobs: BenchmarkClock.Span
        public var rerun: BenchmarkClock.Span
        /// Median over the repetitions of `--jobs 1` ÷ the baseline run beside it, minus 1: wall and CPU.
        public var pairedOverhead: Double
        public var pairedCPUOverhead: Double

        /// Batch's overhead over the baseline, wall and CPU (goal ≤ 5 %), from the fastest runs.
        public var overhead: Double { oneJob.wall / bareLoop.wall - 1 }
        public var cpuOverhead: Double { oneJob.processCPU / bareLoop.processCPU - 1 }
        /// Two jobs' speed-up over one (goal ≥ 1.8).
        public var speedup: Double { oneJob.wall / twoJobs.wall }
        /// The no-change rerun as a share of the first two-job run (goal ≤ 5 %).
        public var rerunShare: Double { rerun.wall / twoJobs.wall }

        public var description: String {
            func ms(_ value: Double) -> String { String(format: "%8.1f ms", value * 1000) }
            func percent(_ value: Double) -> String { String(format: "%+.1f %%", value * 100) }
            return """
            exports: \(exports) (\(String(format: "%.1f", Double(inputBytes) / 1_000_000)) MB of input, \(failed) failing)
            bare conversion loop   \(ms(bareLoop.wall))   (baseline: import + JSON bytes + write, one thread)
            batch --jobs 1         \(ms(oneJob.wall))   overhead over baseline \(percent(overhead))
            batch --jobs 2         \(ms(twoJobs.wall))   speed-up over --jobs 1 \(String(format: "%.2f×", speedup))
            no-change rerun        \(ms(rerun.wall))   \(String(format: "%.1f %%", rerunShare * 100)) of the first --jobs 2 run
            CPU time (all threads): bare \(ms(bareLoop.processCPU)), --jobs 1 \(ms(oneJob.processCPU)) (overhead \
            \(percent(cpuOverhead))), first --jobs 2 \(ms(twoJobs.processCPU)), rerun \(ms(rerun.processCPU)) \
            (\(String(format: "%.1f %%", rerun.processCPU / twoJobs.processCPU * 100)))
            overhead, median of each repetition's --jobs 1 ÷ baseline: \(percent(pairedOverhead)) wall, \
            \(percent(pairedCPUOverhead)) CPU
            """
        }
    }

    /// Runs the benchmark; outputs go to a scratch folder that is removed afterwards.
    public static func run(_ configuration: Configuration) throws(BenchmarkError) -> Report {
        let scratchFolder: ScratchFolder
        do { scratchFolder = try ScratchFolder(.benchBatch) } catch { throw BenchmarkError("\(error)") }
        defer { scratchFolder.remove() }
        let scratch = URL(fileURLWithPath: scratchFolder.path)
        do {
            let exports = try BatchDiscovery.discover(roots: configuration.roots, excluding: scratch)
            guard !exports.isEmpty else {
                throw BenchmarkError("no exports under \(configuration.roots.map(\.path).joined(separator: ", "))")
            }
            var counter = 0
            func freshFolder() -> URL {
                counter += 1
                return scratch.appendingPathComponent("run-\(counter)")
            }
            func batch(jobs: Int, into out: URL) throws -> BatchReport {
                var options = BatchOptions(toolVersion: configuration.toolVersion)
                options.jobs = jobs
                return try BatchRunner(exports: exports, output: out, options: options).run()
            }
            var bare = BenchmarkClock.Span.worst, one = BenchmarkClock.Span.worst
            var two = BenchmarkClock.Span.worst, rerun = BenchmarkClock.Span.worst
            var failed = 0
            var ratios: [Double] = [], cpuRatios: [Double] = []
            for repetition in 0..<max(1, configuration.repetitions) {
                func bareLoop() -> BenchmarkClock.Span {
                    let bareOut = freshFolder()
                    return BenchmarkClock.measure {
                        for export in exports {
                            guard let document = try? Importer.importDocument(at: export.source) else { continue }
                            try? AtomicFile.write(document.jsonBytes(), to: bareOut.path + "/" + export.id + ".json")
                        }
                    }.span
                }
                var bareSpan = BenchmarkClock.Span.worst
                if repetition % 2 == 0 { bareSpan = bareLoop() }
                let (report, oneSpan) = try BenchmarkClock.measure { try batch(jobs: 1, into: freshFolder()) }
                if repetition % 2 == 1 { bareSpan = bareLoop() }
                bare = bare.fastest(bareSpan)
                one = one.fastest(oneSpan)
                ratios.append(oneSpan.wall / bareSpan.wall)
                cpuRatios.append(oneSpan.processCPU / bareSpan.processCPU)
                failed = report.count(.failed)
                let out = freshFolder()
                two = two.fastest(try BenchmarkClock.measure { try batch(jobs: 2, into: out) }.span)
                let (second, rerunSpan) = try BenchmarkClock.measure { try batch(jobs: 2, into: out) }
                guard second.count(.converted) == 0 else { throw BenchmarkError("the no-change run converted something") }
                rerun = rerun.fastest(rerunSpan)
            }
            func median(_ values: [Double]) -> Double {
                let sorted = values.sorted()
                return sorted.count % 2 == 1 ? sorted[sorted.count / 2]
                    : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            }
            return Report(exports: exports.count, inputBytes: exports.reduce(0) { $0 + $1.size }, failed: failed,
                          bareLoop: bare, oneJob: one, twoJobs: two, rerun: rerun,
                          pairedOverhead: median(ratios) - 1, pairedCPUOverhead: median(cpuRatios) - 1)
        } catch let error as BenchmarkError {
            throw error
        } catch let error as BatchError {
            throw BenchmarkError(error.message)
        } catch {
            throw BenchmarkError("\(error)")
        }
    }
}
