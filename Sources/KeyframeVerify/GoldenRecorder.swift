import Foundation
import KeyframeFiles

/// Writes or refreshes a golden folder from a verification: only frames that failed are written (each atomically),
/// extra golden frames of clips rendered whole are removed, and frames that match are left untouched, so a
/// re-recorded golden set changes only where the render changed. Temporary files that an interrupted recording left in
/// the folder are removed (`Temporaries`), even when nothing else changes.
public enum GoldenRecorder {
    /// What a recording changed.
    public struct Summary: Sendable, Hashable, CustomStringConvertible {
        /// Golden frames that did not exist.
        public var added: [String] = []
        /// Golden frames replaced because they differed, had another size or were unreadable.
        public var updated: [String] = []
        /// Golden frames removed because the render no longer produces them.
        public var removed: [String] = []
        /// Golden frames left as they were.
        public var unchanged = 0

        public init(added: [String] = [], updated: [String] = [], removed: [String] = [], unchanged: Int = 0) {
            self.added = added
            self.updated = updated
            self.removed = removed
            self.unchanged = unchanged
        }

        public var description: String {
            "recorded \(added.count) new, \(updated.count) updated, \(removed.count) removed, \(unchanged) unchanged"
        }
    }

    /// Brings `report.goldenFolder` in line with the rendered frames of `report`.
    ///
    /// - Throws: ``VerifyError`` for the first file that cannot be written or removed.
    public static func record(_ report: VerifyReport) throws(VerifyError) -> Summary {
        Temporaries.sweep(report.goldenFolder)
        var summary = Summary()
        for frame in report.frames {
            switch frame.status {
            case .match:
                summary.unchanged += 1
            case .extraGolden:
                do { try FileManager.default.removeItem(atPath: frame.goldenPath) } catch {
                    throw VerifyError(path: frame.goldenPath, reason: "cannot remove: \(FileSystemReason.describe(error))")
                }
                summary.removed.append(frame.fileName)
            case .differs, .missingGolden, .sizeMismatch, .unreadableGolden:
                guard let actual = frame.actualPath, let bytes = FileManager.default.contents(atPath: actual) else {
                    throw VerifyError(path: frame.actualPath ?? frame.fileName, reason: "cannot read the rendered frame")
                }
                do { try AtomicFile.write(Array(bytes), to: frame.goldenPath) } catch {
                    throw VerifyError(path: frame.goldenPath, reason: error.reason)
                }
                if frame.status == .missingGolden { summary.added.append(frame.fileName) } else {
                    summary.updated.append(frame.fileName)
                }
            }
        }
        return summary
    }
}
