import Foundation
import KeyframeFiles
import KeyframeJSON

/// How each clip of a golden set was framed, kept beside its approved frames (`golden-framing.json`): the document
/// rectangle every frame shows and the frames' size in pixels.
///
/// A recording writes it; later verifications frame each clip the same way, so a change shows only in the frames it
/// touches (moving one part outward no longer reframes, and so fails, every frame of the clip).
///
/// ```json
/// {"format": "keyframe-golden-framing", "version": 1,
///  "clips": {"walk": {"bounds": [-24, -70, 54, 138], "size": [54, 138]}}}
/// ```
public struct GoldenFraming: Sendable, Hashable {
    /// One clip's framing.
    public struct Entry: Sendable, Hashable {
        /// The document rectangle the frames show: x, y, width, height.
        public var x, y, width, height: Double
        /// The frames' size in pixels.
        public var pixelWidth, pixelHeight: Int

        public init(x: Double, y: Double, width: Double, height: Double, pixelWidth: Int, pixelHeight: Int) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
            (self.pixelWidth, self.pixelHeight) = (pixelWidth, pixelHeight)
        }
    }

    /// The file's name inside the golden folder.
    public static let fileName = "golden-framing.json"
    static let format = "keyframe-golden-framing"

    /// Framings by clip (or script) name, as the frame files' stems are named.
    public var clips: [String: Entry]

    public init(clips: [String: Entry] = [:]) {
        self.clips = clips
    }

    /// The framing stored in `folder`, or `nil` when the folder has none (a set recorded before framings were kept).
    ///
    /// - Throws: ``VerifyError`` naming the file when it exists but cannot be read or is not a framing file.
    public static func read(from folder: URL) throws(VerifyError) -> GoldenFraming? {
        let url = folder.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw VerifyError(path: url.path, reason: "cannot read the golden set's framing")
        }
        let value: JSONValue
        do { value = try JSONParser.parse([UInt8](data)) } catch {
            throw VerifyError(path: url.path, reason: "\(error)")
        }
        guard case .object(let root) = value, root["format"]?.stringValue == format,
            root["version"]?.doubleValue == 1, case .object(let clips)? = root["clips"]
        else {
            throw VerifyError(path: url.path, reason: "not a golden framing file (format \"\(format)\", version 1)")
        }
        var framing = GoldenFraming()
        for (name, entry) in clips {
            guard case .array(let b)? = entry["bounds"], b.count == 4, case .array(let s)? = entry["size"], s.count == 2,
                let x = b[0].doubleValue, let y = b[1].doubleValue, let w = b[2].doubleValue, let h = b[3].doubleValue,
                let pw = s[0].doubleValue, let ph = s[1].doubleValue, w > 0, h > 0, pw >= 1, ph >= 1,
                pw <= 65536, ph <= 65536, pw == pw.rounded(), ph == ph.rounded()
            else {
                throw VerifyError(path: url.path, reason: "at clips.\(name): expected bounds [x, y, width, height] "
                                  + "and size [width, height] in whole pixels")
            }
            framing.clips[name] = Entry(x: x, y: y, width: w, height: h, pixelWidth: Int(pw), pixelHeight: Int(ph))
        }
        return framing
    }

    /// Writes the framing into `folder` atomically (clips sorted by name, so the same framing gives the same bytes).
    ///
    /// - Throws: ``VerifyError`` when the file cannot be written.
    public func write(to folder: URL) throws(VerifyError) {
        var clipMembers: [(String, JSONValue)] = []
        for (name, e) in clips.sorted(by: { $0.key < $1.key }) {
            clipMembers.append((name, .object([
                "bounds": .array([.number(e.x), .number(e.y), .number(e.width), .number(e.height)]),
                "size": .array([.number(Double(e.pixelWidth)), .number(Double(e.pixelHeight))]),
            ])))
        }
        let root: JSONValue = .object(["format": .string(Self.format), "version": 1,
                                       "clips": .object(JSONObject(clipMembers.map { (key: $0.0, value: $0.1) }))])
        let path = folder.appendingPathComponent(Self.fileName).path
        do { try AtomicFile.write(JSONWriter.write(root), to: path) } catch {
            throw VerifyError(path: path, reason: error.reason)
        }
    }
}
