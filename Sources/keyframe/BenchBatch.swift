import ArgumentParser
import Dispatch
import Foundation
import KeyframeBatch
import KeyframeFiles
import KeyframeImport

/// `keyframe bench batch`: the batch runner against bare in-process conversion of the same exports.
struct BenchBatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Batch conversion: --jobs 1 vs 2, batch overhead over a bare conversion loop, and a no-change rerun.",
        discussion: """
            Over every export under the roots (default: ../shared/corpus), measured in the same run: the baseline, \
            a plain loop that imports each export, writes its JSON bytes and nothing else; `batch --jobs 1` and \
            `--jobs 2` into fresh output folders; and a second `--jobs 2` run with nothing changed. Prints the \
            speed-up of 2 jobs over 1, batch's overhead over the baseline, and the no-change run as a share of the \
            first. The best of --repetitions is kept for each.
            """)

    @Argument(help: "Folders to search for exports (default: ../shared/corpus).")
    var roots: [String] = []

    @Option(help: "Repetitions; the fastest is kept.")
    var repetitions = 3

    func validate() throws {
        try NumericBounds.repetitions.check(repetitions, "--repetitions")
    }

    func run() throws {
        let rootURLs = roots.isEmpty ? [URL(fileURLWithPath: "../shared/corpus")] : roots.map { URL(fileURLWithPath: $0) }
        let scratchFolder = try FrameSource.scratchFolder(.benchBatch)
        defer { scratchFolder.remove() }
        let scratch = URL(fileURLWithPath: scratchFolder.path)
        let exports: [BatchExport]
        do { exports = try BatchDiscovery.discover(roots: rootURLs, excluding: scratch) } catch {
            throw fail(error.message)
        }
        guard !exports.isEmpty else { throw fail("no exports under \(rootURLs.map(\.path).joined(separator: ", "))") }
        let megabytes = Double(exports.reduce(0) { $0 + $1.size }) / 1_000_000

        // Wall time, and the CPU time the process spent meanwhile (all threads): on a loaded machine the wall time of
        // a single-threaded run swings with what else runs, its CPU time much less.
        var lastCPU = 0.0
        func processCPUSeconds() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        func seconds(_ body: () throws -> Void) rethrows -> Double {
            let cpuStart = processCPUSeconds()
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            lastCPU = processCPUSeconds() - cpuStart
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        var counter = 0
        func freshFolder() -> URL {
            counter += 1
            return scratch.appendingPathComponent("run-\(counter)")
        }
        func batch(jobs: Int, into out: URL) throws -> BatchReport {
            var options = BatchOptions(toolVersion: Keyframe.configuration.version)
            options.jobs = jobs
            return try BatchRunner(exports: exports, output: out, options: options).run()
        }

        var bare = Double.infinity, one = Double.infinity, two = Double.infinity, rerun = Double.infinity
        var bareCPU = Double.infinity, oneCPU = Double.infinity, rerunCPU = Double.infinity, firstCPU = Double.infinity
        var failed = 0
        for _ in 0..<max(1, repetitions) {
            let bareOut = freshFolder()
            bare = min(bare, seconds {
                for export in exports {
                    guard let document = try? Importer.importDocument(at: export.source) else { continue }
                    try? AtomicFile.write(document.jsonBytes(), to: bareOut.path + "/" + export.id + ".json")
                }
            })
            bareCPU = min(bareCPU, lastCPU)
            do {
                var report: BatchReport?
                one = min(one, try seconds { report = try batch(jobs: 1, into: freshFolder()) })
                oneCPU = min(oneCPU, lastCPU)
                failed = report?.count(.failed) ?? 0
                let out = freshFolder()
                two = min(two, try seconds { _ = try batch(jobs: 2, into: out) })
                firstCPU = min(firstCPU, lastCPU)
                rerun = min(rerun, try seconds {
                    let second = try batch(jobs: 2, into: out)
                    if second.count(.converted) != 0 { throw BatchError(.input, "the no-change run converted something") }
                })
                rerunCPU = min(rerunCPU, lastCPU)
            } catch let error as BatchError {
                throw fail(error.message)
            }
        }
        func ms(_ value: Double) -> String { String(format: "%8.1f ms", value * 1000) }
        print("exports: \(exports.count) (\(String(format: "%.1f", megabytes)) MB of input, \(failed) failing)")
        print("bare conversion loop   \(ms(bare))   (baseline: import + JSON bytes + write, one thread)")
        print("batch --jobs 1         \(ms(one))   overhead over baseline \(String(format: "%+.1f %%", (one / bare - 1) * 100))")
        print("batch --jobs 2         \(ms(two))   speed-up over --jobs 1 \(String(format: "%.2f×", one / two))")
        print("no-change rerun        \(ms(rerun))   \(String(format: "%.1f %%", rerun / two * 100)) of the first --jobs 2 run")
        print("CPU time (all threads): bare \(ms(bareCPU)), --jobs 1 \(ms(oneCPU)) (overhead "
              + "\(String(format: "%+.1f %%", (oneCPU / bareCPU - 1) * 100))), first --jobs 2 \(ms(firstCPU)), rerun "
              + "\(ms(rerunCPU)) (\(String(format: "%.1f %%", rerunCPU / firstCPU * 100)))")
    }
}
