/// The one way text from inputs reaches a terminal or a CI log (errors, warnings, `inspect`, summaries), so that a
/// name holding ESC, OSC or other control sequences cannot retitle, clear or recolour it.
///
/// Every control character — C0 (U+0000–U+001F) but the line feed and the tab, DEL, C1 (U+0080–U+009F) — and the
/// bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069), which can make a line read differently from
/// its bytes, are written as visible escapes: `\r`, `\u{1b}`, `\u{202e}`. Everything else is kept.
public enum TerminalText {
    /// Whether `scalar` must not reach a terminal raw.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return false
        case 0x00...0x1F, 0x7F, 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `text` with every character ``isUnsafe(_:)`` says must not reach a terminal written as a visible escape.
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if !isUnsafe(scalar) {
                out.unicodeScalars.append(scalar)
            } else if scalar == "\r" {
                out += "\\r"
            } else {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return out
    }

    /// `text` for one line: like ``escape(_:)``, and line feeds and tabs as `\n` and `\t` too (a name inside a
    /// message, which must not start a line of its own).
    public static func line(_ text: String) -> String {
        escape(text).replacingLineBreaks()
    }
}

extension String {
    /// `\n` and `\t` written as escapes.
    fileprivate func replacingLineBreaks() -> String {
        guard unicodeScalars.contains(where: { $0 == "\n" || $0 == "\t" }) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
