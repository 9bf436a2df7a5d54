import Foundation
import KeyframeImport
import KeyframeJSON
import KeyframeVerify

/// What happened to one export in a batch.
public struct BatchExportResult: Sendable, Equatable {
    /// The outcome.
    public enum Status: String, Sendable, Equatable {
        /// Converted in this run.
        case converted
        /// Inputs, options and tool unchanged since the manifest recorded it, and its outputs present: not touched.
        case upToDate = "up-to-date"
        /// Could not be converted; ``BatchExportResult/error`` says why.
        case failed
        /// Not started because `--fail-fast` stopped the batch.
        case cancelled
    }

    /// The export's id (its path relative to its root).
    public var id: String
    public var status: Status
    /// The input files, relative to the export's input folder.
    public var inputs: [String]
    /// The outputs, relative to OUT (for an up-to-date export, the ones the manifest records).
    public var outputs: [String]
    /// How long it took in seconds (0 when it was not converted).
    public var duration: Double
    /// Warning diagnostics, as text.
    public var warnings: [String]
    /// The located error of a failed export: `<id>: <file>:<line>:<column>: …` or a JSON path.
    public var error: String?
    /// With `--verify`: how its frames compared with its goldens (`nil` when not verified, e.g. a failed export).
    public var verification: BatchVerification?
    /// With ``BatchOptions/buildMessages``: this run's errors and warnings in the build form (``BuildMessage``), files
    /// named by absolute path with the line and column where one is known, what `--diagnostics-format build` prints.
    /// Empty for an export that was not converted in this run; not part of the reports.
    public var messages: [BuildMessage] = []

    public init(id: String, status: Status, inputs: [String], outputs: [String] = [], duration: Double = 0,
                warnings: [String] = [], error: String? = nil) {
        self.id = id
        self.status = status
        self.inputs = inputs
        self.outputs = outputs
        self.duration = duration
        self.warnings = warnings
        self.error = error
    }
}

/// The outcome of a whole batch: per export, in id order, plus what was pruned and any notices.
public struct BatchReport: Sendable, Equatable {
    /// One result per export, sorted by id.
    public var results: [BatchExportResult]
    /// Outputs removed by `--prune`, relative to OUT, sorted.
    public var pruned: [String]
    /// Things the user should know that are not failures (a rebuilt manifest, stray temporary files removed).
    public var notices: [String]
    /// The tool version.
    public var tool: String
    /// With `--verify`: the criteria frames were judged by (`nil`: no verification in this run).
    public var verifyCriteria: VerifyCriteria?
    /// With `--verify --record`: goldens were recorded rather than checked.
    public var recording = false
    /// Input files read and hashed in this run, and their total bytes (files whose status matched the stat cache
    /// are not read). Not part of the summary or the JSON report, whose bytes stay the same on every run.
    public var inputsRead = (files: 0, bytes: 0)
    /// Outputs of exports found up to date that were read and hashed to check them (those whose `stat` changed since
    /// a run vouched for them), and their bytes; not part of the JSON report.
    public var outputsChecked = (files: 0, bytes: 0)

    public static func == (a: BatchReport, b: BatchReport) -> Bool {
        a.results == b.results && a.pruned == b.pruned && a.notices == b.notices && a.tool == b.tool
            && a.inputsRead == b.inputsRead && a.outputsChecked == b.outputsChecked
            && a.verifyCriteria == b.verifyCriteria && a.recording == b.recording
    }

    public init(results: [BatchExportResult], pruned: [String], notices: [String], tool: String) {
        self.results = results
        self.pruned = pruned
        self.notices = notices
        self.tool = tool
    }

    public func count(_ status: BatchExportResult.Status) -> Int { results.filter { $0.status == status }.count }
    /// Warning diagnostics over all exports.
    public var warningCount: Int { results.reduce(0) { $0 + $1.warnings.count } }
    /// Whether any export failed or was cancelled (the batch exits with 1).
    public var hasFailures: Bool {
        results.contains { $0.status == .failed || $0.status == .cancelled || $0.verification?.passed == false }
    }

    // MARK: - Writers

