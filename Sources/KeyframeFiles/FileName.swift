/// The one rule that turns a name from an input (a clip, a movie, an image) into a file name Keyframe writes.
///
/// A name from an export can hold anything: `/`, `..`, newlines, NUL, `<!--`, a right-to-left override. Every
/// command that names a file after one (`render` and `preview --frames-folder` frames, both exporters' clip files and
/// pictures, and through the exporters `batch`) uses ``stem(_:)``, so a name is written the same way everywhere and
/// never leaves its folder, hides, or breaks a line of a log or a build file:
/// - letters, marks and digits of any script, `.`, `-`, `_` and `~` are kept; every other character (controls,
///   spaces, `/`, `\`, `:`, `*`, `?`, `"`, `<`, `>`, `|`, other punctuation and symbols) becomes `_`;
/// - a result that is empty or starts with `.`, `-` or `~` gets `clip` in front (no hidden files, no `.`/`..`,
///   nothing a shell or a tool reads as an option or a home folder);
/// - a result that Windows reserves (`CON`, `NUL`, `COM1`, … in any case, also before an extension) gets a `_`;
/// - only the first ``maximumStemBytes`` bytes of UTF-8 are kept (cut between characters), so a stem with the
///   prefix and the suffixes added after it stays under the 255-byte limit of file names.
///
/// Different names can give the same stem (`walk/left` and `walk_left`); every command checks its files for
/// collisions, ignoring case, before writing any.
public enum FileName {
    /// How many UTF-8 bytes of a name a stem keeps.
    public static let maximumStemBytes = 200

    /// `name` made safe to be a file name (or the start of one).
    public static func stem(_ name: String) -> String {
        var stem = ""
        var bytes = 0
        // Whole characters only, so a cut never separates a letter from its marks.
        for character in name {
            var piece = String.UnicodeScalarView()
            for scalar in character.unicodeScalars { piece.append(isKept(scalar) ? scalar : "_") }
            let text = String(piece)
            guard bytes + text.utf8.count <= maximumStemBytes else { break }
            stem += text
            bytes += text.utf8.count
        }
        if stem.isEmpty || stem.hasPrefix(".") || stem.hasPrefix("-") || stem.hasPrefix("~") { stem = "clip" + stem }
        let base = stem.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? stem
        if reservedOnWindows.contains(base.uppercased()) { stem = base + "_" + stem.dropFirst(base.count) }
        return stem
    }

    /// Letters, marks and digits of any script, and `.`, `-`, `_`, `~`.
    private static func isKept(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return scalar == "." || scalar == "-" || scalar == "_" || scalar == "~"
        }
    }

    /// Device names Windows reserves in every folder, with or without an extension.
    private static let reservedOnWindows: Set<String> = {
        var names: Set<String> = ["CON", "PRN", "AUX", "NUL"]
        for digit in 1...9 {
            names.insert("COM\(digit)")
            names.insert("LPT\(digit)")
        }
        return names
    }()
}
