import Foundation
import KeyframeEngine
import KeyframeExport
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender

/// Measures exporting every clip of an export (in memory, pictures included) against converting the same export and
/// against encoding the export's pictures alone, in the same run.
///
/// Per export, each repetition converts it (import, normalize) and exports the result; the fastest of each is kept,
/// in wall and process CPU time. The **picture floor** is the time to PNG-encode the pictures the export writes
/// (decoded from its output first, untimed), one after another on one thread with the export's preset: no exporter
/// that writes them goes below it on one core. The goal (issue 27) is export ≤ 1.1 × (conversion + floor). Also
/// reported, to say where the rest of an export's time goes: decoding the export's atlas images alone (what any
/// exporter that cuts pictures from them pays besides), and sampling every clip's pose once at each of its frames
/// (what any exporter that bakes per-frame values pays, and a conversion never does).
///
/// ```swift
/// var configuration = ExportBenchmark.Configuration(format: .lottie)
/// let results = try ExportBenchmark.run(folders: folders, configuration: configuration)
/// print(ExportBenchmark.report(results, configuration: configuration))
/// ```
public enum ExportBenchmark {
    /// What to measure.
    public struct Configuration: Sendable {
        /// The format to export.
        public var format: ExportFormat
        /// The export's options (profile, picture preset, jobs).
        public var options = ExportOptions()
        /// Repetitions per export; the fastest of each is kept.
        public var repetitions = 5
        /// Also export each document that has meshes with its meshes left out (``Result/withoutMeshes``): what the
        /// meshes cost in export time and bytes.
        public var comparesMeshes = false
        /// Whether every node's filters are removed after the import (the baseline of a filtered export: what it
        /// costs when its filters are left out, as exports did before they drew them into pictures).
        public var withoutFilters = false

        public init(format: ExportFormat) { self.format = format }
    }

    /// The same export of the document with its meshes left out (every mesh a node shows replaced by nothing).
    public struct MeshFreeFigures: Sendable {
        /// Meshes the document has.
        public var meshes: Int
        public var export: BenchmarkClock.Span
        public var outputBytes: Int
        /// Bytes of the clip files alone (JSON or property list, pictures embedded or not as configured).
        public var mainBytes: Int
        /// The same for the export with meshes.
        public var mainBytesWithMeshes: Int
        /// The meshes drawn into pictures per distinct pose instead (``MeshBakingEstimate``).
        public var baked: MeshBakingEstimate
    }

    /// One export's figures (seconds; the fastest run of each).
    public struct Result: Sendable {
        public var name: String
        public var clips: Int
        /// Bytes of every file the export produces.
        public var outputBytes: Int
        public var convert: BenchmarkClock.Span
        public var export: BenchmarkClock.Span
        /// Encoding the export's pictures alone, one thread (wall and thread CPU).
        public var pictureFloor: Double
        public var pictureFloorCPU: Double
        /// How many distinct pictures that is.
        public var pictures: Int
        /// Decoding the document's atlas images alone, one thread (thread CPU).
        public var atlasDecodeCPU: Double
        /// Sampling every clip's pose at each of its frames once, one thread (thread CPU).
        public var poseSamplingCPU: Double
        /// With ``Configuration/comparesMeshes``, for a document with meshes: the export without them.
        public var withoutMeshes: MeshFreeFigures? = nil

        /// Export over conversion (wall).
        public var exportToConvert: Double { export.wall / convert.wall }
        /// Export over conversion plus the picture floor (wall): the goal's ratio.
        public var exportToFloor: Double { export.wall / (convert.wall + pictureFloor) }
        /// The same in CPU time (all of the export's threads against the one-thread conversion and floor).
        public var exportToFloorCPU: Double { export.processCPU / (convert.processCPU + pictureFloorCPU) }
        /// Export CPU over conversion, picture floor, atlas decoding and pose sampling: what is left once the work
        /// the goal's floor leaves out is counted.
        public var exportToWorkCPU: Double {
            export.processCPU / (convert.processCPU + pictureFloorCPU + atlasDecodeCPU + poseSamplingCPU)
        }
    }

