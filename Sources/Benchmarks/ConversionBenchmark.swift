import Foundation
import KeyframeImport
import KeyframeJSON
import KeyframeModel

/// Measures conversion against parsing the same bytes, in one run: against Foundation's `JSONSerialization`, node's
/// `JSON.parse`, and — for DragonBones and Flump — the official runtime's own parse (``RuntimeParse``).
///
/// For each export the **import** is the whole `Importer.importDocument(at:)` (reading, parsing, normalizing,
/// validating: the bytes into the model, what a runtime's parse does into its own) and the **conversion** is the
/// import plus writing the normalized JSON bytes; the baselines parse every JSON file of the export (a runtime: the
/// skeleton and its atlases, or the library) from the files. Each is repeated and the fastest run kept, in wall and
/// CPU time. Goals (issue 27): Animate's conversion ≤ 1× `JSONSerialization`; DragonBones' and Flump's import ≤ 2× the
/// runtime's parse (the runtime writes nothing; the conversion's ratio is printed too).
public enum ConversionBenchmark {
    /// What to measure.
    public struct Configuration: Sendable {
        /// Repetitions per export; the fastest is kept.
        public var repetitions = 5
        /// DragonBonesJS's core (`dragonBones.js`); `nil` skips the DragonBones runtime.
        public var dragonBonesRuntime: String?
        /// pixi-flump-runtime's `pixi-flump.js`; `nil` skips the Flump runtime.
        public var flumpRuntime: String?
        /// Whether to time node's `JSON.parse` (needs `node` on the path).
        public var node = true

        public init() {}
    }

    /// One export's figures (seconds; the fastest run of each).
    public struct Result: Sendable {
        public var name: String
        public var format: DetectedFormat
        public var inputBytes: Int
        public var outputBytes: Int
        public var parse: BenchmarkClock.Span
        /// Bytes into the model.
        public var importing: BenchmarkClock.Span
        /// The import and the normalized JSON bytes.
        public var convert: BenchmarkClock.Span
        /// node's `JSON.parse` of the same files (wall, process CPU), when timed.
        public var nodeParse: (wall: Double, cpu: Double)?
        /// The official runtime's parse (DragonBones, Flump), when timed.
        public var runtimeParse: (wall: Double, cpu: Double)?
        /// Why the runtime's figure is missing, when it was asked for.
        public var runtimeNote: String?

        /// Conversion time over parse time.
        public var ratio: Double { convert.wall / parse.wall }
    }

    /// Runs the benchmark over `folders`.
    public static func run(folders: [URL], configuration: Configuration) throws(BenchmarkError) -> [Result] {
        var results: [Result] = []
        var jobs: [RuntimeParse.Job] = [], runtimeJobs: [RuntimeParse.Job?] = []
        for folder in folders {
            do {
                let detected = try Importer.detect(folder)
                let files = jsonFiles(in: folder)
                let blobs = try files.map { try Data(contentsOf: $0) }
                var parse = BenchmarkClock.Span.worst, convert = BenchmarkClock.Span.worst
                var importing = BenchmarkClock.Span.worst
                var outputBytes = 0
                for _ in 0..<max(configuration.repetitions, 1) {
                    parse = parse.fastest(try BenchmarkClock.measure {
                        for blob in blobs {
                            let body = blob.starts(with: [0xEF, 0xBB, 0xBF]) ? blob.dropFirst(3) : blob
                            _ = try JSONSerialization.jsonObject(with: body)
                        }
                    }.span)
                    let (bytes, span) = try BenchmarkClock.measure { try Importer.importDocument(at: folder).jsonBytes().count }
                    convert = convert.fastest(span)
                    outputBytes = bytes
                    importing = importing.fastest(try BenchmarkClock.measure { _ = try Importer.importDocument(at: folder) }.span)
                }
                results.append(Result(name: folder.lastPathComponent, format: detected.format,
                                      inputBytes: blobs.reduce(0) { $0 + $1.count }, outputBytes: outputBytes,
                                      parse: parse, importing: importing, convert: convert))
                jobs.append(RuntimeParse.Job(kind: "json", files: files.map(\.path)))
                // The runtime reads the main file (a DragonBones skeleton: then every other JSON file, its atlases).
                let main = detected.folder.appendingPathComponent(detected.file).path
                switch detected.format {
                case .dragonBones where detected.file.hasSuffix(".json"):
                    runtimeJobs.append(RuntimeParse.Job(kind: "dragonbones",
                                                        files: [main] + files.map(\.path).filter { $0 != main }))
                case .flump where detected.file.hasSuffix(".json"):
                    runtimeJobs.append(RuntimeParse.Job(kind: "flump", files: [main]))
                default:
                    runtimeJobs.append(nil)
                }
            } catch {
                throw BenchmarkError("\(folder.path): \(error)")
            }
        }
        guard configuration.node else { return results }
        // Without node (not installed, or it fails) the Swift figures stand and each export says why node's are missing.
        let nodeTimings: [RuntimeParse.Timing]
        do throws(BenchmarkError) {
            nodeTimings = try RuntimeParse.run(jobs, dragonBones: nil, flump: nil, repetitions: configuration.repetitions)
        } catch {
            for index in results.indices { results[index].runtimeNote = "no node figures: \(error.message)" }
            return results
        }
        for (index, timing) in nodeTimings.enumerated() {
            if let wall = timing.wall, let cpu = timing.cpu { results[index].nodeParse = (wall, cpu) }
        }
        var wanted: [(index: Int, job: RuntimeParse.Job)] = []
        for (index, job) in runtimeJobs.enumerated() {
            guard let job else { continue }
            let runtime = job.kind == "dragonbones" ? configuration.dragonBonesRuntime : configuration.flumpRuntime
            if let runtime, FileManager.default.fileExists(atPath: runtime) {
                wanted.append((index, job))
            } else {
                results[index].runtimeNote = "no runtime (\(job.kind == "dragonbones" ? "--dragonbones-runtime" : "--flump-runtime"))"
            }
        }
        if !wanted.isEmpty {
            let timings = try RuntimeParse.run(wanted.map(\.job), dragonBones: configuration.dragonBonesRuntime,
                                               flump: configuration.flumpRuntime, repetitions: configuration.repetitions)
            for ((index, _), timing) in zip(wanted, timings) {
                if let wall = timing.wall, let cpu = timing.cpu {
                    results[index].runtimeParse = (wall, cpu)
                } else {
                    results[index].runtimeNote = timing.error ?? "no timing"
                }
            }
        }
        return results
    }

