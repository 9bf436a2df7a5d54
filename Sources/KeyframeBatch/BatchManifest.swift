import Foundation
import KeyframeFiles
import KeyframeJSON

/// What OUT holds: per export, the content hash of every input file, the options and tool version it was converted
/// with, the size and content hash of each of its outputs, and its warnings. Stored as `OUT/.keyframe-manifest.json`
/// (sorted keys, no timings, so its bytes depend only on what was converted).
///
/// An entry vouches for outputs only while they hold the recorded bytes: a rerun compares each output's size and, when
/// its `stat` is not the one the `BatchStatCache` saw, its content hash. Before a run replaces the first of an
/// export's outputs, the export's entry stops vouching for any of them (a "started" line in the `BatchJournal`): it
/// becomes *pending*, listing every file that conversion may write, until the conversion finishes and records its
/// outputs. A pending entry is never up to date, and its next conversion (or `--prune`) removes the files it lists that
/// are no longer produced, so an interrupted run leaves neither outputs from other bytes nor strays.
public struct BatchManifest: Sendable, Equatable {
    /// The manifest's file name inside OUT.
    public static let fileName = ".keyframe-manifest.json"
    /// The `format` member that identifies a manifest.
    public static let formatName = "keyframe-batch-manifest"
    /// The manifest version this build writes and reads. Version 1 recorded SHA-256 digests; version 2 recorded
    /// ``ContentHash`` (XXH64) digests of the inputs and only the names of the outputs; version 3 adds each output's
    /// size and digest. A manifest of any other version is rebuilt (its exports are converted once more).
    public static let version = 3

    /// One output as written: its size and ``ContentHash/digest(_:)``.
    public struct Output: Sendable, Equatable {
        public var size: Int
        public var digest: String

        public init(size: Int, digest: String) {
            self.size = size
            self.digest = digest
        }

        /// The record of `bytes`.
        public init(_ bytes: [UInt8]) {
            self.init(size: bytes.count, digest: ContentHash.digest(bytes))
        }
    }

    /// One converted export.
    public struct Entry: Sendable, Equatable {
        /// Input file (relative to the export's input folder) → ``ContentHash/digest(_:)`` of its bytes.
        public var inputs: [String: String]
        /// ``BatchOptions/fingerprint`` at conversion time.
        public var options: String
        /// The tool version that converted it.
        public var tool: String
        /// Its outputs: path relative to OUT → size and digest of the bytes written.
        public var outputs: [String: Output]
        /// Its warning diagnostics, as text (kept so an up-to-date export still reports them).
        public var warnings: [String]
        /// Files (relative to OUT, sorted) that a conversion of the export began to write and did not finish; when
        /// not empty, the entry vouches for nothing.
        public var pending: [String]

        /// The outputs' paths, sorted.
        public var outputPaths: [String] { outputs.keys.sorted() }

        /// Every file of OUT the entry names: its outputs and its pending files, sorted.
        public var allPaths: [String] { Set(outputs.keys).union(pending).sorted() }

        public init(inputs: [String: String], options: String, tool: String, outputs: [String: Output],
                    warnings: [String], pending: [String] = []) {
            self.inputs = inputs
            self.options = options
            self.tool = tool
            self.outputs = outputs
            self.warnings = warnings
            self.pending = pending
        }

        /// What is known once a conversion has begun writing `planned` over what `entry` (if any) records: the files
        /// of both, none vouched for.
        static func started(from entry: Entry?, writing planned: [String]) -> Entry {
            var result = entry ?? Entry(inputs: [:], options: "", tool: "", outputs: [:], warnings: [])
            result.pending = Set(result.allPaths).union(planned).sorted()
            return result
        }
    }

    /// Entries by export id.
    public var entries: [String: Entry] = [:]

    public init(entries: [String: Entry] = [:]) { self.entries = entries }

