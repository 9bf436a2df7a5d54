import KeyframeJSON

/// Writes Sparrow / Starling texture-atlas XML: one `TextureAtlas` per page, a `SubTexture` per frame.
///
/// `x`, `y`, `width`, `height` are the stored picture on the page; `frameX`, `frameY` are minus the picture's offset
/// in the untrimmed frame and `frameWidth`, `frameHeight` its size (Starling's `TextureAtlas`, HaxeFlixel's
/// `FlxAtlasFrames.fromSparrow`). Pictures are never stored rotated in this format.
enum SparrowAtlasWriter {
    /// The XML of one page named `image`, listing `entries` (those on that page).
    static func page(image: String, entries: [SheetEntry]) -> [UInt8] {
        var text = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<TextureAtlas imagePath=\"\(XMLEscape.text(image))\">\n"
        for entry in entries {
            text += "\t<SubTexture name=\"\(XMLEscape.text(entry.name))\" x=\"\(entry.slot.x)\" y=\"\(entry.slot.y)\" "
                + "width=\"\(entry.slot.width)\" height=\"\(entry.slot.height)\" frameX=\"\(-entry.trimX)\" "
                + "frameY=\"\(-entry.trimY)\" frameWidth=\"\(entry.sourceWidth)\" frameHeight=\"\(entry.sourceHeight)\"/>\n"
        }
        text += "</TextureAtlas>\n"
        return Array(text.utf8)
    }
}
