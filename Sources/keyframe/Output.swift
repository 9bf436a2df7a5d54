import ArgumentParser
import KeyframeJSON
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The one way the CLI writes to standard output and standard error.
///
/// Every write goes straight to the file descriptor with `write(2)` and is checked, so a full disk, a closed
/// terminal or `> /dev/full` is an error (exit 1) rather than a trap (`FileHandle.write(_:)`) or a silently lost
/// line (`print`, whose buffered errors are never reported). Commands never call `print` or `FileHandle`.
enum Output {
    /// Writes `text` to standard output.
    ///
    /// - Throws: `ExitCode(1)` after saying on standard error why standard output could not be written.
    /// Text goes through ``TerminalText/escape(_:)``: a name holding control characters never reaches a terminal
    /// raw.
    static func out(_ text: String) throws(ExitCode) {
        try out(Array(TerminalText.escape(GivenPaths.relabel(text)).utf8))
    }

    /// Writes `text` and a line break to standard output.
    static func out(line text: String) throws(ExitCode) {
        try out(Array((text + "\n").utf8))
    }

    /// Writes a `--json` report to standard output, its paths as the user gave them (``GivenPaths``).
    static func report(_ bytes: [UInt8]) throws(ExitCode) {
        try out(GivenPaths.relabel(report: bytes))
    }

    /// Writes `bytes` to standard output.
    static func out(_ bytes: [UInt8]) throws(ExitCode) {
        if let reason = write(bytes, to: STDOUT_FILENO) {
            _ = write(Array("keyframe: error: cannot write to standard output: \(reason)\n".utf8), to: STDERR_FILENO)
            throw ExitCode(1)
        }
    }

    /// Writes `text` to standard error (a message, a warning, a progress bar).
    ///
    /// - Throws: `ExitCode(1)` when standard error cannot be written (there is nowhere left to say why).
    static func err(_ text: String) throws(ExitCode) {
        if write(Array(TerminalText.escape(GivenPaths.relabel(text)).utf8), to: STDERR_FILENO) != nil { throw ExitCode(1) }
    }

    /// `keyframe: warning: …` for each diagnostic worth showing.
    static func warn(_ line: String) throws(ExitCode) {
        try err("keyframe: \(line)\n")
    }

    /// Writes all of `bytes` to `descriptor`; returns why it failed, or `nil`.
    @discardableResult
    static func write(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        bytes.withUnsafeBytes { raw -> String? in
            var offset = 0
            while offset < raw.count {
                #if canImport(Glibc)
                let written = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                #elseif canImport(Darwin)
                let written = Darwin.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                #else
                let written = Musl.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                if written == 0 { return "nothing was written" }
                offset += written
            }
            return nil
        }
    }
}