    /// Reads the manifest of OUT. A missing file is an empty manifest; a corrupt one, or one from a newer version,
    /// is an empty manifest plus a notice saying why (everything is then converted again).
    public static func load(folder: String) -> (manifest: BatchManifest, notice: String?) {
        let path = folder + "/" + fileName
        guard FileManager.default.fileExists(atPath: path) else { return (BatchManifest(), nil) }
        guard let data = FileManager.default.contents(atPath: path) else {
            return (BatchManifest(), "the manifest \(path) cannot be read; converting everything again")
        }
        let root: JSONValue
        do { root = try JSONParser.parse([UInt8](data)) } catch {
            return (BatchManifest(), "the manifest \(path) is corrupt (\(error.line):\(error.column): \(error.message)); "
                    + "rebuilding it and converting everything again")
        }
        guard root["format"]?.stringValue == formatName, let version = root["version"]?.doubleValue else {
            return (BatchManifest(), "\(path) is not a keyframe batch manifest; rebuilding it and converting everything again")
        }
        if version != Double(BatchManifest.version) {
            return (BatchManifest(), "the manifest \(path) was written by \(version > Double(BatchManifest.version) ? "a newer" : "an older") "
                    + "keyframe (manifest version \(JSONWriter.format(version)), this one reads \(BatchManifest.version)); "
                    + "rebuilding it and converting everything again")
        }
        var manifest = BatchManifest()
        for (id, value) in root["exports"]?.objectValue ?? [:] {
            guard let entry = entry(from: value) else {
                return (BatchManifest(), "the manifest \(path) is corrupt (export \"\(id)\" is incomplete); "
                        + "rebuilding it and converting everything again")
            }
            manifest.entries[id] = entry
        }
        return (manifest, nil)
    }

    /// Reads the manifest of OUT (``load(folder:)``) and applies what the journal of an interrupted run recorded
    /// (`BatchJournal`), in order: the exports it began writing become pending, the exports it finished get their new
    /// entries.
    public static func loadWithJournal(folder: String) -> (manifest: BatchManifest, notice: String?, journaled: Int) {
        var (manifest, notice) = load(folder: folder)
        let journaled = BatchJournal.records(in: folder)
        for record in journaled {
            switch record {
            case .started(let id, let planned):
                manifest.entries[id] = Entry.started(from: manifest.entries[id], writing: planned)
            case .finished(let id, let entry):
                manifest.entries[id] = entry
            }
        }
        return (manifest, notice, journaled.count)
    }

    /// One entry from its JSON, or `nil` when a member is missing or malformed.
    static func entry(from value: JSONValue) -> Entry? {
        guard let inputs = value["inputs"]?.objectValue, let options = value["options"]?.stringValue,
            let tool = value["tool"]?.stringValue, let outputValues = value["outputs"]?.objectValue
        else { return nil }
        var outputs: [String: Output] = [:]
        for (path, output) in outputValues {
            guard let size = output["size"]?.doubleValue, let digest = output["digest"]?.stringValue,
                let whole = Int(exactly: size), whole >= 0
            else { return nil }
            outputs[path] = Output(size: whole, digest: digest)
        }
        return Entry(inputs: inputs.dictionary.compactMapValues(\.stringValue), options: options, tool: tool, outputs: outputs,
                     warnings: (value["warnings"]?.arrayValue ?? []).compactMap(\.stringValue),
                     pending: (value["pending"]?.arrayValue ?? []).compactMap(\.stringValue))
    }

    /// One entry as JSON.
    static func entryJSON(_ entry: Entry) -> JSONValue {
        var members: JSONObject = [
            "inputs": .object(JSONObject(entry.inputs.mapValues { JSONValue.string($0) })),
            "options": .string(entry.options),
            "tool": .string(entry.tool),
            "outputs": .object(JSONObject(entry.outputs.mapValues {
                JSONValue.object(["size": .number(Double($0.size)), "digest": .string($0.digest)])
            })),
            "warnings": .array(entry.warnings.map { .string($0) }),
        ]
        if !entry.pending.isEmpty { members["pending"] = .array(entry.pending.map { .string($0) }) }
        return .object(members)
    }

    /// The manifest as JSON.
    public var json: JSONValue {
        var exports: JSONObject = [:]
        for (id, entry) in entries { exports[id] = BatchManifest.entryJSON(entry) }
        return .object([
            "format": .string(BatchManifest.formatName),
            "version": .number(Double(BatchManifest.version)),
            "exports": .object(exports),
        ])
    }

    /// Writes the manifest into OUT atomically.
    public func save(folder: String) throws(FileWriteError) {
        try AtomicFile.write(JSONWriter.write(json), to: folder + "/" + BatchManifest.fileName)
    }
}
