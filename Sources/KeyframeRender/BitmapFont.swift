import KeyframeRaster

/// A 3 × 5 pixel font for labels on contact sheets: digits, capital letters (lower case is drawn as capitals) and
/// a little punctuation. Glyphs were drawn for this project.
enum BitmapFont {
    static let glyphWidth = 3
    static let glyphHeight = 5

    /// Rows of each glyph, top to bottom, three bits each (leftmost bit first).
    private static let glyphs: [Character: [UInt8]] = {
        let table: [(Character, String)] = [
            ("0", "111 101 101 101 111"), ("1", "010 110 010 010 111"), ("2", "111 001 111 100 111"),
            ("3", "111 001 111 001 111"), ("4", "101 101 111 001 001"), ("5", "111 100 111 001 111"),
            ("6", "111 100 111 101 111"), ("7", "111 001 001 001 001"), ("8", "111 101 111 101 111"),
            ("9", "111 101 111 001 111"),
            ("A", "010 101 111 101 101"), ("B", "110 101 110 101 110"), ("C", "011 100 100 100 011"),
            ("D", "110 101 101 101 110"), ("E", "111 100 110 100 111"), ("F", "111 100 110 100 100"),
            ("G", "011 100 101 101 011"), ("H", "101 101 111 101 101"), ("I", "111 010 010 010 111"),
            ("J", "001 001 001 101 010"), ("K", "101 101 110 101 101"), ("L", "100 100 100 100 111"),
            ("M", "101 111 111 101 101"), ("N", "110 101 101 101 101"), ("O", "010 101 101 101 010"),
            ("P", "110 101 110 100 100"), ("Q", "010 101 101 110 011"), ("R", "110 101 110 101 101"),
            ("S", "011 100 010 001 110"), ("T", "111 010 010 010 010"), ("U", "101 101 101 101 011"),
            ("V", "101 101 101 010 010"), ("W", "101 101 111 111 101"), ("X", "101 101 010 101 101"),
            ("Y", "101 101 010 010 010"), ("Z", "111 001 010 100 111"),
            (".", "000 000 000 000 010"), (":", "000 010 000 010 000"), ("-", "000 000 111 000 000"),
            ("_", "000 000 000 000 111"), ("#", "101 111 101 111 101"), ("/", "001 001 010 100 100"),
            ("?", "111 001 010 000 010"), (" ", "000 000 000 000 000"),
        ]
        var glyphs: [Character: [UInt8]] = [:]
        for (character, rows) in table {
            glyphs[character] = rows.split(separator: " ").map { UInt8($0, radix: 2) ?? 0 }
        }
        return glyphs
    }()

    /// The width in pixels of `text` drawn at `scale`, one blank column between glyphs.
    static func width(of text: String, scale: Int) -> Int {
        text.isEmpty ? 0 : (text.count * (glyphWidth + 1) - 1) * scale
    }

    /// Draws `text` with its top-left corner at (`x`, `y`), each font pixel a `scale` × `scale` square.
    static func draw(_ text: String, x: Int, y: Int, scale: Int, color: RGBAColor, into bitmap: inout Bitmap) {
        let pixel = color.premultiplied
        var penX = x
        for character in text {
            let rows = glyphs[Character(character.uppercased())] ?? glyphs["?"]!
            for (row, bits) in rows.enumerated() {
                for column in 0..<glyphWidth where bits & (1 << (glyphWidth - 1 - column)) != 0 {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            bitmap.setPixel(x: penX + column * scale + dx, y: y + row * scale + dy, pixel)
                        }
                    }
                }
            }
            penX += (glyphWidth + 1) * scale
        }
    }
}
