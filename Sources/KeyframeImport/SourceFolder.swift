import Foundation
import KeyframeFiles
import KeyframeJSON
import KeyframeModel

/// The folder an export lives in: reads its files, parses JSON with file-named errors, and remembers which files
/// were read (for the document's provenance).
///
/// Every file is opened through ``InputFolder`` — the files the importers find by listing the folder as well as the
/// ones an export's JSON names — so nothing outside the export's folder is read, also through a symbolic link.
/// Errors name files relative to the folder (``ImportError/located(in:)`` adds the folder as the user wrote it).
final class SourceFolder {
    /// Largest JSON file accepted; real exports are a few MB.
    static let maximumFileSize = 512 << 20

    let url: URL
    private(set) var filesRead: Set<String> = []
    /// Files whose opening found them outside the folder (a link swapped after ``resolve(_:)``), by clean path: why
    /// ``pngSize(_:)`` gave no size (``outsideReason(_:)``).
    private var refusedOutside: [String: InputPathError] = [:]
    /// Lenient reads per file (``lenientReads(of:)``).
    private var lenientLogs: [String: JSONLenientReads] = [:]
    /// The files of an export held in memory (``Importer/importDocument(files:main:options:)``), keyed by relative
    /// path; `nil` for a folder on disk.
    let memory: [String: [UInt8]]?
    /// Files of a folder on disk that the caller has already read, keyed by standardized absolute path
    /// (``Importer/importDocument(at:preloaded:options:)``): they are taken from here instead of being read again.
    let preloaded: [String: [UInt8]]
    /// The folder on disk that every path is resolved in (`nil` for files in memory, which are only checked
    /// lexically).
    let inputFolder: InputFolder?
    /// JSON already parsed, shared with the folder that detected the export, so that no file is parsed twice.
    let parsed: ParsedJSON

    /// JSON files parsed so far, by absolute path (internal): format detection looks into files to tell an export's
    /// format (a skeleton or a Flump library under another name); the import then reads the same files again.
    final class ParsedJSON {
        fileprivate var values: JSONObject = [:]
        init() {}
    }

    /// The folder at `url`; `mainFile` is the file the export was detected by (see ``InputFolder``). `parsed` holds
    /// the JSON another view of the same folder parsed (detection's).
    init(url: URL, preloaded: [String: [UInt8]] = [:], mainFile: String? = nil, parsed: ParsedJSON = ParsedJSON()) {
        self.url = url
        self.memory = nil
        self.preloaded = preloaded
        self.inputFolder = InputFolder(url.path, displayName: "", mainFile: mainFile)
        self.parsed = parsed
    }

    /// A folder whose files are `files` (relative path → bytes), named `name` in errors.
    init(files: [String: [UInt8]], name: String) {
        self.url = URL(fileURLWithPath: "/").appendingPathComponent(name)
        self.memory = files
        self.preloaded = [:]
        self.inputFolder = nil
        self.parsed = ParsedJSON()
    }

    /// The file that `written`, a path in one of the export's files or a name found by listing the folder, means:
    /// its clean path relative to the folder, inside it after links (``InputFolder/resolve(_:)``).
    func resolve(_ written: String) throws(InputPathError) -> String {
        guard let inputFolder else { return try InputFolder.clean(written) }
        return try inputFolder.resolve(written)
    }

    /// The bytes of `relative` if the caller preloaded them.
    private func preloadedBytes(_ relative: String) -> [UInt8]? {
        preloaded.isEmpty ? nil : preloaded[url(for: relative).standardizedFileURL.path]
    }

    /// The path of `relative` inside the folder.
    func url(for relative: String) -> URL { url.appendingPathComponent(relative) }

    /// Whether `relative` exists inside the folder as a regular file (after following symbolic links): folders,
    /// pipes, devices, dangling or looping links and links leading out of the folder are not files to read.
    func fileExists(_ relative: String) -> Bool {
        guard let clean = try? resolve(relative) else { return false }
        return isRegularFile(clean)
    }

