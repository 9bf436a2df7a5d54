import Foundation
import KeyframeJSON
import KeyframeVerify

/// The verification totals of a batch report (`keyframe batch --verify`).
extension BatchReport {
    /// The exports that were verified (or recorded).
    public var verifiedResults: [BatchExportResult] { results.filter { $0.verification != nil } }

    /// The `verification` member of the JSON report's summary, or `nil` without `--verify`.
    var verificationJSON: JSONValue? {
        guard let criteria = verifyCriteria else { return nil }
        let verified = verifiedResults.compactMap(\.verification)
        var members: JSONObject = [
            "mode": .string(recording ? "record" : "verify"),
            "criteria": .object([
                "tolerance": .number(Double(criteria.tolerance)),
                "maxDifferingShare": .number(criteria.maxDifferingShare),
            ]),
            "exports": .number(Double(verified.count)),
            "passed": .number(Double(verified.filter { $0.status == .passed }.count)),
            "failed": .number(Double(verified.filter { $0.status == .failed }.count)),
            "recorded": .number(Double(verified.filter { $0.status == .recorded }.count)),
            "unchanged": .number(Double(verified.filter(\.unchanged).count)),
            "notVerified": .number(Double(results.count - verified.count)),
            "frames": .number(Double(verified.reduce(0) { $0 + $1.frames })),
            "failingFrames": .number(Double(verified.reduce(0) { $0 + $1.failingFrames })),
        ]
        if recording {
            let summaries = verified.compactMap(\.recorded)
            members["goldens"] = .object([
                "added": .number(Double(summaries.reduce(0) { $0 + $1.added.count })),
                "updated": .number(Double(summaries.reduce(0) { $0 + $1.updated.count })),
                "removed": .number(Double(summaries.reduce(0) { $0 + $1.removed.count })),
                "unchanged": .number(Double(summaries.reduce(0) { $0 + $1.unchanged })),
            ])
        }
        return .object(members)
    }

    /// The summary's verification line: `verify: 5 exports: 4 passed (3 unchanged since the last run), 1 failed;
    /// 2 of 130 frames fail`, or for `--record` what changed in the goldens.
    var verificationSummaryLine: String? {
        guard verifyCriteria != nil else { return nil }
        let verified = verifiedResults.compactMap(\.verification)
        let notVerified = results.count - verified.count
        let unchanged = verified.filter(\.unchanged).count
        let frames = verified.reduce(0) { $0 + $1.frames }
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var text: String
        if recording {
            let summaries = verified.compactMap(\.recorded)
            text = "record: \(plural(verified.count, "export")): goldens "
                + "\(summaries.reduce(0) { $0 + $1.added.count }) new, \(summaries.reduce(0) { $0 + $1.updated.count }) "
                + "updated, \(summaries.reduce(0) { $0 + $1.removed.count }) removed, "
                + "\(summaries.reduce(0) { $0 + $1.unchanged }) unchanged"
            let failed = verified.filter { $0.status == .failed }.count
            if failed > 0 { text += ", \(failed) failed" }
        } else {
            let passed = verified.filter { $0.status == .passed }.count
            let failed = verified.filter { $0.status == .failed }
            text = "verify: \(plural(verified.count, "export")): \(passed) passed"
            if unchanged > 0 { text += " (\(unchanged) unchanged since the last run)" }
            text += ", \(failed.count) failed; "
            let failing = failed.reduce(0) { $0 + $1.failures.filter { $0.status != .extraGolden }.count }
            text += failing > 0 ? "\(failing) of \(plural(frames, "frame")) fail" : "\(plural(frames, "frame")) checked"
        }
        if notVerified > 0 { text += "; \(notVerified) not verified (conversion failed or not started)" }
        return text
    }

    /// One self-contained HTML page for the whole verification (`--verify-html`): per export that failed, its
    /// failing frames with expected, actual and heat-map pictures side by side; then the exports that passed.
    ///
    /// - Parameters:
    ///   - output: OUT (where the diff and actual pictures are).
    ///   - goldenRoot: the golden root (where the expected pictures are).
    ///   - recordCommand: the command line that records the rendered frames as the new goldens, shown on the page.
    public func verificationHTML(output: URL, goldenRoot: URL, recordCommand: String? = nil) -> String {
        let criteria = verifyCriteria ?? VerifyCriteria()
        let out = output.standardizedFileURL.path
        let golden = goldenRoot.standardizedFileURL.path
        var sections: [VerifyHTMLReport.Section] = []
        for result in verifiedResults {
            guard let verification = result.verification else { continue }
            let frames = verification.failures.map { frame -> FrameCheck in
                var frame = frame
                frame.goldenPath = golden + "/" + frame.goldenPath
                frame.savedDiffPath = frame.savedDiffPath.map { out + "/" + $0 }
                frame.savedActualPath = frame.savedActualPath.map { out + "/" + $0 }
                return frame
            }
            let report = VerifyReport(goldenFolder: verification.goldenFolder, criteria: criteria, frames: frames)
            sections.append(VerifyHTMLReport.Section(
                heading: result.id, report: report, error: verification.status == .failed ? verification.error : nil,
                verdict: "\(verification.verdict) (golden folder \(verification.goldenFolder))"))
        }
        // Failures first, so the page opens on what needs attention.
        let ordered = sections.filter { !$0.report.passed || $0.error != nil } + sections.filter { $0.report.passed && $0.error == nil }
        return VerifyHTMLReport.html(sections: ordered, title: "Keyframe batch verification", recordCommand: recordCommand)
    }
}