    /// Runs the benchmark over `folders`.
    public static func run(folders: [URL], configuration: Configuration) throws(BenchmarkError) -> [Result] {
        guard let exporter = Exporters.exporter(for: configuration.format) else {
            throw BenchmarkError("export --to \(configuration.format.rawValue) is not available in this build")
        }
        var results: [Result] = []
        for folder in folders {
            do {
                let assets = try Importer.detect(folder).folder
                var convert = BenchmarkClock.Span.worst, export = BenchmarkClock.Span.worst
                var clips = 0, bytes = 0
                for _ in 0..<max(configuration.repetitions, 1) {
                    let (imported, converting) = try BenchmarkClock.measure { try Importer.importDocument(at: folder) }
                    let document = configuration.withoutFilters ? withoutFilters(imported) : imported
                    let (result, exporting) = try BenchmarkClock.measure {
                        try exporter.export(document, assetsFolder: assets, options: configuration.options)
                    }
                    convert = convert.fastest(converting)
                    export = export.fastest(exporting)
                    clips = result.clips.count
                    bytes = result.clips.reduce(0) { total, clip in
                        total + clip.main.bytes.count + clip.companions.reduce(0) { $0 + $1.bytes.count }
                    }
                }
                let (floor, pictures) = try pictureFloor(folder, exporter: exporter, configuration: configuration)
                let decode = try atlasDecodeTime(folder, repetitions: configuration.repetitions)
                let sampling = try poseSamplingTime(folder, repetitions: configuration.repetitions)
                var result = Result(name: folder.lastPathComponent, clips: clips, outputBytes: bytes, convert: convert,
                                    export: export, pictureFloor: floor.wall, pictureFloorCPU: floor.threadCPU,
                                    pictures: pictures, atlasDecodeCPU: decode, poseSamplingCPU: sampling)
                if configuration.comparesMeshes {
                    result.withoutMeshes = try meshFree(folder, exporter: exporter, configuration: configuration)
                }
                results.append(result)
            } catch let error as BenchmarkError {
                throw error
            } catch {
                throw BenchmarkError("\(folder.path): \(error)")
            }
        }
        return results
    }

    /// The pictures an export of `folder` encodes — a Lottie export's `images/` files (exported with images in a
    /// folder to get them as files), a Core Animation export's baked tints (its atlas copies are the input's bytes,
    /// not encoded) — decoded, then encoded one after another on one thread with the export's preset; the fastest of
    /// the repetitions, and how many distinct pictures there are.
    static func pictureFloor(_ folder: URL, exporter: any DocumentExporter, configuration: Configuration) throws
        -> (span: BenchmarkClock.Span, pictures: Int)
    {
        var options = configuration.options
        options.lottie.images = .folder
        let imported = try Importer.importDocument(at: folder)
        let document = configuration.withoutFilters ? withoutFilters(imported) : imported
        let assets = try Importer.detect(folder).folder
        let result = try exporter.export(document, assetsFolder: assets, options: options)
        // The input's own image files, which an exporter copies rather than encodes.
        var inputFiles: Set<[UInt8]> = []
        for image in document.assets.images {
            if let bytes = FileManager.default.contents(atPath: assets.appendingPathComponent(image.path).path) {
                inputFiles.insert(Array(bytes))
            }
        }
        var seen: Set<String> = []
        var bitmaps: [Bitmap] = []
        for clip in result.clips {
            for file in clip.companions where seen.insert(file.relativePath).inserted && !inputFiles.contains(file.bytes) {
                bitmaps.append(try PNGDecoder().decode(file.bytes))
            }
        }
        var best = BenchmarkClock.Span.worst
        var encoder = PNGEncoder(options: PNGEncodingOptions(preset: configuration.options.pictures))
        for _ in 0..<max(configuration.repetitions, 1) {
            best = best.fastest(try BenchmarkClock.measure { for bitmap in bitmaps { _ = try encoder.encode(bitmap) } }.span)
        }
        return (best, bitmaps.count)
    }

