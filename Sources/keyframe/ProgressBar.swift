import ArgumentParser
import Foundation
import KeyframeRender

/// A one-line progress bar on standard error, drawn only when standard error is a terminal: the clip being drawn,
/// the overall count across every clip of the run, and an estimate of the time left.
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private var drawn = false
    private var failed = false
    private let width = 30
    private let start = DispatchTime.now().uptimeNanoseconds
    private var lastDraw: UInt64 = 0

    /// A bar when standard error is a terminal; `nil` otherwise (so logs and CI stay quiet).
    static func forStandardError() -> ProgressBar? {
        isatty(STDERR_FILENO) != 0 ? ProgressBar() : nil
    }

    /// Redraws the bar: `walk 12/24 [##########··········] 36/96 frames, 0:04 left`.
    func update(_ progress: RenderSession.Progress) {
        draw(prefix: "\(progress.name) \(progress.clipDone)/\(progress.clipTotal)", done: progress.done,
             total: progress.total, unit: "frames")
    }

    /// Redraws the bar for a count of other things: `batch [######······] 12/97 exports, 0:31 left`.
    func update(label: String, done: Int, total: Int, unit: String) {
        draw(prefix: label, done: done, total: total, unit: unit)
    }

    private func draw(prefix: String, done: Int, total: Int, unit: String) {
        lock.lock()
        defer { lock.unlock() }
        let now = DispatchTime.now().uptimeNanoseconds
        // At most ~20 redraws a second, but always the last one.
        guard done == total || now - lastDraw > 50_000_000 else { return }
        lastDraw = now
        let filled = total > 0 ? width * min(done, total) / total : width
        let bar = String(repeating: "#", count: filled) + String(repeating: "·", count: width - filled)
        let line = "\r\(prefix) [\(bar)] \(done)/\(total) \(unit)"
            + ProgressBar.timing(done: done, total: total, elapsed: Double(now - start) / 1e9)
            + "\u{1B}[K"
        if Output.write(Array(line.utf8), to: STDERR_FILENO) != nil { failed = true }
        drawn = true
    }

    /// `, 0:04 left` while running (elapsed time per frame so far × frames left), `, 0:12` (the time taken) at
    /// the end.
    static func timing(done: Int, total: Int, elapsed: Double) -> String {
        guard done > 0 else { return "" }
        if done >= total { return ", \(clock(elapsed))" }
        return ", \(clock(elapsed / Double(done) * Double(total - done))) left"
    }

    /// Ends the bar's line, if one was drawn.
    ///
    /// - Throws: `ExitCode(1)` when any part of the bar could not be written to standard error.
    func finish() throws(ExitCode) {
        lock.lock()
        defer { lock.unlock() }
        if drawn, Output.write(Array("\n".utf8), to: STDERR_FILENO) != nil { failed = true }
        drawn = false
        if failed { throw ExitCode(1) }
    }

    /// `1:05`, `12:00:03`.
    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60)
        let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }
}
