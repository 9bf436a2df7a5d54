import Foundation

// Loads every converted export from the bundle's Keyframe/ folder and prints its clip names, one export per line;
// then, per player format the bundle holds for it, the clip files and the number of layers (Lottie) or sublayers
// (Core Animation) each file's root has.
guard let folder = Bundle.module.url(forResource: "Keyframe", withExtension: nil),
    let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
else {
    FileHandle.standardError.write(Data("PluginApp: no Keyframe folder in Bundle.module\n".utf8))
    exit(1)
}
for name in names.filter({ $0.hasSuffix(".json") }).map({ String($0.dropLast(5)) }).sorted() {
    guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Keyframe"),
        let data = try? Data(contentsOf: url),
        let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let clips = document["clips"] as? [[String: Any]]
    else {
        FileHandle.standardError.write(Data("PluginApp: Keyframe/\(name).json is not a Keyframe document\n".utf8))
        exit(1)
    }
    print("\(name): " + clips.compactMap { $0["name"] as? String }.joined(separator: ", "))
    for (kind, key) in [("lottie", "layers"), ("ca", "sublayers")] {
        guard let formatFolder = Bundle.module.url(forResource: name, withExtension: kind, subdirectory: "Keyframe"),
            let files = try? FileManager.default.contentsOfDirectory(atPath: formatFolder.path)
        else { continue }
        var counts: [String] = []
        for file in files.sorted() where file.hasSuffix(".json") {
            guard let data = try? Data(contentsOf: formatFolder.appendingPathComponent(file)),
                let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else {
                FileHandle.standardError.write(Data("PluginApp: Keyframe/\(name).\(kind)/\(file) is not JSON\n".utf8))
                exit(1)
            }
            let layer = (root["root"] as? [String: Any]) ?? (root["layer"] as? [String: Any]) ?? root
            counts.append("\(file) \(((layer[key] ?? root[key]) as? [Any])?.count ?? -1)")
        }
        print("\(name).\(kind): " + counts.joined(separator: ", "))
    }
}
