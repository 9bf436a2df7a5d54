import Dispatch
import Foundation
import KeyframeEngine
import KeyframeFiles
import KeyframeJSON
import KeyframeModel
import KeyframePNG
import KeyframeRender

/// Exports a document's clips as Lottie (Bodymovin) JSON that rlottie, ThorVG, lottie-web and lottie-ios play.
///
/// Each clip becomes one animation whose canvas is what `keyframe render` frames by default (the stage, or the
/// clip's content bounds), so a Lottie player rendering frame `n` at the canvas size shows what
/// `keyframe render --frames n` shows. See docs/lottie.md for the mapping, the profiles and the tolerances.
///
/// ```swift
/// var options = ExportOptions(clips: ["walk"])
/// options.lottie = LottieExportSettings(profile: .portable, images: .embed)
/// let result = try LottieExporter().export(document, assetsFolder: folder, options: options)
/// ```
public struct LottieExporter: DocumentExporter {
    public var format: ExportFormat { .lottie }

    public init() {}

    public func export(_ document: Document, assetsFolder: InputFolder, options: ExportOptions) throws(ExportError)
        -> ExportResult
    {
        try exportWithReports(document, assetsFolder: assetsFolder, options: options).result
    }

    /// Exports and also returns, per exported clip, what was exact, approximated and dropped.
    public func exportWithReports(_ document: Document, assetsFolder: InputFolder, options: ExportOptions)
        throws(ExportError) -> (result: ExportResult, reports: [String: LottieReport])
    {
        let clips = try LottieExporter.chosenClips(document, options: options)
        let library: AtlasLibrary
        do {
            // Pictures are cut from the atlases, never drawn: no reduced copies.
            library = try AtlasLibrary(document: document, folder: assetsFolder, mipmaps: false)
        } catch {
            // The error names the image's file, or its field of the document.
            throw ExportError(message: "\(error)")
        }
        return try exportWithReports(document, library: library, clips: clips, options: options)
    }

    /// Exports with atlas images already decoded (tests, benchmarks, reports for several profiles).
    public func exportWithReports(_ document: Document, library: AtlasLibrary, clips: [Clip], options: ExportOptions)
        throws(ExportError) -> (result: ExportResult, reports: [String: LottieReport])
    {
        let sampler = PoseSampler(document: document)
        let structureSampler = PoseSampler(document: CALayerTreeBuilder.samplingDocument(document))
        let pictures = LottiePictureCache(encoding: PNGEncodingOptions(preset: options.pictures))
        let names = LottieNames(document: document)
        // Filtered nodes are drawn as `render` draws them, from the atlases' reduced copies too (made once).
        let drawing = LottieClipBuilder.hasFilters(document) ? library.withMipmaps() : library
        // Clips are independent: they are built on all cores, each into its own slot, and gathered in the asked
        // order, so the files, diagnostics and reports are the same for any number of cores.
        let outputs = ClipWorkers.map(clips.count, jobs: options.jobs) { index in
            Result { () throws(ExportError) -> ClipOutput in
                try Self.exportClip(clips[index], document: document, library: library, settings: options.lottie,
                                    sampler: sampler, structureSampler: structureSampler, pictures: pictures,
                                    names: names, drawingLibrary: drawing, pretty: options.prettyJSON)
            }
        }
        var exported: [ExportedClip] = []
        var diagnostics = DiagnosticCollector()
        var reports: [String: LottieReport] = [:]
        var built: [ClipOutput] = []
        for (clip, result) in zip(clips, outputs) {
            let output = try result.get()
            reports[clip.name] = output.report
            built.append(output)
            exported.append(output.clip)
        }
        if options.lottie.singleFile {
            let single = try LottieSingleFile.combine(clips: clips, outputs: built, document: document, library: library,
                                                      pretty: options.prettyJSON)
            exported = [single.clip]
            // The clips' own files, and their markers, are not written.
            built = built.map { output in
                var output = output
                output.diagnostics.removeAll { $0.code == "lottie-marker-name" }
                return output
            }
            for clip in clips {
                guard var report = reports[clip.name] else { continue }
                report.approximated = report.approximated.filter { !$0.hasSuffix(" (marker name)") }
                reports[clip.name] = report
            }
            for (name, marker) in single.unreadableMarkers {
                reports[marker]?.approximated.insert("\(name) (marker name)")
            }
            for diagnostic in single.diagnostics { diagnostics.add(diagnostic) }
        }
        for output in built {
            for diagnostic in output.diagnostics { diagnostics.add(diagnostic) }
        }
        if options.lottie.container == .dotLottie {
            exported = [try DotLottieArchive.pack(exported, clips: options.lottie.singleFile ? nil : clips,
                                                  document: document)]
        }
        let all = diagnostics.diagnostics
        if options.strict, let first = all.first(where: { $0.severity == .warning }) {
            let count = all.filter { $0.severity == .warning }.count
            throw ExportError(source: document.name,
                              message: "--strict: \(count) export warning\(count == 1 ? "" : "s"), first: \(first)")
        }
        return (ExportResult(clips: exported, diagnostics: all), reports)
    }