    /// The JSON report (`--report`). With `timings: false` durations are left out, so the bytes depend only on the
    /// inputs, the options and the state of OUT.
    public func jsonBytes(timings: Bool = true) -> [UInt8] {
        let exports: [JSONValue] = results.map { result in
            var members: JSONObject = [
                "id": .string(result.id),
                "status": .string(result.status.rawValue),
                "inputs": .array(result.inputs.map { .string($0) }),
                "outputs": .array(result.outputs.map { .string($0) }),
                "diagnostics": .array(result.warnings.map { .string($0) }),
                "warnings": .number(Double(result.warnings.count)),
            ]
            if let error = result.error { members["error"] = .string(error) }
            if let verification = result.verification { members["verification"] = verification.json }
            if timings { members["durationSeconds"] = .number((result.duration * 1000).rounded() / 1000) }
            return .object(members)
        }
        var summaryMembers: JSONObject = [
            "exports": .number(Double(results.count)),
            "converted": .number(Double(count(.converted))),
            "upToDate": .number(Double(count(.upToDate))),
            "failed": .number(Double(count(.failed))),
            "cancelled": .number(Double(count(.cancelled))),
            "warnings": .number(Double(warningCount)),
            "pruned": .number(Double(pruned.count)),
        ]
        if let verificationSummary = verificationJSON { summaryMembers["verification"] = verificationSummary }
        let summary: JSONValue = .object(summaryMembers)
        return JSONWriter.write(.object([
            "format": .string("keyframe-batch-report"),
            "version": 1,
            "tool": .string(tool),
            "summary": summary,
            "exports": .array(exports),
            "pruned": .array(pruned.map { .string($0) }),
            "notices": .array(notices.map { .string($0) }),
        ]))
    }

    /// A JUnit XML report (`--junit`): one test case per export; failed exports fail, cancelled ones are skipped,
    /// warnings go to the case's `system-out`.
    public func junitBytes(timings: Bool = true) -> [UInt8] {
        func time(_ seconds: Double) -> String { timings ? String(format: "%.3f", seconds) : "0.000" }
        let failures = count(.failed) + results.filter { $0.status != .failed && $0.verification?.passed == false }.count
        let skipped = count(.cancelled)
        let total = results.reduce(0) { $0 + $1.duration }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"keyframe batch\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"0\" "
            + "skipped=\"\(skipped)\" time=\"\(time(total))\">\n"
        xml += "  <testsuite name=\"keyframe batch\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"0\" "
            + "skipped=\"\(skipped)\" time=\"\(time(total))\">\n"
        for result in results {
            let attributes = "classname=\"keyframe.batch\" name=\"\(escape(result.id))\" time=\"\(time(result.duration))\""
            var body = ""
            switch result.status {
            case .failed:
                let message = result.error ?? "failed"
                body += "      <failure message=\"\(escape(message))\" type=\"conversion\">\(escape(message))</failure>\n"
            case .cancelled:
                body += "      <skipped message=\"not started: the batch stopped at the first failure (--fail-fast)\"/>\n"
            case .converted, .upToDate:
                if let verification = result.verification, !verification.passed {
                    body += "      <failure message=\"\(escape("verify: " + verification.verdict))\" type=\"verification\">"
                        + "\(escape(verification.junitText))</failure>\n"
                }
            }
            var out = "status: \(result.status.rawValue)\n"
            for output in result.outputs { out += "output: \(output)\n" }
            for warning in result.warnings { out += "warning: \(warning)\n" }
            if let verification = result.verification, verification.passed {
                out += "verification: \(verification.status.rawValue): \(verification.verdict)\n"
            }
            body += "      <system-out>\(escape(out))</system-out>\n"
            xml += "    <testcase \(attributes)>\n\(body)    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return Array(xml.utf8)
    }

    /// The human summary: counts, failures with their errors, and the slowest exports.
    public func summary(slowest: Int = 5) -> String {
        var text = "keyframe batch: \(results.count) exports: \(count(.converted)) converted, "
            + "\(count(.upToDate)) up to date, \(count(.failed)) failed"
        if count(.cancelled) > 0 { text += ", \(count(.cancelled)) not started" }
        let warned = results.filter { !$0.warnings.isEmpty }.count
        text += ", \(warningCount) warning\(warningCount == 1 ? "" : "s")"
        if warned > 0 { text += " in \(warned) export\(warned == 1 ? "" : "s")" }
        if !pruned.isEmpty { text += ", \(pruned.count) stale output\(pruned.count == 1 ? "" : "s") pruned" }
        text += "\n"
        if let line = verificationSummaryLine { text += line + "\n" }
        let converted = results.filter { $0.status == .converted }.sorted {
            $0.duration != $1.duration ? $0.duration > $1.duration : $0.id < $1.id
        }
        if !converted.isEmpty {
            text += "slowest: " + converted.prefix(slowest).map {
                "\($0.id) (\(String(format: "%.2f", $0.duration)) s)"
            }.joined(separator: ", ") + "\n"
        }
        return text
    }

    /// ``XMLEscape/text(_:)``: the one escape of the XML Keyframe writes.
    private func escape(_ text: String) -> String {
        XMLEscape.text(text)
    }
}
