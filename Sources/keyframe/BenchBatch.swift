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

    func run() throws {
        let rootURLs = roots.isEmpty ? [URL(fileURLWithPath: "../shared/corpus")] : roots.map { URL(fileURLWithPath: $0) }
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("keyframe-bench-batch-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let exports: [BatchExport]
        do { exports = try BatchDiscovery.discover(roots: rootURLs, excluding: scratch) } catch {
            throw fail(error.message)
        }
        guard !exports.isEmpty else { throw fail("no exports under \(rootURLs.map(\.path).joined(separator: ", "))") }
        let megabytes = Double(exports.reduce(0) { $0 + $1.size }) / 1_000_000

        func seconds(_ body: () throws -> Void) rethrows -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
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
        var failed = 0
        for _ in 0..<max(1, repetitions) {
            let bareOut = freshFolder()
            bare = min(bare, seconds {
                for export in exports {
                    guard let document = try? Importer.importDocument(at: export.source) else { continue }
                    try? AtomicFile.write(document.jsonBytes(), to: bareOut.path + "/" + export.id + ".json")
                }
            })
            do {
                var report: BatchReport?
                one = min(one, try seconds { report = try batch(jobs: 1, into: freshFolder()) })
                failed = report?.count(.failed) ?? 0
                let out = freshFolder()
                two = min(two, try seconds { _ = try batch(jobs: 2, into: out) })
                rerun = min(rerun, try seconds {
                    let second = try batch(jobs: 2, into: out)
                    if second.count(.converted) != 0 { throw BatchError(.input, "the no-change run converted something") }
                })
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
    }
}
