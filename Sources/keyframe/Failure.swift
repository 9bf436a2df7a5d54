import ArgumentParser
import Foundation

/// Reports an input error on standard error and exits with code 1 (usage errors exit with 2 via ArgumentParser).
func fail(_ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("keyframe: error: \(message)\n".utf8))
    return ExitCode(1)
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder, then a rename, so a reader never sees
/// a half-written file and a failure leaves no partial output.
func writeAtomically(_ bytes: [UInt8], to path: String) throws {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
    do {
        try Data(bytes).write(to: temporary)
        // rename(2) replaces an existing file atomically; FileManager.replaceItemAt on Linux could fail after
        // removing the old file, losing it.
        guard rename(temporary.path, url.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))])
        }
    } catch {
        try? FileManager.default.removeItem(at: temporary)
        throw error
    }
}
