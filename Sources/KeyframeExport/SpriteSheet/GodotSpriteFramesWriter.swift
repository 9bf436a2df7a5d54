/// Writes a Godot 3 `SpriteFrames` text resource (`.tres`): an `AtlasTexture` per frame cut from its page
/// (`region`), placed in its untrimmed frame by `margin` (position: the trim offset; size: what trimming removed),
/// and one animation per clip at the document's frame rate, looping.
///
/// Pages are referred to by paths relative to the resource (`sheet.png`), which Godot resolves against the
/// `.tres`'s folder; AtlasTexture cannot rotate, so frames are never stored rotated in this format.
enum GodotSpriteFramesWriter {
    /// The resource for `entries` on the pages `images`, animations played at `fps`.
    static func resource(images: [String], entries: [SheetEntry], fps: Double) -> [UInt8] {
        var text = "[gd_resource type=\"SpriteFrames\" load_steps=\(images.count + entries.count + 1) format=2]\n\n"
        for (index, image) in images.enumerated() {
            text += "[ext_resource path=\"\(escape(image))\" type=\"Texture\" id=\(index + 1)]\n"
        }
        for (index, entry) in entries.enumerated() {
            let slot = entry.slot
            text += "\n[sub_resource type=\"AtlasTexture\" id=\(index + 1)]\n"
                + "atlas = ExtResource( \(slot.page + 1) )\n"
                + "region = Rect2( \(slot.x), \(slot.y), \(slot.width), \(slot.height) )\n"
                + "margin = Rect2( \(entry.trimX), \(entry.trimY), \(entry.sourceWidth - slot.width), "
                + "\(entry.sourceHeight - slot.height) )\n"
        }
        var clips: [(name: String, frames: [Int])] = []
        for (index, entry) in entries.enumerated() {
            if clips.last?.name == entry.clip { clips[clips.count - 1].frames.append(index + 1) }
            else { clips.append((entry.clip, [index + 1])) }
        }
        let speed = "\(fps)"
        text += "\n[resource]\nanimations = [ "
        text += clips.map { clip in
            "{\n\"frames\": [ " + clip.frames.map { "SubResource( \($0) )" }.joined(separator: ", ") + " ],\n"
                + "\"loop\": true,\n\"name\": \"\(escape(clip.name))\",\n\"speed\": \(speed)\n}"
        }.joined(separator: ", ")
        text += " ]\n"
        return Array(text.utf8)
    }

    /// `text` as a Godot string literal's content.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
