import Foundation
import KeyframeModel

/// Reads a Starling/Sparrow XML texture atlas into a ``SpriteSheet``.
///
/// `<TextureAtlas imagePath="…"><SubTexture name x y width height [frameX frameY frameWidth frameHeight]
/// [rotated="true"]/>…</TextureAtlas>`. As `FlxAtlasFrames.fromSparrow` and Starling's `TextureAtlas` read it:
/// `x, y, width, height` is the region as stored (turned 90° clockwise when `rotated`); a frame with `frameX`
/// is trimmed and its picture sits at `(−frameX, −frameY)` in a `frameWidth × frameHeight` frame (a negative
/// `frameX` moves it right); an untrimmed frame's size is its upright region. Errors name line and column.
struct SpriteSheetXMLReader {
    let file: String

    /// Whether `bytes` look like a Sparrow atlas: a `<TextureAtlas` start tag near the top.
    static func isSheet(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        return head.range(of: "<TextureAtlas") != nil
    }

    /// Reads the atlas from XML bytes.
    func read(_ bytes: [UInt8]) throws(ImportError) -> SpriteSheet {
        let root: MarkupElement
        do { root = try MarkupReader.parse(bytes) } catch {
            throw ImportError(.markup(file: file, line: error.line, column: error.column,
                                      message: "invalid XML: \(error.message)"))
        }
        guard root.name == "TextureAtlas" else {
            throw fail(root.line, root.column, "expected <TextureAtlas> as the root element of a Sparrow atlas, found <\(root.name)>")
        }
        let image = root.attribute("imagePath")
        var sheet = SpriteSheet(
            layout: .sparrowXML, image: image?.value,
            imageLocation: .xml(line: image?.line ?? root.line, column: image?.column ?? root.column),
            imageSize: nil, scale: 1, app: nil, appVersion: nil, frames: [])
        for child in root.children {
            guard child.name == "SubTexture" else {
                sheet.notes.append(("unknown-element", "<\(child.name)> inside <TextureAtlas> is not part of a Sparrow atlas and was skipped",
                                    .xml(line: child.line, column: child.column)))
                continue
            }
            guard sheet.frames.count < SpriteSheetLimits.maximumFrames else {
                throw fail(child.line, child.column, "more than \(SpriteSheetLimits.maximumFrames) frames in one atlas")
            }
            sheet.frames.append(try frame(child))
        }
        return sheet
    }

    private func frame(_ element: MarkupElement) throws(ImportError) -> SpriteSheetFrame {
        guard let name = element.attribute("name") else {
            throw fail(element.line, element.column, "<SubTexture> has no name attribute")
        }
        let x = try number(element, "x"), y = try number(element, "y")
        let width = try number(element, "width"), height = try number(element, "height")
        if let problem = SpriteSheetLimits.problem(width, height) {
            throw fail(element.line, element.column, "<SubTexture name=\"\(name.value)\">: \(problem)")
        }
        var rotated = false
        if let attribute = element.attribute("rotated") {
            switch attribute.value {
            case "true": rotated = true
            case "false": rotated = false
            default: throw fail(attribute.line, attribute.column, "rotated must be \"true\" or \"false\", found \"\(attribute.value)\"")
            }
        }
        let upright = rotated ? Size(width: height, height: width) : Size(width: width, height: height)
        var offset = Vector2.zero
        var sourceSize = upright
        if element.attribute("frameX") != nil {
            offset = Vector2(x: -(try number(element, "frameX")), y: -(try number(element, "frameY")))
            let frameWidth = try number(element, "frameWidth"), frameHeight = try number(element, "frameHeight")
            if let problem = SpriteSheetLimits.problem(frameWidth, frameHeight) {
                throw fail(element.line, element.column, "<SubTexture name=\"\(name.value)\">: frame \(problem)")
            }
            sourceSize = Size(width: frameWidth, height: frameHeight)
        }
        return SpriteSheetFrame(name: name.value, region: Rect(x: x, y: y, width: width, height: height),
                                rotated: rotated, offset: offset, sourceSize: sourceSize,
                                location: .xml(line: element.line, column: element.column))
    }

    /// The number in attribute `name` (required).
    private func number(_ element: MarkupElement, _ name: String) throws(ImportError) -> Double {
        guard let attribute = element.attribute(name) else {
            throw fail(element.line, element.column, "<\(element.name)> has no \(name) attribute")
        }
        guard let value = Double(attribute.value.trimmingCharacters(in: .whitespaces)), value.isFinite else {
            throw fail(attribute.line, attribute.column,
                       "<\(element.name)> attribute \(name): expected a number, found \"\(attribute.value)\"")
        }
        return value
    }

    private func fail(_ line: Int, _ column: Int, _ message: String) -> ImportError {
        ImportError(.markup(file: file, line: line, column: column, message: message))
    }
}
