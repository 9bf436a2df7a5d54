import Foundation
import KeyframeImport
import KeyframeJSON

/// Finds the exports a batch converts: every export under some root folders, or the ones a list file names.
///
/// A folder that `Importer/detect(_:)` recognises (Animate atlas, incl. a BetterTextureAtlas `LIBRARY` split;
/// DragonBones skeleton with its atlas; Flump JSON or XML library) is one export, and its files are the export's
/// inputs; it is not searched further. In any other folder, each `.json` file that is a normalized Keyframe document
/// is an export of its own, and so is a `.json` file that is not valid JSON, cannot be read or is too large to read
/// (so that it is reported, not ignored).
/// Hidden files and folders and the output folder are skipped. The result is sorted by id.
public enum BatchDiscovery {
    /// Every export under `roots`, leaving out anything inside `output`.
    public static func discover(roots: [URL], excluding output: URL) throws(BatchError) -> [BatchExport] {
        let outputPath = canonicalPath(output)
        var found: [BatchExport] = []
        for root in roots {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) else {
                throw BatchError(.input, "\(root.path): no such file or folder")
            }
            if !isDirectory.boolValue {
                found.append(try listedExport(root, id: root.lastPathComponent, location: root.path))
                continue
            }
            if let export = folderExport(root, id: root.standardizedFileURL.lastPathComponent) {
                found.append(export)
                continue
            }
            walk(root, relative: "", outputPath: outputPath, into: &found)
        }
        return found.sorted { $0.id < $1.id }
    }

    /// The exports named in `list`, one path per line (empty lines and lines starting with `#` are ignored).
    ///
    /// Paths are relative to the list's folder; outputs mirror that relative path. A path outside the list's
    /// folder (absolute elsewhere, or with `..`) puts its outputs at the top of OUT under the export's name.
    public static func read(list: URL) throws(BatchError) -> [BatchExport] {
        let text: String
        do { text = try String(contentsOf: list, encoding: .utf8) } catch {
            throw BatchError(.input, "\(list.path): cannot be read: \(error.localizedDescription)")
        }
        let base = list.deletingLastPathComponent().standardizedFileURL
        var found: [BatchExport] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let url = line.hasPrefix("/") ? URL(fileURLWithPath: line) : base.appendingPathComponent(line)
            let standardized = url.standardizedFileURL
            var id = standardized.lastPathComponent
            if standardized.path.hasPrefix(base.path + "/") {
                id = String(standardized.path.dropFirst(base.path.count + 1))
            }
            let location = "\(list.path):\(index + 1)"
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: standardized.path, isDirectory: &isDirectory) else {
                throw BatchError(.input, "\(location): \(line): no such file or folder")
            }
            if isDirectory.boolValue {
                guard let export = folderExport(standardized, id: id) else {
                    throw BatchError(.input, "\(location): \(line): no Animate, DragonBones or Flump export in this folder")
                }
                found.append(export)
            } else {
                found.append(try listedExport(standardized, id: id, location: location))
            }
        }
        return found.sorted { $0.id < $1.id }
    }

    // MARK: - Walking

    private static func walk(_ folder: URL, relative: String, outputPath: String, into found: inout [BatchExport]) {
        if canonicalPath(folder) == outputPath { return }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        for name in names where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            let id = relative.isEmpty ? name : relative + "/" + name
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                if canonicalPath(url) == outputPath { continue }
                if let export = folderExport(url, id: id) {
                    found.append(export)
                } else {
                    walk(url, relative: id, outputPath: outputPath, into: &found)
                }
            } else if name.hasSuffix(".json"), let export = looseDocument(url, id: id) {
                found.append(export)
            }
        }
    }

    /// The export `folder` holds, when it is one.
    static func folderExport(_ folder: URL, id: String) -> BatchExport? {
        guard let detected = try? Importer.detect(folder) else { return nil }
        var id = id
        var source = folder
        // A path into a LIBRARY split names the export above it.
        if detected.folder.standardizedFileURL.path != folder.standardizedFileURL.path {
            source = detected.folder
            id = parent(of: id).isEmpty ? detected.folder.lastPathComponent : parent(of: id)
        }
        let files = inputFiles(in: detected.folder)
        return BatchExport(id: id, name: lastComponent(of: id), outputFolder: parent(of: id), source: source,
                           inputFolder: detected.folder, inputFiles: files.names, size: files.size)
    }

    /// A `.json` file outside any export folder: an export when it is a normalized document, or when it cannot be
    /// told apart from one because it is not valid JSON, cannot be read or is over the size limit (so that it is
    /// reported, not ignored).
    private static func looseDocument(_ file: URL, id: String) -> BatchExport? {
        do {
            let detected = try Importer.detect(file)
            guard detected.format == .keyframe else { return nil }
        } catch {
            switch error.kind {
            case .syntax, .missingFile, .limitExceeded: break
            default: return nil
            }
        }
        return singleFile(file, id: id)
    }

    /// An export named by its file (a list entry or a root that is a file).
    private static func listedExport(_ file: URL, id: String, location: String) throws(BatchError) -> BatchExport {
        let detected: (format: DetectedFormat, folder: URL, file: String)
        do { detected = try Importer.detect(file) } catch {
            if case .syntax = error.kind { return singleFile(file, id: id) }
            throw BatchError(.input, "\(location): \(error)")
        }
        if detected.format == .keyframe { return singleFile(file, id: id) }
        // A format's main file: the export is its folder, named after the folder for generic file names.
        let generic: Set<String> = ["Animation.json", "library.json", "library.xml", "skeleton.json"]
        var name = detected.file
        if generic.contains(name) {
            name = detected.folder.lastPathComponent
        } else {
            for suffix in [".json", ".xml", ".dbbin"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
            if name.hasSuffix("_ske") { name.removeLast(4) }
        }
        let folderID = parent(of: id)
        let files = inputFiles(in: detected.folder)
        return BatchExport(id: id, name: name, outputFolder: folderID, source: file, inputFolder: detected.folder,
                           inputFiles: files.names, size: files.size)
    }

    private static func singleFile(_ file: URL, id: String) -> BatchExport {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        var name = lastComponent(of: id)
        if name.hasSuffix(".json") { name.removeLast(5) }
        return BatchExport(id: id, name: name, outputFolder: parent(of: id), source: file,
                           inputFolder: file.deletingLastPathComponent(), inputFiles: [file.lastPathComponent],
                           size: size)
    }

    /// Every regular, non-hidden file under `folder`, relative to it, sorted, and their total size.
    static func inputFiles(in folder: URL) -> (names: [String], size: Int) {
        var names: [String] = []
        var size = 0
        func visit(_ url: URL, _ relative: String) {
            let entries = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
            for entry in entries where !entry.hasPrefix(".") {
                let child = url.appendingPathComponent(entry)
                let path = relative.isEmpty ? entry : relative + "/" + entry
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: child.path, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    visit(child, path)
                } else {
                    names.append(path)
                    size += (try? FileManager.default.attributesOfItem(atPath: child.path)[.size] as? Int) ?? 0
                }
            }
        }
        visit(folder, "")
        return (names.sorted(), size)
    }

    static func canonicalPath(_ url: URL) -> String {
        url.standardizedFileURL.resolvingSymlinksInPath().path
    }

    static func parent(of id: String) -> String {
        guard let slash = id.lastIndex(of: "/") else { return "" }
        return String(id[..<slash])
    }

    static func lastComponent(of id: String) -> String {
        guard let slash = id.lastIndex(of: "/") else { return id }
        return String(id[id.index(after: slash)...])
    }
}
