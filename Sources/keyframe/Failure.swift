import ArgumentParser
import Foundation
import KeyframeFiles
import KeyframeJSON

/// Reports an input error on standard error and exits with code 1 (usage errors exit with 2 via ArgumentParser).
func fail(_ message: String) -> ExitCode {
    Output.write(Array("keyframe: error: \(TerminalText.escape(GivenPaths.relabel(message)))\n".utf8), to: STDERR_FILENO)
    return ExitCode(1)
}

/// Reports a usage error (a bad option value or combination) on standard error and exits with code 2.
func usageFailure(_ message: String) -> ExitCode {
    Output.write(Array("keyframe: error: \(TerminalText.escape(message))\n".utf8), to: STDERR_FILENO)
    return ExitCode(2)
}

/// Writes `bytes` to `path` atomically (``AtomicFile``): a temporary file in the same folder, then a rename, so a
/// reader never sees a half-written file, a failure leaves no partial output, and nothing that is not a regular file
/// is replaced.
func writeAtomically(_ bytes: [UInt8], to path: String) throws(FileWriteError) {
    try AtomicFile.write(bytes, to: path)
}
