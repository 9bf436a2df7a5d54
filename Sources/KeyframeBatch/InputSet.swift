import Foundation

/// The input files of one export during a run: each file's digest, taken from the ``BatchStatCache`` when its status
/// is unchanged or else read and hashed, and the bytes of every file read, which the importer then takes instead of
/// reading the file again.
struct InputSet {
    let export: BatchExport
    let cache: BatchStatCache
    /// Digests known so far, by relative path.
    private(set) var digests: [String: String] = [:]
    /// Files read so far, by relative path, with their standardized absolute paths.
    private var snapshots: [String: (path: String, snapshot: InputSnapshot)] = [:]
    /// Standardized absolute paths by relative path, worked out once per file (standardizing a URL costs about as
    /// much as hashing a small input).
    private var paths: [String: String] = [:]

    init(export: BatchExport, cache: BatchStatCache) {
        self.export = export
        self.cache = cache
    }

    /// Why an input could not be read, naming it.
    struct Failure: Error {
        var message: String
    }

    /// The digest of `file`: from the stat cache when its status is unchanged, else by reading it.
    mutating func digest(_ file: String) throws(Failure) -> String {
        if let known = digests[file] { return known }
        if let cached = cache.digest(of: standardizedPath(file)) {
            digests[file] = cached
            return cached
        }
        return try read(file).digest
    }

    /// Reads every input not read yet (the stat cache's word is not enough to convert: the importer needs the bytes)
    /// and returns every input's digest.
    mutating func readAll() throws(Failure) -> [String: String] {
        for file in export.inputFiles where snapshots[file] == nil { try read(file) }
        return digests
    }

    /// The bytes read, by standardized absolute path (what ``KeyframeImport/Importer`` takes as `preloaded`).
    var bytesByPath: [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for (_, read) in snapshots { result[read.path] = read.snapshot.bytes }
        return result
    }

    @discardableResult
    private mutating func read(_ file: String) throws(Failure) -> InputSnapshot {
        let full = standardizedPath(file)
        let snapshot: InputSnapshot
        do { snapshot = try InputSnapshot.read(full, inside: export.imagesFolder) } catch {
            throw Failure(message: "\(file): cannot be read: \(error.reason)")
        }
        cache.record(full, snapshot)
        snapshots[file] = (full, snapshot)
        digests[file] = snapshot.digest
        return snapshot
    }

    private mutating func standardizedPath(_ file: String) -> String {
        if let known = paths[file] { return known }
        let full = export.inputFolder.appendingPathComponent(file).standardizedFileURL.path
        paths[file] = full
        return full
    }
}
