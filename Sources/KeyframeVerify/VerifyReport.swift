import Foundation
import KeyframeJSON
import KeyframeRaster

/// The outcome of a verification: every frame's verdict, a human summary and a JSON report.
public struct VerifyReport: Sendable {
    /// The golden folder compared with.
    public var goldenFolder: String
    /// The criteria used.
    public var criteria: VerifyCriteria
    /// Every frame, in render order, then extra golden frames in name order.
    public var frames: [FrameCheck]

    public init(goldenFolder: String, criteria: VerifyCriteria, frames: [FrameCheck]) {
        self.goldenFolder = goldenFolder
        self.criteria = criteria
        self.frames = frames
    }

    /// Whether every frame matched and no golden frame was left over.
    public var passed: Bool { frames.allSatisfy(\.passed) }
    /// The frames that failed.
    public var failures: [FrameCheck] { frames.filter { !$0.passed } }

    /// How many frames have each status.
    public func count(_ status: FrameCheck.Status) -> Int { frames.filter { $0.status == status }.count }

    /// Lines for a terminal: one per failing frame, then a one-line total.
    public var summary: String {
        var lines: [String] = []
        for frame in failures {
            lines.append("FAIL \(frame.fileName): \(frame.message)")
            if let diff = frame.savedDiffPath { lines.append("     diff: \(diff)") }
            if let actual = frame.savedActualPath { lines.append("     actual: \(actual)") }
        }
        let checked = frames.count - count(.extraGolden)
        var parts = ["\(count(.match)) of \(checked) frame(s) match \(goldenFolder)"]
        for (status, label) in [(FrameCheck.Status.differs, "differ"), (.missingGolden, "missing golden"),
                                (.sizeMismatch, "size mismatch"), (.unreadableGolden, "unreadable golden"),
                                (.extraGolden, "extra golden")] where count(status) > 0 {
            parts.append("\(count(status)) \(label)")
        }
        let tolerance = "tolerance \(criteria.tolerance), max differing \(VerifyReport.percent(criteria.maxDifferingShare))"
        lines.append((passed ? "ok: " : "failed: ") + parts.joined(separator: ", ") + " (\(tolerance))")
        return lines.joined(separator: "\n")
    }

    /// The report as JSON (deterministic: sorted keys, shortest numbers).
    public var json: JSONValue {
        var counts: JSONObject = [:]
        for status in [FrameCheck.Status.match, .differs, .missingGolden, .extraGolden, .sizeMismatch,
                       .unreadableGolden] {
            counts[status.rawValue] = .number(Double(count(status)))
        }
        return .object([
            "format": "keyframe-verify-report",
            "version": 1,
            "passed": .bool(passed),
            "golden": .string(goldenFolder),
            "criteria": .object([
                "tolerance": .number(Double(criteria.tolerance)),
                "maxDifferingShare": .number(criteria.maxDifferingShare),
            ]),
            "counts": .object(counts),
            "frames": .array(frames.map(VerifyReport.json(for:))),
        ])
    }

    /// One frame's entry in the JSON report.
    public static func json(for frame: FrameCheck) -> JSONValue {
        var entry: JSONObject = [
            "clip": .string(frame.clip),
            "frame": .number(Double(frame.number)),
            "file": .string(frame.fileName),
            "status": .string(frame.status.rawValue),
            "message": .string(frame.message),
            "golden": .string(frame.goldenPath),
        ]
        if let difference = frame.difference {
            entry["maxDifference"] = .number(Double(difference.maxDifference))
            entry["meanDifference"] = .number((difference.meanDifference * 1000).rounded() / 1000)
            entry["differingPixels"] = .number(Double(difference.differingPixels))
            entry["differingShare"] = .number((difference.differingShare * 1e6).rounded() / 1e6)
            if let bounds = difference.bounds {
                entry["bounds"] = .object(["x": .number(Double(bounds.x)), "y": .number(Double(bounds.y)),
                                           "width": .number(Double(bounds.width)),
                                           "height": .number(Double(bounds.height))])
            }
        }
        if let diff = frame.savedDiffPath { entry["diff"] = .string(diff) }
        if let actual = frame.savedActualPath { entry["actual"] = .string(actual) }
        return .object(entry)
    }

    /// The JSON report's bytes.
    public var jsonBytes: [UInt8] { JSONWriter.write(json) }

    /// `0.25%`, `12%`.
    static func percent(_ share: Double) -> String { decimal(share * 100) + "%" }

    /// A number with at most three decimals and no trailing zeros.
    static func decimal(_ value: Double) -> String { JSONWriter.format((value * 1000).rounded() / 1000) }
}
