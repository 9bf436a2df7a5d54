import KeyframeJSON

/// Writes a Cocos2d sprite-frame property list (format 2, as `SpriteFrameCache::addSpriteFramesWithFile` reads it):
/// one XML plist per page with `frames` keyed by name and `metadata`.
///
/// Each frame has `frame` (`{{x,y},{w,h}}` on the page), `offset` (the trimmed picture's centre minus the untrimmed
/// frame's, y pointing up, so it may be a half pixel), `rotated` (always false: which way Cocos turns a rotated frame back
/// is not checked against its reader here, so frames are never rotated in this format), `sourceColorRect` (the picture in
/// the untrimmed frame, y down) and `sourceSize`.
enum CocosPlistWriter {
    /// The property list of one page named `image` of `size`, listing `entries` (those on that page).
    static func page(image: String, size: (width: Int, height: Int), entries: [SheetEntry]) -> [UInt8] {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
            + "<plist version=\"1.0\">\n<dict>\n\t<key>frames</key>\n\t<dict>\n"
        for entry in entries.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            let slot = entry.slot
            // Twice the offset is a whole number: the centres differ by halves at most.
            let doubleX = 2 * entry.trimX + slot.width - entry.sourceWidth
            let doubleY = entry.sourceHeight - 2 * entry.trimY - slot.height
            text += "\t\t<key>\(XMLEscape.text(entry.name))</key>\n\t\t<dict>\n"
                + "\t\t\t<key>frame</key>\n\t\t\t<string>{{\(slot.x),\(slot.y)},{\(slot.width),\(slot.height)}}</string>\n"
                + "\t\t\t<key>offset</key>\n\t\t\t<string>{\(half(doubleX)),\(half(doubleY))}</string>\n"
                + "\t\t\t<key>rotated</key>\n\t\t\t<false/>\n"
                + "\t\t\t<key>sourceColorRect</key>\n"
                + "\t\t\t<string>{{\(entry.trimX),\(entry.trimY)},{\(slot.width),\(slot.height)}}</string>\n"
                + "\t\t\t<key>sourceSize</key>\n\t\t\t<string>{\(entry.sourceWidth),\(entry.sourceHeight)}</string>\n"
                + "\t\t</dict>\n"
        }
        text += "\t</dict>\n\t<key>metadata</key>\n\t<dict>\n"
            + "\t\t<key>format</key>\n\t\t<integer>2</integer>\n"
            + "\t\t<key>realTextureFileName</key>\n\t\t<string>\(XMLEscape.text(image))</string>\n"
            + "\t\t<key>size</key>\n\t\t<string>{\(size.width),\(size.height)}</string>\n"
            + "\t\t<key>textureFileName</key>\n\t\t<string>\(XMLEscape.text(image))</string>\n"
            + "\t</dict>\n</dict>\n</plist>\n"
        return Array(text.utf8)
    }

    /// `value / 2` written as Cocos reads numbers: `3`, `-1.5`.
    static func half(_ value: Int) -> String {
        value % 2 == 0 ? "\(value / 2)" : (value < 0 ? "-" : "") + "\(abs(value) / 2).5"
    }
}
