import Foundation

/// Runs a command through `/usr/bin/env` (so `python3` or `swift` is found on the PATH), waiting for it to finish.
public enum CommandRun {
    /// The command's exit status and its standard output and error, interleaved as it wrote them.
    ///
    /// - Parameter folder: the working folder (default: the test process's own).
    public static func run(_ arguments: [String], in folder: URL? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        // Read before waiting: a child that fills the pipe would otherwise never exit.
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
