/// The one way text goes into the XML Keyframe writes (the Core Animation property list, the JUnit report of
/// `batch`), so that a name from an export — one holding a control character or U+FFFE — never makes the file
/// unreadable.
///
/// XML 1.0 cannot hold most control characters, U+FFFE or U+FFFF at all, not even as character references, so those
/// become U+FFFD (the replacement character); writers that change a name this way say so in a diagnostic.
public enum XMLEscape {
    /// The character XML cannot hold is written as this.
    public static let replacement: Unicode.Scalar = "\u{FFFD}"

    /// Whether XML 1.0 can hold `scalar` (its `Char` production: tab, line feed, carriage return, U+0020–U+D7FF,
    /// U+E000–U+FFFD, U+10000 and above).
    public static func canHold(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: return true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// Whether every character of `text` can be held by XML.
    public static func isRepresentable(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(canHold)
    }

    /// `text` with every character XML cannot hold replaced by U+FFFD (for writers that escape on their own, such as
    /// Foundation's property-list writer).
    public static func representable(_ text: String) -> String {
        guard !isRepresentable(text) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { out.append(canHold(scalar) ? scalar : replacement) }
        return String(out)
    }

    /// `text` for element content and attribute values: `&`, `<`, `>`, `"` and `'` as entity references, line
    /// breaks and tabs as character references (so attribute values keep them), and characters XML cannot hold as
    /// U+FFFD.
    public static func text(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default: out.unicodeScalars.append(canHold(scalar) ? scalar : replacement)
            }
        }
        return out
    }
}