    /// What is at `clean` when something is there but it is not a regular file (`it is a named pipe, not a file`),
    /// or `nil` when nothing is there.
    private func notAFile(_ clean: String) -> String? {
        guard memory == nil else { return nil }
        var info = stat()
        guard stat(url(for: clean).path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFIFO: return "it is a named pipe, not a file"
        case S_IFDIR: return "it is a folder, not a file"
        case S_IFSOCK: return "it is a socket, not a file"
        case S_IFCHR, S_IFBLK: return "it is a device, not a file"
        default: return "it is not a regular file"
        }
    }

    /// Whether `clean`, a path ``resolve(_:)`` returned, is a regular file.
    private func isRegularFile(_ clean: String) -> Bool {
        if let memory { return memory[clean] != nil }
        if preloadedBytes(clean) != nil { return true }
        var info = stat()
        return stat(url(for: clean).path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The bytes of `relative`.
    func read(_ relative: String) throws(ImportError) -> [UInt8] {
        let clean: String
        do { clean = try resolve(relative) } catch {
            throw ImportError(.missingFile(path: relative, reason: error.message(folder: "the export's folder")))
        }
        guard isRegularFile(clean) else {
            throw ImportError(.missingFile(path: clean, reason: notAFile(clean) ?? "file not found"))
        }
        if let bytes = memory?[clean] ?? preloadedBytes(clean) {
            filesRead.insert(clean)
            return bytes
        }
        let bytes: [UInt8]
        do {
            // Opened once and checked after opening: a link swapped since `resolve` cannot lead outside.
            bytes = try inputFolder!.read(clean, written: relative, limit: SourceFolder.maximumFileSize)
        } catch {
            switch error {
            case .outside(let outside):
                throw ImportError(.missingFile(path: relative, reason: outside.message(folder: "the export's folder")))
            case .unreadable(let failure):
                throw ImportError(.missingFile(path: clean, reason: "cannot be read: \(failure.reason)"))
            }
        }
        filesRead.insert(clean)
        return bytes
    }

    /// `relative` parsed as JSON, positioned at its root; what is read leniently from it is recorded
    /// (``lenientReads(of:)``). A file parsed before (by this folder or by detection's) is not parsed again.
    func readJSON(_ relative: String) throws(ImportError) -> JSONCursor {
        if let clean = try? resolve(relative), let value = parsed.values[url(for: clean).path], isRegularFile(clean) {
            filesRead.insert(clean)
            return JSONCursor(value, lenientReads: lenientReads(of: relative))
        }
        let bytes = try read(relative)
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch {
            throw ImportError(.syntax(file: relative, error))
        }
        if let clean = try? resolve(relative) { parsed.values[url(for: clean).path] = value }
        return JSONCursor(value, lenientReads: lenientReads(of: relative))
    }

    /// `relative` parsed as JSON, if it is a regular file of at most `limit` bytes that parses: for looking into a
    /// file while detecting the format. Unlike ``readJSON(_:)`` it records no read (the file is not part of the
    /// export until an importer reads it) and reports no error.
    func peekJSON(_ relative: String, limit: Int) -> JSONValue? {
        guard let clean = try? resolve(relative), isRegularFile(clean) else { return nil }
        let path = url(for: clean).path
        if let value = parsed.values[path] { return value }
        let bytes: [UInt8]
        if let known = memory?[clean] ?? preloadedBytes(clean) {
            bytes = known
        } else {
            // Opened once and checked after opening, as ``read(_:)`` does: what detection parses the import reuses.
            guard let inputFolder, let read = try? inputFolder.read(clean, written: relative, limit: limit) else {
                return nil
            }
            bytes = read
        }
        guard bytes.count <= limit, let value = try? JSONParser.parse(bytes) else { return nil }
        parsed.values[path] = value
        return value
    }

    /// The record of lenient reads from the file `relative` (one per file, however often it is read).
    func lenientReads(of relative: String) -> JSONLenientReads {
        if let log = lenientLogs[relative] { return log }
        let log = JSONLenientReads()
        lenientLogs[relative] = log
        return log
    }

    /// One warning per file and kind of lenient read (``JSONLenientReads``) during the import, naming the first value
    /// and its path with the count of all, files in byte order: what the format does not allow but was read anyway.
    func lenientReadDiagnostics() -> [Diagnostic] {
        var result: [Diagnostic] = []
        for file in lenientLogs.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            var groups: [String: [JSONLenientReads.Entry]] = [:]
            var order: [String] = []
            for entry in lenientLogs[file]?.entries ?? [] {
                if groups[entry.code] == nil { order.append(entry.code) }
                groups[entry.code, default: []].append(entry)
            }
            for code in order {
                guard let entries = groups[code], let first = entries.first else { continue }
                let what: String
                switch code {
                case "number-as-string": what = "a number written as a string"
                case "boolean-as-string": what = "a Boolean written as a string"
                case "boolean-as-number": what = "a Boolean where a number belongs"
                default: what = "a value of the wrong type"
                }
                result.append(Diagnostic(
                    severity: .warning, code: code,
                    message: "\(what) was read leniently (\(first.found) as \(first.readAs))",
                    file: file, path: first.path.description, count: entries.count))
            }
        }
        return result
    }

    /// The names of the entries directly in the folder, sorted.
    func listFiles() -> [String] {
        if let memory { return memory.keys.filter { !$0.contains("/") }.sorted() }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.sorted()
    }

    /// Every JSON file under `subfolder`, recursively, as paths relative to the folder, sorted.
    func jsonFiles(under subfolder: String) -> [String] {
        if let memory {
            return memory.keys.filter { $0.hasPrefix(subfolder + "/") && $0.hasSuffix(".json") }.sorted()
        }
        let base = url.appendingPathComponent(subfolder)
        guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var found: [String] = []
        while let item = enumerator.nextObject() as? String {
            if item.hasSuffix(".json") { found.append(subfolder + "/" + item) }
        }
        return found.sorted()
    }

    /// Why `clean` could not be read when the file opened was outside the folder (a link swapped while the import
    /// ran), in the words of ``InputPathError``; `nil` otherwise.
    func outsideReason(_ clean: String) -> String? {
        refusedOutside[clean].map { "the atlas image " + $0.message(folder: "the export's folder") }
    }

    /// The pixel size stored in a PNG's header, or `nil` when the file is missing or not a PNG. Reads 24 bytes.
    func pngSize(_ relative: String) -> Size? {
        let clean: String
        do { clean = try resolve(relative) } catch {
            // A link that leads outside when it is resolved (it may lead back inside by the time the caller asks
            // why): the reason is kept, so the error says so rather than that the file is not a PNG.
            refusedOutside[relative] = error
            return nil
        }
        let bytes: [UInt8]
        if let memory {
            guard let file = memory[clean] else { return nil }
            bytes = Array(file.prefix(24))
        } else if let file = preloadedBytes(clean) {
            bytes = Array(file.prefix(24))
        } else {
            guard isRegularFile(clean), let inputFolder else { return nil }
            do { bytes = try inputFolder.read(clean, written: relative, limit: 24, prefix: true) } catch {
                if case .outside(let outside) = error { refusedOutside[clean] = outside }
                return nil
            }
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature,
            bytes[12] == 0x49, bytes[13] == 0x48, bytes[14] == 0x44, bytes[15] == 0x52
        else { return nil }
        func be32(_ offset: Int) -> Double {
            Double(UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
                | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3]))
        }
        filesRead.insert(clean)
        return Size(width: be32(16), height: be32(20))
    }
}

extension JSONCursor {
    /// Runs `body`, turning a schema error into an ``ImportError`` naming `file`.
    func within<T>(_ file: String, _ body: (JSONCursor) throws(JSONSchemaError) -> T) throws(ImportError) -> T {
        do { return try body(self) } catch { throw ImportError(.schema(file: file, error)) }
    }
}
