import Foundation

/// Paths in messages and reports as the user gave them: every relative path on the command line is remembered with
/// its absolute form, and whatever the command prints (``Output``, ``fail(_:)``, `--json` reports) has those
/// absolute forms written back as given — `out/walk-0000.png`, not `/home/me/project/out/walk-0000.png` — whichever
/// library made the path absolute (`URL(fileURLWithPath:)`, `standardizedFileURL`). An absolute path the user gave
/// stays absolute; nothing outside the given paths changes.
enum GivenPaths {
    /// Absolute form → as given, longest first (a path inside another given one is rewritten by the closer one).
    nonisolated(unsafe) private static var pairs: [(absolute: String, given: String)] = []
    private static let lock = NSLock()

    /// Remembers every command-line argument that could be a relative path (not an option, not absolute).
    static func register(arguments: [String]) {
        var found: [(String, String)] = []
        for argument in arguments where !argument.isEmpty && !argument.hasPrefix("-") && !argument.hasPrefix("/") {
            var given = argument
            while given.count > 1 && given.hasSuffix("/") { given.removeLast() }
            // What the libraries print for it: the standardized absolute path.
            let absolute = URL(fileURLWithPath: given).standardizedFileURL.path
            guard absolute != given, absolute.count > 1, !found.contains(where: { $0.0 == absolute }) else { continue }
            found.append((absolute, given))
        }
        lock.lock()
        defer { lock.unlock() }
        pairs = found.sorted { $0.0.count > $1.0.count }
    }

    /// Remembers one more pair: a path the command worked out from one the user gave (a document a script names,
    /// `scripts/../walker` for `/home/me/walker`).
    static func add(absolute: String, given: String) {
        guard absolute != given, absolute.count > 1 else { return }
        lock.lock()
        defer { lock.unlock() }
        guard !pairs.contains(where: { $0.absolute == absolute }) else { return }
        pairs.append((absolute, given))
        pairs.sort { $0.absolute.count > $1.absolute.count }
    }

    /// `text` with each remembered absolute path — alone or followed by `/` — written as given. A match must start
    /// where a path can (the text's start, after a space, quote, bracket, `:` or `=`), so a longer path that merely
    /// contains it is left alone.
    static func relabel(_ text: String) -> String {
        relabel(text, jsonSafe: false)
    }

    /// The bytes of a UTF-8 report (JSON) with paths as given; only given paths JSON writes unescaped are used.
    static func relabel(report bytes: [UInt8]) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        let relabelled = relabel(text, jsonSafe: true)
        return relabelled == text ? bytes : Array(relabelled.utf8)
    }

    private static func relabel(_ text: String, jsonSafe: Bool) -> String {
        lock.lock()
        var pairs = self.pairs
        lock.unlock()
        guard !pairs.isEmpty else { return text }
        if jsonSafe { pairs = pairs.filter { pair in !pair.given.contains { $0 == "\"" || $0 == "\\" || $0.isNewline } } }
        var result = text
        for (absolute, given) in pairs where result.contains(absolute) {
            result = replace(absolute, with: given, in: result)
        }
        return result
    }

    /// Replaces `absolute` by `given` where it is a whole path or a path's leading folders.
    private static func replace(_ absolute: String, with given: String, in text: String) -> String {
        let starts: Set<Character> = [" ", "\"", "'", "(", "[", ":", "=", "\n", "\t", ","]
        var out = ""
        var rest = Substring(text)
        while let range = rest.range(of: absolute) {
            let before = range.lowerBound == rest.startIndex ? (out.last ?? " ") : rest[rest.index(before: range.lowerBound)]
            let after = range.upperBound == rest.endIndex ? nil : rest[range.upperBound]
            let startsAPath = starts.contains(before)
            let endsAPath = after == nil || after == "/" || !(after!.isLetter || after!.isNumber || after == "." || after == "-" || after == "_" || after == "~")
            out += rest[..<range.lowerBound]
            out += startsAPath && endsAPath ? given : absolute
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
