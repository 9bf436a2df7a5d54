import Foundation

/// The exports a benchmark measures.
public enum BenchmarkInputs {
    /// `inputs` as folders, or, when there are none, every folder inside `defaultFolder` (sorted by name).
    public static func folders(_ inputs: [String], defaultFolder: String) throws(BenchmarkError) -> [URL] {
        if !inputs.isEmpty { return inputs.map { URL(fileURLWithPath: $0) } }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: defaultFolder)) ?? []
        guard !names.isEmpty else { throw BenchmarkError("no inputs given and \(defaultFolder) not found") }
        let root = URL(fileURLWithPath: defaultFolder)
        return names.sorted().map { root.appendingPathComponent($0) }.filter { url in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
        }
    }
}
