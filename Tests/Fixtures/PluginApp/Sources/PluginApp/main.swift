import Foundation

// Loads each converted export from the bundle and prints its clip names, one export per line.
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
}
