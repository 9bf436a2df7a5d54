import Foundation
import KeyframeTestSupport
import XCTest

/// Runs `Scripts/validate-lottie.py` (Python's `jsonschema` over the Lottie specification's schema in
/// `../shared/reference/lottie-spec`) on exported files.
enum LottieSchemaValidator {
    /// The validator's exit status and output for `paths`; skips the test when the schema or `jsonschema` is missing.
    static func run(_ paths: [String]) throws -> (status: Int32, output: String) {
        let schema = TestPaths.shared.appendingPathComponent("reference/lottie-spec/lottie.schema.json")
        guard FileManager.default.fileExists(atPath: schema.path) else {
            throw XCTSkip("\(schema.path) is missing; Lottie schema validation skipped")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "Scripts/validate-lottie.py", "--schema", schema.path] + paths
        process.currentDirectoryURL = TestPaths.packageRoot
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        if process.terminationStatus == 3 { throw XCTSkip("python3 has no jsonschema; Lottie schema validation skipped") }
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
