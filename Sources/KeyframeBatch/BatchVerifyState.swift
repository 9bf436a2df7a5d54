import Foundation
import KeyframeFiles
import KeyframeJSON

/// What `keyframe batch --verify` remembers between runs, in `OUT/.keyframe-verify-state.json`: per export, the key
/// of its last verification and whether it passed.
///
/// The key is the content hash (XXH64) of everything a verdict depends on: the tool version, the conversion options, the verify
/// options (render settings and criteria), the export's input hashes (as the batch manifest records them) and the
/// name and content hash (XXH64) of every file in its golden folder. An export whose key is unchanged and that passed last time
/// is not rendered again; any change — an input, an option, a golden file added, removed or edited — verifies it
/// again. Failures are always verified again, so a failing tree keeps failing (and keeps its diff pictures) on every
/// run. A missing or unreadable state file only means everything is verified again.
public struct BatchVerifyState: Sendable, Equatable {
    /// The file's name inside OUT.
    public static let fileName = ".keyframe-verify-state.json"
    static let formatName = "keyframe-batch-verify-state"
    static let version = 1

    /// One export's last verification.
    public struct Entry: Sendable, Equatable {
        /// The key it was verified under.
        public var key: String
        /// Whether it passed (or was recorded).
        public var passed: Bool
        /// The frames it rendered.
        public var frames: Int
        /// Diff and actual pictures it left in OUT (relative to OUT), removed when it is verified again or pruned.
        public var artifacts: [String]

        public init(key: String, passed: Bool, frames: Int, artifacts: [String]) {
            self.key = key
            self.passed = passed
            self.frames = frames
            self.artifacts = artifacts
        }
    }

    /// Entries by export id.
    public var entries: [String: Entry] = [:]

    public init(entries: [String: Entry] = [:]) { self.entries = entries }

    /// Reads the state of OUT; anything missing or unreadable is an empty state (everything is verified again).
    public static func load(folder: String) -> BatchVerifyState {
        guard let data = FileManager.default.contents(atPath: folder + "/" + fileName),
            let root = try? JSONParser.parse([UInt8](data)),
            root["format"]?.stringValue == formatName, root["version"]?.doubleValue == Double(version)
        else { return BatchVerifyState() }
        var state = BatchVerifyState()
        for (id, value) in root["exports"]?.objectValue ?? [:] {
            guard let key = value["key"]?.stringValue, let passed = value["passed"]?.boolValue,
                let frames = value["frames"]?.doubleValue
            else { continue }
            state.entries[id] = Entry(key: key, passed: passed, frames: Int(frames),
                                      artifacts: (value["artifacts"]?.arrayValue ?? []).compactMap(\.stringValue))
        }
        return state
    }

    /// The state as JSON (sorted keys: its bytes depend only on what was verified).
    public var json: JSONValue {
        var exports: JSONObject = [:]
        for (id, entry) in entries {
            exports[id] = .object([
                "key": .string(entry.key),
                "passed": .bool(entry.passed),
                "frames": .number(Double(entry.frames)),
                "artifacts": .array(entry.artifacts.map { .string($0) }),
            ])
        }
        return .object([
            "format": .string(BatchVerifyState.formatName),
            "version": .number(Double(BatchVerifyState.version)),
            "exports": .object(exports),
        ])
    }

    /// Writes the state into OUT atomically.
    public func save(folder: String) throws(FileWriteError) {
        try AtomicFile.write(JSONWriter.write(json), to: folder + "/" + BatchVerifyState.fileName)
    }
}