    /// Exports the document in `folder` with and without its meshes (best of the repetitions each), or `nil` when it
    /// has none.
    static func meshFree(_ folder: URL, exporter: any DocumentExporter, configuration: Configuration) throws
        -> MeshFreeFigures?
    {
        let imported = try Importer.importDocument(at: folder)
        let document = configuration.withoutFilters ? withoutFilters(imported) : imported
        guard !document.assets.meshes.isEmpty else { return nil }
        let assets = try Importer.detect(folder).folder
        let plain = withoutMeshes(document)
        var best = BenchmarkClock.Span.worst
        var bytes = 0, main = 0, mainWith = 0
        for _ in 0..<max(configuration.repetitions, 1) {
            let (result, span) = try BenchmarkClock.measure {
                try exporter.export(plain, assetsFolder: assets, options: configuration.options)
            }
            best = best.fastest(span)
            bytes = result.clips.reduce(0) { $0 + $1.main.bytes.count + $1.companions.reduce(0) { $0 + $1.bytes.count } }
            main = result.clips.reduce(0) { $0 + $1.main.bytes.count }
        }
        let with = try exporter.export(document, assetsFolder: assets, options: configuration.options)
        mainWith = with.clips.reduce(0) { $0 + $1.main.bytes.count }
        let baked = try MeshBakingEstimate.measure(document, assetsFolder: assets, options: configuration.options)
        return MeshFreeFigures(meshes: document.assets.meshes.count, export: best, outputBytes: bytes, mainBytes: main,
                               mainBytesWithMeshes: mainWith, baked: baked)
    }

    /// `document` with every mesh a node shows replaced by nothing (the node's transform, colour and children stay).
    public static func withoutMeshes(_ document: Document) -> Document {
        var copy = document
        for c in copy.compositions.indices {
            for n in copy.compositions[c].nodes.indices {
                guard var track = copy.compositions[c].nodes[n].tracks.content else { continue }
                for k in track.keyframes.indices {
                    if case .mesh = track.keyframes[k].value { track.keyframes[k].value = .none }
                }
                copy.compositions[c].nodes[n].tracks.content = track
            }
        }
        return copy
    }

    /// `document` with every node's filters removed.
    static func withoutFilters(_ document: Document) -> Document {
        var copy = document
        for c in copy.compositions.indices {
            for n in copy.compositions[c].nodes.indices { copy.compositions[c].nodes[n].tracks.filters = nil }
        }
        return copy
    }

    /// The thread CPU time to decode the atlas images of the export in `folder`, the fastest of `repetitions`.
    static func atlasDecodeTime(_ folder: URL, repetitions: Int) throws -> Double {
        let document = try Importer.importDocument(at: folder)
        let assets = try Importer.detect(folder).folder
        var best = Double.infinity
        for _ in 0..<max(repetitions, 1) {
            best = min(best, try BenchmarkClock.measure {
                _ = try AtlasLibrary(document: document, folder: assets, mipmaps: false)
            }.span.threadCPU)
        }
        return best
    }

    /// The thread CPU time to sample every clip of the export in `folder` once at each of its frames (one sampler,
    /// one thread), the fastest of `repetitions`.
    static func poseSamplingTime(_ folder: URL, repetitions: Int) throws -> Double {
        let document = try Importer.importDocument(at: folder)
        let sampler = PoseSampler(document: document)
        var best = Double.infinity
        for _ in 0..<max(repetitions, 1) {
            // The sprite count is returned so that no sample can be left out as unused.
            best = min(best, BenchmarkClock.measure {
                var items = 0
                for clip in document.clips {
                    for frame in 0..<max(Int(clip.duration.value.rounded(.up)), 1) {
                        items += sampler.sample(clip: clip, time: Frames(Double(frame))).items.count
                    }
                }
                return items
            }.span.threadCPU)
        }
        return best
    }

