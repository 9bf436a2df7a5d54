import Foundation

/// The outcome of one run of the built `keyframe` binary.
struct CLIRun {
    /// The exit code, or the signal's number when ``terminationReasonIsExit`` is false.
    var status: Int32
    var stdout: String
    var stderr: String
    /// Whether the process exited rather than died of a signal (a trap, an abort).
    var terminationReasonIsExit = true
}

/// Runs the built `keyframe` binary as a user would, for every CLI test class.
enum CLIRunner {
    /// The executable: the test bundle sits in the build products folder next to it.
    static let binary: URL = {
        var folder = Bundle(for: CLITests.self).bundleURL
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("keyframe").path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("keyframe")
    }()

    /// Runs `keyframe arguments…` and collects its exit status and both output streams.
    ///
    /// `standardOutput` replaces the collected standard output (e.g. `/dev/full`); `directory` is the working
    /// folder (default: the test's).
    static func run(_ arguments: [String], standardOutput: FileHandle? = nil, directory: URL? = nil) throws -> CLIRun {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = standardOutput ?? out
        process.standardError = err
        try process.run()
        if standardOutput != nil { try? out.fileHandleForWriting.close() }
        let outData = standardOutput == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIRun(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self),
                      terminationReasonIsExit: process.terminationReason == .exit)
    }
}
