import Foundation
import KeyframeFiles
import KeyframePNG

/// Saves what a CI system should keep of a failed verification: for every failing frame, its diff picture
/// (`<frame>.diff.png`) and the rendered frame (`<frame>.actual.png`).
public enum VerifyArtifacts {
    /// Writes the artefacts of `report`'s failing frames into `folder` (created when needed) and records their paths
    /// in the report.
    ///
    /// - Throws: ``VerifyError`` when a file cannot be written.
    public static func write(_ report: inout VerifyReport, to folder: URL) throws(VerifyError) {
        var encoder = PNGEncoder(options: .fast)
        for index in report.frames.indices where !report.frames[index].passed {
            let frame = report.frames[index]
            let stem = String(frame.fileName.dropLast(frame.fileName.hasSuffix(".png") ? 4 : 0))
            if let diff = frame.diffImage {
                let path = folder.appendingPathComponent("\(stem).diff.png").path
                do {
                    try AtomicFile.write(try encoder.encode(diff), to: path)
                } catch let error as FileWriteError {
                    throw VerifyError(path: path, reason: error.reason)
                } catch {
                    throw VerifyError(path: path, reason: "\(error)")
                }
                report.frames[index].savedDiffPath = path
            }
            if let actual = frame.actualPath, let bytes = FileManager.default.contents(atPath: actual) {
                let path = folder.appendingPathComponent("\(stem).actual.png").path
                do { try AtomicFile.write(Array(bytes), to: path) } catch {
                    throw VerifyError(path: path, reason: error.reason)
                }
                report.frames[index].savedActualPath = path
            }
        }
    }
}
