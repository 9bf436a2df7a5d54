import KeyframeJSON

/// Writes Aseprite's sprite-sheet JSON (`--format json-array` of `aseprite -b --sheet`): frames in order with their
/// durations, and `meta.frameTags` naming each clip's range of frames.
///
/// Aseprite stores one page and never rotates frames; durations are whole milliseconds, so a frame of 1000/24 ms is
/// written as 42 (rounded to the nearest).
enum AsepriteJSONWriter {
    /// The file for one page holding every entry.
    static func sheet(image: String, size: (width: Int, height: Int), entries: [SheetEntry], scale: String,
                      premultiplied: Bool, pretty: Bool) -> [UInt8] {
        var frames: [JSONValue] = []
        var tags: [JSONValue] = []
        var start = 0
        for (index, entry) in entries.enumerated() {
            var frame = TexturePackerJSONWriter.frame(entry, named: true)
            frame["duration"] = .number(entry.milliseconds.rounded())
            frames.append(.object(frame))
            if index == entries.count - 1 || entries[index + 1].clip != entry.clip {
                tags.append(["name": .string(entry.clip), "from": .number(Double(start)),
                             "to": .number(Double(index)), "direction": "forward"])
                start = index + 1
            }
        }
        var meta = TexturePackerJSONWriter.meta(image: image, size: size, scale: scale, premultiplied: premultiplied)
        meta["frameTags"] = .array(tags)
        meta["layers"] = .array([])
        meta["slices"] = .array([])
        return TexturePackerJSONWriter.write(.object(["frames": .array(frames), "meta": .object(meta)]), pretty: pretty)
    }
}
