/// The one way text and JSON go into the HTML pages Keyframe writes (the `preview` page, the `verify --html` and
/// `batch --verify-html` reports), so a name from an export — a clip called `</script><!--<script>` — stays text.
public enum HTMLEscape {
    /// `text` for HTML element content and attribute values: `&`, `<`, `>`, `"` and `'` as character references.
    public static func text(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// JSON text (UTF-8) for a `<script type="application/json">` data block: every `<` written as `\u003c`, so
    /// neither `</script>` nor `<!--` can end the block or switch the browser's script parser into its escaped
    /// state (which would swallow the page's own scripts), and U+2028 and U+2029 as `\u2028` and `\u2029`, which
    /// older JavaScript parsers take for line ends. These characters only occur inside JSON strings, where the
    /// escapes mean the same characters, so the value the page parses is unchanged.
    public static func scriptJSON(_ json: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(json.count + 16)
        var index = 0
        while index < json.count {
            let byte = json[index]
            if byte == UInt8(ascii: "<") {
                out += Array("\\u003c".utf8)
            } else if byte == 0xE2, index + 2 < json.count, json[index + 1] == 0x80,
                json[index + 2] == 0xA8 || json[index + 2] == 0xA9
            {
                // U+2028 is E2 80 A8 in UTF-8, U+2029 is E2 80 A9.
                out += Array((json[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                index += 2
            } else {
                out.append(byte)
            }
            index += 1
        }
        return out
    }
}
