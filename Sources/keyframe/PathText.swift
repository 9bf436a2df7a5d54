/// Paths as the user wrote them, taken apart without `NSString`'s path methods (swift-corelibs-foundation's
/// `deletingLastPathComponent` traps on a one-character name such as `-o a`).
enum PathText {
    /// The folder part of `path` as written: `out/a.json` → `out`, `a.json` → empty, `/a` → `/`, `out/` → empty.
    static func parent(_ path: String) -> String {
        var text = Substring(path)
        while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
        guard let slash = text.lastIndex(of: "/") else { return "" }
        if slash == text.startIndex { return "/" }
        var folder = text[..<slash]
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        return String(folder)
    }
}
