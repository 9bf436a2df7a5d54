import Foundation
import KeyframeJSON
import KeyframeVerify

/// How one export's frames compared with its goldens in `keyframe batch --verify`.
///
/// Paths are relative, so reports do not depend on where OUT or the golden root are: a frame's `goldenPath` is
/// relative to the golden root, its saved diff and actual pictures are relative to OUT.
public struct BatchVerification: Sendable, Equatable {
    /// The verdict.
    public enum Status: String, Sendable, Equatable {
        /// Every frame matched its golden frame.
        case passed
        /// A frame differed, a golden was missing or extra, or the export could not be verified (``error``).
        case failed
        /// `--record`: the goldens were brought in line with the render (``recorded`` says what changed).
        case recorded
    }

    public var status: Status
    /// The export's golden folder, relative to the golden root (`characters/walker`).
    public var goldenFolder: String
    /// The verdict was carried over from an earlier run with the same inputs, options, tool and golden bytes, so
    /// nothing was rendered.
    public var unchanged: Bool
    /// The frames rendered and checked (extra goldens not counted).
    public var frames: Int
    /// How many frames (and extra goldens) had each status.
    public var counts: [FrameCheck.Status: Int]
    /// The failing frames, in render order then extra goldens (relative paths; no pictures in memory).
    public var failures: [FrameCheck]
    /// Why the export could not be verified at all (no golden folder, a render error).
    public var error: String?
    /// With `--record`: what changed in the golden folder.
    public var recorded: GoldenRecorder.Summary?

    public init(status: Status, goldenFolder: String, unchanged: Bool = false, frames: Int = 0,
                counts: [FrameCheck.Status: Int] = [:], failures: [FrameCheck] = [], error: String? = nil,
                recorded: GoldenRecorder.Summary? = nil) {
        self.status = status
        self.goldenFolder = goldenFolder
        self.unchanged = unchanged
        self.frames = frames
        self.counts = counts
        self.failures = failures
        self.error = error
        self.recorded = recorded
    }

    /// Whether the export passes verification (recording always passes).
    public var passed: Bool { status != .failed }

    /// The failing frames and extra goldens.
    public var failingFrames: Int { failures.count }

    /// The short verdict: `12 frames match`, `2 of 24 frames fail (2 differ)`, the error, or what was recorded.
    public var verdict: String {
        if let error { return error }
        switch status {
        case .passed:
            return "\(frames) frame\(frames == 1 ? "" : "s") match" + (unchanged ? " (unchanged since the last run)" : "")
        case .recorded:
            let summary = recorded ?? GoldenRecorder.Summary()
            return summary.description + (unchanged ? " (unchanged since the last run)" : "")
        case .failed:
            var parts: [String] = []
            for (state, label) in BatchVerification.failureLabels where (counts[state] ?? 0) > 0 {
                parts.append("\(counts[state]!) \(label)")
            }
            let failing = failures.filter { $0.status != .extraGolden }.count
            return "\(failing) of \(frames) frame\(frames == 1 ? "" : "s") fail" + (parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))")
        }
    }

    static let failureLabels: [(FrameCheck.Status, String)] = [
        (.differs, "differ"), (.missingGolden, "missing golden"), (.sizeMismatch, "size mismatch"),
        (.unreadableGolden, "unreadable golden"), (.extraGolden, "extra golden"),
    ]

    /// Lines for standard error about a failed verification of export `id`: the verdict, then per failing frame its
    /// message and where its diff and actual pictures are (`outPrefix` is put before those OUT-relative paths).
    public func errorLines(id: String, outPrefix: String) -> [String] {
        guard status == .failed else { return [] }
        var lines = ["\(id): verify against golden \(goldenFolder): \(verdict)"]
        for frame in failures {
            lines.append("  \(frame.fileName): \(frame.status.rawValue): \(frame.message)")
            if let diff = frame.savedDiffPath { lines.append("    diff: \(outPrefix)\(diff)") }
            if let actual = frame.savedActualPath { lines.append("    actual: \(outPrefix)\(actual)") }
        }
        return lines
    }

    /// The `verification` member of the export's entry in the JSON report.
    public var json: JSONValue {
        var counts: JSONObject = [:]
        for state in [FrameCheck.Status.match, .differs, .missingGolden, .extraGolden, .sizeMismatch, .unreadableGolden] {
            counts[state.rawValue] = .number(Double(self.counts[state] ?? 0))
        }
        var members: JSONObject = [
            "status": .string(status.rawValue),
            "golden": .string(goldenFolder),
            "unchanged": .bool(unchanged),
            "frames": .number(Double(frames)),
            "counts": .object(counts),
            "failures": .array(failures.map(VerifyReport.json(for:))),
        ]
        if let error { members["error"] = .string(error) }
        if let recorded {
            members["recorded"] = .object([
                "added": .array(recorded.added.map { .string($0) }),
                "updated": .array(recorded.updated.map { .string($0) }),
                "removed": .array(recorded.removed.map { .string($0) }),
                "unchanged": .number(Double(recorded.unchanged)),
            ])
        }
        return .object(members)
    }

    /// The body of a JUnit `<failure>`: the verdict, then one line per failing frame with its figures and pictures.
    public var junitText: String {
        var text = "verify against golden \(goldenFolder): \(verdict)\n"
        for frame in failures {
            text += "\(frame.fileName) (clip \(frame.clip), frame \(frame.number)): \(frame.status.rawValue): \(frame.message)\n"
            if let diff = frame.savedDiffPath { text += "  diff: \(diff)\n" }
            if let actual = frame.savedActualPath { text += "  actual: \(actual)\n" }
        }
        return text
    }

    public static func == (a: BatchVerification, b: BatchVerification) -> Bool { a.json == b.json }
}