    /// One clip's file, its diagnostics (named after the clip) and its report.
    struct ClipOutput: Sendable {
        var clip: ExportedClip
        /// The file's JSON (what `clip.main` holds), for the single file of ``LottieExportSettings/singleFile``.
        var json: JSONValue
        var diagnostics: [Diagnostic]
        var report: LottieReport
    }

    /// Builds one clip: the structured form, or the flattened one when the structure cannot carry the clip.
    /// `pretty`: the file indented (``ExportOptions/prettyJSON``) rather than on one line.
    static func exportClip(_ clip: Clip, document: Document, library: AtlasLibrary, settings: LottieExportSettings,
                           sampler: PoseSampler, structureSampler: PoseSampler, pictures: LottiePictureCache,
                           names: LottieNames, drawingLibrary: AtlasLibrary? = nil,
                           pretty: Bool = false) throws(ExportError) -> ClipOutput {
        var output: LottieClipBuilder.Output
        do {
            var structure = LottieStructureBuilder(document: document, clip: clip, library: library,
                                                   settings: settings, sampler: sampler,
                                                   structureSampler: structureSampler, pictures: pictures,
                                                   names: names)
            let built = try structure.build()
            if let structured = built.output {
                output = structured
            } else {
                output = try LottieClipBuilder(document: document, clip: clip, library: library,
                                               settings: settings, sampler: sampler, pictures: pictures,
                                               names: names, drawingLibrary: drawingLibrary).build()
                output.diagnostics.insert(Diagnostic(
                    severity: .info, code: "lottie-flattened",
                    message: "\(built.flattened ?? "the structure cannot be kept"); written flattened (one image "
                        + "layer per sprite run, world transforms sampled per frame)"), at: 0)
                output.report.flattened = built.flattened ?? "structure not kept"
            }
        } catch {
            throw ExportError(source: document.name, message: "clip \"\(clip.name)\": \(error.message)")
        }
        // Labels within the clip become markers.
        let markers = LottieMarkers.markers(of: clip, document: document)
        if !markers.isEmpty, case .object(var root) = output.json {
            root["markers"] = .array(markers.map(\.json))
            output.json = .object(root)
        }
        for marker in markers where !LottieMarkers.lottieWebReadsName(marker.name) {
            output.diagnostics.append(LottieMarkers.nameWarning(marker.name))
            output.report.approximated.insert("\(marker.name) (marker name)")
        }
        let diagnostics = output.diagnostics.map { diagnostic -> Diagnostic in
            var named = diagnostic
            named.message = "clip \"\(clip.name)\": " + diagnostic.message
            return named
        }
        return ClipOutput(
            clip: ExportedClip(clip: clip.name,
                               main: ExportedFile(relativePath: LottieExporter.fileName(for: clip.name),
                                                  bytes: pretty ? JSONWriter.write(output.json)
                                                      : JSONWriter.writeCompact(output.json) + [0x0A]),
                               companions: output.files),
            json: output.json, diagnostics: diagnostics, report: output.report)
    }

    /// The clips `options` asks for, in its order, or every clip.
    static func chosenClips(_ document: Document, options: ExportOptions) throws(ExportError) -> [Clip] {
        guard let names = options.clips else {
            guard !document.clips.isEmpty else {
                throw ExportError(source: document.name, message: "the document has no clips to export")
            }
            return document.clips
        }
        var clips: [Clip] = []
        for name in names {
            guard let clip = document.clip(named: name) else {
                let available = document.clips.map { "\"\($0.name)\"" }.joined(separator: ", ")
                throw ExportError(source: document.name,
                                  message: "no clip named \"\(name)\"; the document has \(available.isEmpty ? "none" : available)")
            }
            clips.append(clip)
        }
        return clips
    }

    /// `<clip>.json`, the clip's name made a file name by Keyframe's one naming rule (``FileName/stem(_:)``:
    /// `robot:hop` → `robot_hop.json`, `line1\nline2` → `line1_line2.json`); `pathExtension` names another kind of
    /// file (`lottie`).
    public static func fileName(for clip: String, pathExtension: String = "json") -> String {
        FileName.stem(clip) + "." + pathExtension
    }
}
