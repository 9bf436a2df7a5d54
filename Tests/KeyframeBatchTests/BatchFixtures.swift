import Foundation
import KeyframeExport
import KeyframeFiles
import KeyframeModel
import KeyframeTestSupport
import XCTest

/// Trees of exports for batch tests, the built CLI, and folder snapshots.
enum BatchFixtures {
    /// The samples every tree copies (all five formats' kinds: Animate, BTA with LIBRARY, DragonBones, Flump).
    static let samples = ["animate-bouncer-long", "animate-walker", "bta-spinner", "dragonbones-waver", "flump-hopbot"]

    /// A tree `root/set-NN/<sample>/…` with `copies` copies of every sample (5 × copies exports).
    static func tree(copies: Int, in root: URL) throws -> URL {
        for copy in 0..<copies {
            let set = root.appendingPathComponent(String(format: "set-%02d", copy))
            try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
            for sample in samples {
                try FileManager.default.copyItem(at: TestPaths.packageRoot.appendingPathComponent("Samples/\(sample)"),
                                                 to: set.appendingPathComponent(sample))
            }
        }
        return root
    }

    /// Every regular file under `folder` (relative path → bytes), leaving out the lock file and the stat cache (both local to a run and a machine).
    static func snapshot(_ folder: URL) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return files }
        while let item = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let path = folder.appendingPathComponent(item).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                !item.hasSuffix(".keyframe-batch.lock"), !item.hasSuffix(".keyframe-stat-cache.json")
            else { continue }
            files[item] = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
        }
        return files
    }

    /// Asserts two snapshots hold the same files with the same bytes, naming the first differences.
    static func assertSame(_ actual: [String: [UInt8]], _ expected: [String: [UInt8]], _ context: String,
                           file: StaticString = #filePath, line: UInt = #line) {
        let missing = Set(expected.keys).subtracting(actual.keys).sorted()
        let extra = Set(actual.keys).subtracting(expected.keys).sorted()
        let different = expected.keys.filter { actual[$0] != nil && actual[$0] != expected[$0] }.sorted()
        XCTAssert(missing.isEmpty && extra.isEmpty && different.isEmpty,
                  "\(context): missing \(missing.prefix(5)), extra \(extra.prefix(5)), different \(different.prefix(5))",
                  file: file, line: line)
    }
}

/// The outcome of one run of the built `keyframe` binary.
struct BatchCLIRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the built `keyframe` binary as a user (or a build system) would.
enum BatchCLI {
    /// The executable: the test bundle sits in the build products folder next to it.
    static let binary: URL = {
        var folder = Bundle(for: BatchCLITests.self).bundleURL
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("keyframe").path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("keyframe")
    }()

    static func run(_ arguments: [String], in directory: URL? = nil) throws -> BatchCLIRun {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return BatchCLIRun(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                           stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// A stand-in player format for tests (not shipped): per clip, a small JSON naming the clip, its frame count and the
/// document's node count; optionally a companion file per clip and a warning, to drive every naming path.
struct TestExporter: DocumentExporter {
    var format: ExportFormat = .lottie
    var companions = false
    var warning: String?

    func export(_ document: Document, assetsFolder: InputFolder, options: ExportOptions) throws(ExportError)
        -> ExportResult
    {
        let clips = options.clips.map { names in document.clips.filter { names.contains($0.name) } } ?? document.clips
        guard !clips.isEmpty else { throw ExportError(source: document.name, message: "no clips") }
        var diagnostics: [Diagnostic] = []
        if let warning {
            diagnostics.append(Diagnostic(severity: .warning, code: "test.warning", message: warning))
            if options.strict { throw ExportError(source: document.name, message: "strict: \(warning)") }
        }
        let exported = clips.map { clip in
            let text = "{\"clip\":\"\(clip.name)\",\"frames\":\(clip.duration.value),\"nodes\":\(document.nodeCount)}\n"
            let main = ExportedFile(relativePath: "\(clip.name).json", bytes: Array(text.utf8))
            let extra = companions ? [ExportedFile(relativePath: "images/\(clip.name).txt", bytes: Array(clip.name.utf8))] : []
            return ExportedClip(clip: clip.name, main: main, companions: extra)
        }
        return ExportResult(clips: exported, diagnostics: diagnostics)
    }
}