    /// A table of the results with totals (ratios of the totals).
    public static func report(_ results: [Result], configuration: Configuration) -> String {
        let jobs = configuration.options.jobs.map { "\($0) job\($0 == 1 ? "" : "s")" } ?? "all cores"
        var lines = ["export, \(configuration.format.rawValue), \(configuration.options.pictures.rawValue) pictures"
                     + (configuration.withoutFilters ? ", filters removed" : "") + ": "
                     + "best of \(max(configuration.repetitions, 1)), \(jobs); goal: export ≤ 1.1 × (convert + png)"]
        lines.append("name".padding(toLength: 40, withPad: " ", startingAt: 0)
                     + " clips  convert ms  export ms  png ms  pics  ÷convert  ÷(convert+png)"
                     + "  │ CPU: convert  export   png  ÷(convert+png)  decode  sample  ÷(all)  output KB")
        func line(_ name: String, clips: String, wall: (Double, Double, Double), cpu: (Double, Double, Double),
                  decode: Double, sample: Double, pictures: String, bytes: String) -> String {
            let (convert, export, png) = wall
            return name.padding(toLength: 40, withPad: " ", startingAt: 0)
                + clips + String(format: "  %10.2f  %9.2f  %6.1f", convert * 1e3, export * 1e3, png * 1e3)
                + pictures + String(format: "  %7.2f×  %13.2f×  │ %12.1f %7.1f %5.1f  %13.2f×", export / convert,
                                    export / (convert + png), cpu.0 * 1e3, cpu.1 * 1e3, cpu.2 * 1e3,
                                    cpu.1 / (cpu.0 + cpu.2))
                + String(format: "  %6.1f  %6.1f  %5.2f×", decode * 1e3, sample * 1e3,
                         cpu.1 / (cpu.0 + cpu.2 + decode + sample)) + bytes
        }
        for r in results {
            lines.append(line(r.name, clips: String(format: " %5d", r.clips),
                              wall: (r.convert.wall, r.export.wall, r.pictureFloor),
                              cpu: (r.convert.processCPU, r.export.processCPU, r.pictureFloorCPU),
                              decode: r.atlasDecodeCPU, sample: r.poseSamplingCPU, pictures: String(format: "  %4d", r.pictures),
                              bytes: String(format: "  %9.1f", Double(r.outputBytes) / 1024)))
        }
        func sum(_ value: (Result) -> Double) -> Double { results.reduce(0) { $0 + value($1) } }
        lines.append(line("total", clips: "      ",
                          wall: (sum { $0.convert.wall }, sum { $0.export.wall }, sum(\.pictureFloor)),
                          cpu: (sum { $0.convert.processCPU }, sum { $0.export.processCPU }, sum(\.pictureFloorCPU)),
                          decode: sum(\.atlasDecodeCPU), sample: sum(\.poseSamplingCPU), pictures: String(format: "  %4d", results.reduce(0) { $0 + $1.pictures }), bytes: ""))
        lines.append("png: encoding the export's distinct pictures alone (the same preset, one thread) — a floor no "
                     + "export that writes them goes below on one core; decode: the export's atlas images decoded alone; "
                     + "sample: every clip's pose sampled once at each of its frames; ÷(all): export CPU ÷ (convert + "
                     + "png + decode + sample); CPU: process CPU time (the export's: all its threads), fastest run of each")
        let meshed = results.filter { $0.withoutMeshes != nil }
        if !meshed.isEmpty {
            lines.append("")
            lines.append("meshes: the same export with every mesh left out (goal for Lottie: the clip files ≤ 3× the bytes)")
            lines.append("name".padding(toLength: 40, withPad: " ", startingAt: 0)
                         + " meshes  export ms  without  ×      clip files KB  without    ×   all output KB  without")
            for r in meshed {
                let m = r.withoutMeshes!
                lines.append(r.name.padding(toLength: 40, withPad: " ", startingAt: 0)
                             + String(format: " %6d  %9.2f  %7.2f  %5.2f×  %13.1f  %7.1f  %5.2f×  %13.1f  %7.1f", m.meshes,
                                      r.export.wall * 1e3, m.export.wall * 1e3, r.export.wall / m.export.wall,
                                      Double(m.mainBytesWithMeshes) / 1024, Double(m.mainBytes) / 1024,
                                      Double(m.mainBytesWithMeshes) / Double(max(m.mainBytes, 1)),
                                      Double(r.outputBytes) / 1024, Double(m.outputBytes) / 1024))
            }
            lines.append("")
            lines.append("meshes baked instead: each mesh item drawn alone per distinct pose (render's renderer, trimmed, "
                         + "equal pixels merged), PNG-encoded; est. × = (clip files without meshes + pictures × 4/3, "
                         + "base64-embedded) ÷ clip files without meshes")
            lines.append("name".padding(toLength: 40, withPad: " ", startingAt: 0)
                         + " mesh items  pictures  pictures KB  est. ×  triangles ×")
            for r in meshed {
                let m = r.withoutMeshes!
                let without = Double(max(m.mainBytes, 1))
                lines.append(r.name.padding(toLength: 40, withPad: " ", startingAt: 0)
                             + String(format: " %10d  %8d  %11.1f  %5.2f×  %10.2f×", m.baked.meshItems, m.baked.pictures,
                                      Double(m.baked.pictureBytes) / 1024,
                                      (Double(m.mainBytes) + Double(m.baked.pictureBytes) * 4 / 3) / without,
                                      Double(m.mainBytesWithMeshes) / without))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
