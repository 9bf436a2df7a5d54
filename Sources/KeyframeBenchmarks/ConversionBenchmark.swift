import Foundation
import KeyframeImport
import KeyframeJSON
import KeyframeModel

/// Measures conversion throughput against a bare JSON parse of the same bytes, in one run.
///
/// For each export, the baseline is Foundation's `JSONSerialization` parsing every JSON file of the export from
/// memory; the conversion is the whole `Importer.importDocument(at:)` (reading, parsing, normalizing, validating)
/// plus writing the normalized JSON bytes. Each is repeated and the fastest run kept, which is the figure least
/// disturbed by other work on the machine.
public enum ConversionBenchmark {
    /// One export's figures.
    public struct Result: Sendable {
        public var name: String
        public var inputBytes: Int
        public var outputBytes: Int
        /// Fastest bare parse, seconds.
        public var parseSeconds: Double
        /// Fastest conversion, seconds.
        public var convertSeconds: Double
        /// Conversion time over parse time.
        public var ratio: Double { convertSeconds / parseSeconds }
    }

    /// Runs the benchmark over `folders`, repeating each measurement `repetitions` times.
    public static func run(folders: [URL], repetitions: Int = 5) throws(BenchmarkError) -> [Result] {
        do { return try measure(folders: folders, repetitions: repetitions) } catch {
            throw BenchmarkError("\(error)")
        }
    }

    private static func measure(folders: [URL], repetitions: Int) throws -> [Result] {
        var results: [Result] = []
        for folder in folders {
            let files = jsonFiles(in: folder)
            let blobs = try files.map { try Data(contentsOf: $0) }
            let inputBytes = blobs.reduce(0) { $0 + $1.count }
            var parseBest = Double.infinity
            var convertBest = Double.infinity
            var outputBytes = 0
            for _ in 0..<max(repetitions, 1) {
                let parseStart = ContinuousClock.now
                for blob in blobs {
                    let body = blob.starts(with: [0xEF, 0xBB, 0xBF]) ? blob.dropFirst(3) : blob
                    _ = try JSONSerialization.jsonObject(with: body)
                }
                parseBest = min(parseBest, seconds(ContinuousClock.now - parseStart))
                let convertStart = ContinuousClock.now
                let document = try Importer.importDocument(at: folder)
                outputBytes = document.jsonBytes().count
                convertBest = min(convertBest, seconds(ContinuousClock.now - convertStart))
            }
            results.append(Result(name: folder.lastPathComponent, inputBytes: inputBytes, outputBytes: outputBytes,
                                  parseSeconds: parseBest, convertSeconds: convertBest))
        }
        return results
    }

    /// A table of the results with totals; the total ratio is total conversion time over total parse time.
    public static func report(_ results: [Result]) -> String {
        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }
        func left(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
        }
        func mbps(_ bytes: Int, _ seconds: Double) -> String { String(format: "%.1f", Double(bytes) / 1e6 / seconds) }
        var lines = [pad("export", 40) + "   input KB  parse MB/s  convert MB/s  ratio"]
        for r in results {
            lines.append(pad(r.name, 40) + String(format: " %11.1f", Double(r.inputBytes) / 1024)
                + left(mbps(r.inputBytes, r.parseSeconds), 12) + left(mbps(r.inputBytes, r.convertSeconds), 14)
                + String(format: " %6.2f", r.ratio))
        }
        let bytes = results.reduce(0) { $0 + $1.inputBytes }
        let parse = results.reduce(0) { $0 + $1.parseSeconds }
        let convert = results.reduce(0) { $0 + $1.convertSeconds }
        lines.append(pad("total", 40) + String(format: " %11.1f", Double(bytes) / 1024)
            + left(mbps(bytes, parse), 12) + left(mbps(bytes, convert), 14)
            + String(format: " %6.2f", convert / parse))
        return lines.joined(separator: "\n") + "\n"
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    private static func jsonFiles(in folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var files: [URL] = []
        for case let url as URL in enumerator where url.pathExtension == "json" { files.append(url) }
        return files.sorted { $0.path < $1.path }
    }
}
