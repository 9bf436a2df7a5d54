import Foundation
import XCTest

/// Runs Scripts/validate-schema.py on JSON texts; `nil` means python3 or jsonschema is unavailable.
public enum SchemaValidator {
    /// The script's exit status (0: every file valid) and its output.
    public struct Result {
        public var status: Int32
        public var output: String
    }

    /// The checkout's root folder.
    public static var packageRoot: URL { TestPaths.packageRoot }

    /// Validates each document (written to a temporary file) in one run of the script.
    public static func validate(_ documents: [String: [UInt8]]) throws -> Result {
        let folder = try TestPaths.temporaryFolder("keyframe-schema")
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (name, bytes) in documents.sorted(by: { $0.key < $1.key }) {
            let url = folder.appendingPathComponent("\(name).json")
            try Data(bytes).write(to: url)
            paths.append(url.path)
        }
        let status: Int32, output: String
        do {
            (status, output) = try CommandRun.run(["python3", "Scripts/validate-schema.py"] + paths, in: packageRoot)
        } catch {
            throw XCTSkip("cannot run /usr/bin/env python3 (\(error)); schema validation skipped")
        }
        switch status {
        case 3:
            throw XCTSkip("python3 has no `jsonschema` package (python3 -m pip install jsonschema); schema validation skipped")
        case 126, 127:
            throw XCTSkip("python3 is not installed; schema validation skipped: \(output)")
        default:
            return Result(status: status, output: output)
        }
    }

    public static func validate(_ bytes: [UInt8], name: String = "document") throws -> Result {
        try validate([name: bytes])
    }
}


extension SchemaValidator {
    /// Validates `documents` (name → normalized JSON bytes) in one run and fails the test, naming `context`,
    /// unless every one is valid; skips when python3 or jsonschema is missing.
    public static func assertValid(_ documents: [String: [UInt8]], _ context: String,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        guard !documents.isEmpty else { return }
        let result = try validate(documents)
        if result.status == 0 {
            XCTAssertEqual(result.output.components(separatedBy: ": valid").count - 1, documents.count, result.output,
                           file: file, line: line)
        } else {
            XCTFail("\(context) does not match docs/keyframe.schema.json:\n\(result.output)", file: file, line: line)
        }
    }
}
