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
        let result = try CommandRun.run(["python3", "Scripts/validate-lottie.py", "--schema", schema.path] + paths,
                                        in: TestPaths.packageRoot)
        if result.status == 3 { throw XCTSkip("python3 has no jsonschema; Lottie schema validation skipped") }
        return result
    }
}
