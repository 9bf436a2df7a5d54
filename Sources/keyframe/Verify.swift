import ArgumentParser
import Foundation
import KeyframeBatch
import KeyframeFiles
import KeyframeModel
import KeyframeRender
import KeyframeVerify

/// `keyframe verify`: renders what `render` would and compares every frame with an approved (golden) set.
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare rendered frames with a golden folder (exit 0 when all match, 1 otherwise).",
        discussion: """
            Renders the frames `keyframe render` would render with the same options and compares each with \
            DIR/<clip>-NNNN.png by pixels. Missing golden frames, and golden frames of a clip rendered whole that \
            the render no longer produces, are failures too. For every failing frame a diff picture and the \
            rendered frame are saved in the artefacts folder. The golden folder is never modified without --record.

            --record also keeps each clip's framing in DIR/golden-framing.json (the document rectangle and the \
            frame size); later runs frame the clips the same way, so a change shows only in the frames it touches. \
            --fit or --bounds frame anew (and --record then keeps the new framing); --size scales the kept one.
            """)

    @Argument(help: "The export or normalized JSON to render.")
    var input: String

    @Option(help: ArgumentHelp("The folder of approved frames, <clip>-NNNN.png as `render` names them.", valueName: "DIR"))
    var golden: String

    @Option(help: "Verify only this clip (repeat for several).")
    var clip: [String] = []

    @Option(help: "Verify the frames of an animator script (as `render --script`).")
    var script: String?

    @OptionGroup var options: RenderOptions

    @Option(help: "Largest per-channel difference (0-255) that still counts as equal.")
    var tolerance = 2

    @Option(help: ArgumentHelp("Share of pixels that may differ beyond the tolerance before a frame fails.",
                               valueName: "P%"))
    var maxDiffering = "0%"

    @Flag(help: "Write missing or changed frames into the golden folder (atomically; matching frames are left alone).")
    var record = false

    @Option(help: ArgumentHelp("Write a JSON report here.", valueName: "FILE.json"))
    var report: String?

    @Option(help: ArgumentHelp("Write a self-contained HTML report (expected | actual | heat map; swipe, blink, onion skin, zoom) here.", valueName: "FILE.html"))
    var html: String?

    @Option(help: ArgumentHelp("Folder for the diff pictures and rendered frames of failing frames.", valueName: "DIR"))
    var artifacts = "keyframe-verify-artifacts"

    @Flag(name: [.short, .long], help: "Print nothing but errors and failures.")
    var quiet = false

    mutating func validate() throws {
        try Verify.checkCriteria(tolerance: tolerance, maxDiffering: maxDiffering)
    }

    /// The checks of `--tolerance` and `--max-differing` (shared with `batch --verify`).
    static func checkCriteria(tolerance: Int, maxDiffering: String) throws {
        try NumericBounds.tolerance.check(tolerance, "--tolerance")
        guard Verify.parseShare(maxDiffering) != nil else {
            throw ValidationError("--max-differing \(maxDiffering): expected a percentage from 0 to 100, e.g. 0.5%")
        }
    }

    /// `0.5%` or `0.5` → 0.005.
    static func parseShare(_ text: String) -> Double? {
        let number = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let value = Double(number), NumericBounds.percentage.accepts(value) else { return nil }
        return value / 100
    }

    func run() throws {
        // The default artifacts folder is named as written, like the paths on the command line.
        GivenPaths.add(absolute: URL(fileURLWithPath: artifacts).standardizedFileURL.path, given: artifacts)
        let scratch = try FrameSource.scratchFolder(.verify)
        defer { scratch.remove() }
        let goldenURL = URL(fileURLWithPath: golden)
        let stored: GoldenFraming?
        do { stored = try GoldenFraming.read(from: goldenURL) } catch { throw fail("\(error)") }
        var source = FrameSource(input: input, clips: clip, script: script, options: options, quiet: quiet,
                                 outputs: [report, html])
        let keepsFraming = options.fit == nil && options.bounds == nil
        if keepsFraming, let stored { source.pinnedFramings = stored.regions }
        let rendered = try source.render(into: URL(fileURLWithPath: scratch.path))
        var frames: [RenderedFrame] = []
        var stems: [String: String] = [:]
        for sequence in rendered.sequences {
            for (plan, path) in zip(sequence.plans, sequence.paths) {
                frames.append(RenderedFrame(clip: sequence.name, number: plan.number,
                                            fileName: URL(fileURLWithPath: path).lastPathComponent, path: path))
            }
            // A clip rendered whole owns every golden frame of its stem; a partial render checks only its frames.
            if options.selection == .all, let first = sequence.paths.first,
               let (stem, _) = GoldenVerifier.parseFrameFileName(URL(fileURLWithPath: first).lastPathComponent) {
                stems[stem] = sequence.name
            }
        }
        if record && !FileManager.default.fileExists(atPath: goldenURL.path) {
            do { try AtomicFile.prepareFolder(golden) } catch {
                throw fail("\(golden): cannot create the golden folder: \(error.reason)")
            }
        }
        let criteria = VerifyCriteria(tolerance: tolerance, maxDifferingShare: Verify.parseShare(maxDiffering) ?? 0)
        let verifier = GoldenVerifier(goldenFolder: goldenURL, criteria: criteria,
                                      jobs: options.jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        var result: VerifyReport
        do { result = try verifier.verify(frames, extrasFor: stems) } catch { throw fail("\(error)") }

        if record {
            let summary: GoldenRecorder.Summary
            do {
                summary = try GoldenRecorder.record(result)
                var framing = stored ?? GoldenFraming()
                for sequence in rendered.sequences { framing.keep(sequence.framing, for: sequence.name) }
                if framing != stored { try framing.write(to: goldenURL) }
            } catch {
                throw fail("\(error)")
            }
            if !quiet {
                var text = ""
                for (verb, names) in [("added", summary.added), ("updated", summary.updated), ("removed", summary.removed)]
                where !names.isEmpty {
                    text += "\(verb) \(Verify.list(names))\n"
                }
                try Output.out(text + "\(golden): \(summary)\n")
            }
            return
        }
        Verify.explainSizes(&result, stored: keepsFraming ? stored : nil, options: options,
                            sequences: rendered.sequences)
        if !result.passed {
            do { try VerifyArtifacts.write(&result, to: URL(fileURLWithPath: artifacts)) } catch { throw fail("\(error)") }
        }
        do {
            if let report { try writeAtomically(result.jsonBytes, to: report) }
            if let html {
                let record = RecordCommand.text(CommandLine.arguments, dropping: ["--html", "--report", "--artifacts", "--jobs"],
                                                droppingFlags: ["--quiet"])
                try writeAtomically(Array(VerifyHTMLReport.html(for: result, recordCommand: record).utf8), to: html)
            }
        } catch {
            throw fail("\(error)")
        }
        if !quiet || !result.passed {
            var text = result.summary
            if !result.passed {
                let command = RecordCommand.text(CommandLine.arguments, dropping: ["--html", "--report", "--artifacts",
                                                                                   "--jobs"],
                                                 droppingFlags: ["--quiet", "-q"])
                text += "\nif the change is intended, approve the new frames with: \(command)"
            }
            if result.passed { try Output.out(text + "\n") } else { try Output.err(text + "\n") }
        }
        if !result.passed { throw ExitCode(1) }
    }

    /// `names` for one line: the first five, then how many more.
    static func list(_ names: [String]) -> String {
        names.count <= 5 ? names.joined(separator: ", ")
            : names.prefix(5).joined(separator: ", ") + " and \(names.count - 5) more"
    }

    /// Says, for every frame whose size differs from its golden frame, which of the framing, the stage or `--size`
    /// changed.
    static func explainSizes(_ report: inout VerifyReport, stored: GoldenFraming?, options: RenderOptions,
                             sequences: [FrameSource.Sequence]) {
        for index in report.frames.indices where report.frames[index].status == .sizeMismatch {
            let clip = report.frames[index].clip
            let framing = sequences.first { $0.name == clip }?.framing
            let now = framing.map { "\($0.width)×\($0.height)" } ?? "another size"
            let cause: String
            if let entry = stored?.clips[clip] {
                let kept = "\(entry.pixelWidth)×\(entry.pixelHeight)"
                cause = options.size.map { "--size \($0) asks for \(now) where the golden set keeps \(kept) "
                    + "(\(GoldenFraming.fileName)); drop --size or re-record" }
                    ?? "the golden frame's size differs from the set's own framing (\(kept) in \(GoldenFraming.fileName)): "
                    + "the golden frame was written by another recording"
            } else if options.fit != nil || options.bounds != nil {
                cause = "--fit or --bounds frames the clip anew at \(now) instead of the golden set's framing"
            } else if stored != nil {
                cause = "\(GoldenFraming.fileName) has no framing for clip \(clip); this render framed it at \(now)"
            } else {
                cause = "the golden set keeps no framing (it was recorded before \(GoldenFraming.fileName) existed), "
                    + "so this render framed the clip anew at \(now): a part moved outward, a changed stage or "
                    + "another --size changes every frame's size. Re-record once with --record to keep the framing"
            }
            report.frames[index].message += "; \(cause)"
        }
    }
}
