import Foundation

/// A one-line progress bar on standard error, drawn only when standard error is a terminal.
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private var drawn = false
    private let width = 30

    /// A bar when standard error is a terminal; `nil` otherwise (so logs and CI stay quiet).
    static func forStandardError() -> ProgressBar? {
        isatty(STDERR_FILENO) != 0 ? ProgressBar() : nil
    }

    /// Redraws the bar: `walk [##########··········] 12/24`.
    func update(label: String, done: Int, total: Int) {
        lock.lock()
        defer { lock.unlock() }
        let filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "#", count: filled) + String(repeating: "·", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(done)/\(total)\u{1B}[K".utf8))
        drawn = true
    }

    /// Ends the bar's line, if one was drawn.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
        drawn = false
    }
}