    /// One table per format with totals; each total ratio is over the exports that have both figures.
    public static func report(_ results: [Result]) -> String {
        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }
        func ms(_ seconds: Double?) -> String { seconds.map { String(format: "%9.2f", $0 * 1e3) } ?? "        —" }
        func ratio(_ a: Double?, _ b: Double?) -> String {
            guard let a, let b, b > 0 else { return "      —" }
            return String(format: " %5.2f×", a / b)
        }
        var lines: [String] = []
        for format in [DetectedFormat.animateAtlas, .dragonBones, .flump, .keyframe] {
            let group = results.filter { $0.format == format }
            guard !group.isEmpty else { continue }
            let runtime = format == .dragonBones ? "DragonBonesJS" : format == .flump ? "pixi-flump" : nil
            lines.append("\(format.rawValue): \(group.count) export\(group.count == 1 ? "" : "s"), wall ms (ratio = "
                         + "conversion ÷ baseline); goal " + (runtime == nil ? "≤ 1× JSONSerialization" : "≤ 2× \(runtime!)"))
            lines.append(pad("export", 40) + "  input KB  convert  JSONSer.  ratio  JSON.parse  ratio"
                         + (runtime.map { "   import  " + pad($0, 13) + " ratio" } ?? "") + "  │ CPU ratios: JSONSer."
                         + (runtime == nil ? "" : "  runtime"))
            func row(_ name: String, _ bytes: Int, convert: (Double, Double), importing: (Double, Double),
                     parse: (Double, Double), node: Double?, runtime runtimeParse: (Double, Double)?,
                     note: String?) -> String {
                var text = pad(name, 40) + String(format: " %9.1f", Double(bytes) / 1024) + ms(convert.0) + " "
                    + ms(parse.0) + ratio(convert.0, parse.0) + "   " + ms(node) + ratio(convert.0, node)
                if runtime != nil {
                    text += ms(importing.0) + "     " + ms(runtimeParse?.0) + ratio(importing.0, runtimeParse?.0)
                }
                text += "  │      " + ratio(convert.1, parse.1)
                if runtime != nil { text += "  " + ratio(importing.1, runtimeParse?.1) }
                if let note { text += "  (\(note))" }
                return text
            }
            for r in group {
                lines.append(row(r.name, r.inputBytes, convert: (r.convert.wall, r.convert.processCPU),
                                 importing: (r.importing.wall, r.importing.processCPU),
                                 parse: (r.parse.wall, r.parse.processCPU), node: r.nodeParse?.wall,
                                 runtime: r.runtimeParse.map { ($0.wall, $0.cpu) }, note: r.runtimeNote))
            }
            func sum(_ rows: [Result], _ value: (Result) -> Double) -> Double { rows.reduce(0) { $0 + value($1) } }
            let timed = group.filter { $0.runtimeParse != nil }
            var total = row("total", group.reduce(0) { $0 + $1.inputBytes },
                            convert: (sum(group) { $0.convert.wall }, sum(group) { $0.convert.processCPU }),
                            importing: (sum(group) { $0.importing.wall }, sum(group) { $0.importing.processCPU }),
                            parse: (sum(group) { $0.parse.wall }, sum(group) { $0.parse.processCPU }),
                            node: group.allSatisfy { $0.nodeParse != nil } ? sum(group) { $0.nodeParse!.wall } : nil,
                            runtime: nil, note: nil)
            if runtime != nil && !timed.isEmpty {
                let imported = sum(timed) { $0.importing.wall }, convert = sum(timed) { $0.convert.wall }
                let parsed = sum(timed) { $0.runtimeParse!.wall }
                let importedCPU = sum(timed) { $0.importing.processCPU }, parsedCPU = sum(timed) { $0.runtimeParse!.cpu }
                total += String(format: "\n  the %d exports the runtime parses: import %.2f ms, conversion %.2f ms, runtime "
                                + "%.2f ms; import ÷ runtime %.2f× wall, %.2f× CPU; conversion ÷ runtime %.2f× wall",
                                timed.count, imported * 1e3, convert * 1e3, parsed * 1e3, imported / parsed,
                                importedCPU / parsedCPU, convert / parsed)
            }
            lines.append(total)
            lines.append("")
        }
        lines.append("node's CPU time includes its compiler and collector threads; its wall time is the fairer figure "
                     + "on an idle machine.")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func jsonFiles(in folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var files: [URL] = []
        for case let url as URL in enumerator where url.pathExtension == "json" { files.append(url) }
        return files.sorted { $0.path < $1.path }
    }
}
