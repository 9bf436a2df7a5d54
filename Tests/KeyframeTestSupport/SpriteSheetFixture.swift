import Foundation
import KeyframeRaster

/// An authored sprite sheet with every quirk real sheets carry, written as Sparrow XML, JSON hash or JSON array,
/// with the frames a player must show computed from the authored pictures (never from the sheet).
///
/// Every frame is a picture whose pixel (u, v) is `(40 + 20·k, 16·u, 16·v)` for frame number `k`, placed in a
/// 12 × 10 untrimmed frame at an offset (trimmed; some offsets negative, so part of the picture lies outside the
/// frame), and stored in the atlas upright or turned 90° clockwise. The files carry a UTF-8 BOM; the Sparrow file
/// names an image that was renamed since (`BF_old.png`; the image is `BOYFRIEND.png`); frame names imply the
/// animations only, listed out of order, with the prefix `BF idle dance` colliding with `BF idle dance-alt`.
public struct SpriteSheetFixture {
    /// One authored frame.
    public struct Frame: Sendable {
        public var name: String
        /// Picture number (colour), size and where it sits in the untrimmed frame.
        public var picture: Int
        public var width: Int, height: Int
        public var offsetX: Int, offsetY: Int
        public var rotated: Bool
        /// Where the stored region starts in the atlas.
        public var atlasX: Int, atlasY: Int
    }

    /// The sheet's layouts.
    public enum Layout: String, CaseIterable, Sendable {
        case sparrow, hash, array
    }

    public static let frameWidth = 12, frameHeight = 10
    public static let atlasWidth = 26, atlasHeight = 20

    /// In file order. `BF idle dance0002` repeats `0000`'s region, as Animate writes a repeated frame.
    public static let frames: [Frame] = [
        Frame(name: "BF idle dance0001", picture: 1, width: 5, height: 6, offsetX: -2, offsetY: 1, rotated: true, atlasX: 7, atlasY: 0),
        Frame(name: "BF idle dance0000", picture: 0, width: 6, height: 5, offsetX: 3, offsetY: 2, rotated: false, atlasX: 0, atlasY: 0),
        Frame(name: "BF idle dance0002", picture: 0, width: 6, height: 5, offsetX: 3, offsetY: 2, rotated: false, atlasX: 0, atlasY: 0),
        Frame(name: "BF idle dance-alt0000", picture: 2, width: 3, height: 3, offsetX: 1, offsetY: 8, rotated: false, atlasX: 14, atlasY: 0),
        Frame(name: "BF idle dance-alt0001", picture: 3, width: 4, height: 3, offsetX: 10, offsetY: -1, rotated: true, atlasX: 18, atlasY: 0),
        Frame(name: "static", picture: 4, width: 12, height: 10, offsetX: 0, offsetY: 0, rotated: false, atlasX: 0, atlasY: 8),
    ]

    /// The authored picture's pixel (straight RGBA).
    public static func pictureColor(_ picture: Int, _ u: Int, _ v: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        (UInt8(40 + 20 * picture), UInt8(16 * u), UInt8(16 * v), 255)
    }

    /// The atlas PNG: each picture stored at its place, turned 90° clockwise when rotated.
    public static func atlasPNG() -> [UInt8] {
        var pixels = [[(UInt8, UInt8, UInt8, UInt8)]](repeating: .init(repeating: (0, 0, 0, 0), count: atlasWidth),
                                                        count: atlasHeight)
        for frame in frames {
            for v in 0..<frame.height {
                for u in 0..<frame.width {
                    let (x, y) = frame.rotated ? (frame.atlasX + frame.height - 1 - v, frame.atlasY + u)
                        : (frame.atlasX + u, frame.atlasY + v)
                    pixels[y][x] = pictureColor(frame.picture, u, v)
                }
            }
        }
        return StoredPNG.make(width: atlasWidth, height: atlasHeight) { x, y in pixels[y][x] }
    }

