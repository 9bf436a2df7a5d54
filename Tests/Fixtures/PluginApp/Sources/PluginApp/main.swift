import Foundation

// Loads each converted export from the bundle and prints its clip names, one export per line; then, per player
// format, the clip files the bundle holds for it and the number of layers (Lottie) or sublayers (Core Animation) each
// file's root has.
for name in ["animate-walker", "flump-hopbot"] {
    guard let url = Bundle.module.url(forResource: name, withExtension: "json"),
        let data = try? Data(contentsOf: url),
        let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let clips = document["clips"] as? [[String: Any]]
    else {
        FileHandle.standardError.write(Data("PluginApp: \(name).json is not in Bundle.module\n".utf8))
        exit(1)
    }
    print("\(name): " + clips.compactMap { $0["name"] as? String }.joined(separator: ", "))
    for (kind, key) in [("lottie", "layers"), ("ca", "sublayers")] {
        guard let folder = Bundle.module.url(forResource: name, withExtension: kind),
            let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else {
            FileHandle.standardError.write(Data("PluginApp: \(name).\(kind) is not in Bundle.module\n".utf8))
            exit(1)
        }
        var counts: [String] = []
        for file in files.sorted() where file.hasSuffix(".json") {
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(file)),
                let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else {
                FileHandle.standardError.write(Data("PluginApp: \(name).\(kind)/\(file) is not JSON\n".utf8))
                exit(1)
            }
            let layer = (root["root"] as? [String: Any]) ?? (root["layer"] as? [String: Any]) ?? root
            counts.append("\(file) \(((layer[key] ?? root[key]) as? [Any])?.count ?? -1)")
        }
        print("\(name).\(kind): " + counts.joined(separator: ", "))
    }
}