    /// What a player shows for `frame`: the untrimmed frame with the picture at its offset (premultiplied; the
    /// pictures are opaque).
    public static func expectedFrame(_ frame: Frame) -> Bitmap {
        var bitmap = Bitmap(width: frameWidth, height: frameHeight)
        for v in 0..<frame.height {
            for u in 0..<frame.width {
                let x = frame.offsetX + u, y = frame.offsetY + v
                guard x >= 0, y >= 0, x < frameWidth, y < frameHeight else { continue }
                let (r, g, b, a) = pictureColor(frame.picture, u, v)
                bitmap.setPixel(x: x, y: y, PremultipliedPixel(r: r, g: g, b: b, a: a))
            }
        }
        return bitmap
    }

    /// The data file's name for `layout`.
    public static func dataFile(_ layout: Layout) -> String {
        layout == .sparrow ? "BOYFRIEND.xml" : "sheet.json"
    }

    /// The image's name for `layout`.
    public static func imageFile(_ layout: Layout) -> String {
        layout == .sparrow ? "BOYFRIEND.png" : "sheet.png"
    }

    /// The data file's text for `layout`, BOM first.
    public static func data(_ layout: Layout, animations: Bool = true) -> String {
        let bom = "\u{FEFF}"
        switch layout {
        case .sparrow:
            var lines = [bom + #"<?xml version="1.0" encoding="utf-8"?>"#, #"<TextureAtlas imagePath="BF_old.png">"#,
                         "  <!-- Created with Adobe Animate version 23.0.0.407 -->"]
            for f in frames {
                let (w, h) = f.rotated ? (f.height, f.width) : (f.width, f.height)
                lines.append(#"  <SubTexture name="\#(f.name)" x="\#(f.atlasX)" y="\#(f.atlasY)" width="\#(w)" height="\#(h)" frameX="\#(-f.offsetX)" frameY="\#(-f.offsetY)" frameWidth="\#(frameWidth)" frameHeight="\#(frameHeight)"\#(f.rotated ? #" rotated="true""# : "")/>"#)
            }
            lines.append("</TextureAtlas>")
            return lines.joined(separator: "\n") + "\n"
        case .hash, .array:
            let entries = frames.map { f -> (String, String) in
                let body = #""frame": {"x":\#(f.atlasX),"y":\#(f.atlasY),"w":\#(f.width),"h":\#(f.height)}, "rotated": \#(f.rotated), "trimmed": true, "spriteSourceSize": {"x":\#(f.offsetX),"y":\#(f.offsetY),"w":\#(f.width),"h":\#(f.height)}, "sourceSize": {"w":\#(frameWidth),"h":\#(frameHeight)}"#
                return (f.name, body)
            }
            let framesText = layout == .hash
                ? "{\n" + entries.map { #"  "\#($0.0)": {\#($0.1)}"# }.joined(separator: ",\n") + "\n}"
                : "[\n" + entries.map { #"  {"filename": "\#($0.0)", \#($0.1)}"# }.joined(separator: ",\n") + "\n]"
            let meta = #"{"app": "Adobe Animate", "version": "23.0.0.407", "image": "sheet.png", "format": "RGBA8888", "size": {"w":\#(atlasWidth),"h":\#(atlasHeight)}, "scale": "1"}"#
            let extra = layout == .array && animations
                ? ",\n" + #""animations": {"dance": ["BF idle dance0000", "BF idle dance0001", "BF idle dance0002"]}"# : ""
            return bom + "{\"frames\": " + framesText + ",\n\"meta\": " + meta + extra + "\n}\n"
        }
    }

    /// Writes the sheet in `layout` into a new temporary folder (with `extra` files) and returns the folder.
    public static func write(_ layout: Layout, extra: [String: String] = [:]) throws -> URL {
        let folder = try TestPaths.temporaryFolder("keyframe-sheet-\(layout.rawValue)")
        try Data(data(layout).utf8).write(to: folder.appendingPathComponent(dataFile(layout)))
        try Data(atlasPNG()).write(to: folder.appendingPathComponent(imageFile(layout)))
        for (name, text) in extra { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        return folder
    }
}
