import Foundation
import KeyframeFiles
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender

/// Writes a sprite's upright picture with a constant colour transform applied, as its own PNG.
///
/// The atlas is decoded once per image; each pixel of the region (turned upright when stored rotated) is taken back
/// to straight colour, transformed with the raster's own `PixelColorTransform` (alpha left alone: it stays the
/// layer's opacity) and premultiplied again.
struct TintBaker {
    private var atlases: [String: Bitmap] = [:]
    private var encoder: PNGEncoder
    /// Baked pictures already encoded, by their pixels (two sprites or tints that come out the same are encoded once).
    private let contents = EncodedPictureCache()

    init(encoding: PNGEncodingOptions = .compact) {
        encoder = PNGEncoder(options: encoding)
    }

    /// The PNG bytes and pixel size of the baked picture.
    mutating func bake(_ sprite: Sprite, color: ColorTransform, image: AtlasImage, index: Int,
                       assetsFolder: InputFolder, source: String)
        throws(ExportError) -> (bytes: [UInt8], width: Int, height: Int)
    {
        let atlas = try self.atlas(image, index: index, assetsFolder: assetsFolder, source: source)
        let x0 = Int(sprite.region.x.rounded()), y0 = Int(sprite.region.y.rounded())
        let w = Int(sprite.region.width.rounded()), h = Int(sprite.region.height.rounded())
        let (width, height) = sprite.rotated ? (h, w) : (w, h)
        guard width > 0, height > 0, x0 >= 0, y0 >= 0, x0 + w <= atlas.width, y0 + h <= atlas.height else {
            throw ExportError(source: source, message: "sprite \"\(sprite.id)\": its region lies outside atlas \(image.id)")
        }
        let transform = PixelColorTransform(
            redMultiplier: color.redMultiplier, greenMultiplier: color.greenMultiplier,
            blueMultiplier: color.blueMultiplier, alphaMultiplier: 1, redOffset: color.redOffset,
            greenOffset: color.greenOffset, blueOffset: color.blueOffset, alphaOffset: 0)
        var straight = [UInt8](repeating: 0, count: width * height * 4)
        for v in 0..<height {
            for u in 0..<width {
                // Upright (u, v) is atlas (x + w − 1 − v, y + u) in a rotated region (format.md, sprites).
                let (ax, ay) = sprite.rotated ? (x0 + w - 1 - v, y0 + u) : (x0 + u, y0 + v)
                let i = (ay * atlas.width + ax) * 4
                let a = atlas.pixels[i + 3]
                guard a > 0 else { continue }
                func unpremultiply(_ c: UInt8) -> UInt8 { UInt8(min(255, (Double(c) * 255 / Double(a)).rounded())) }
                let color = transform.apply(to: RGBAColor(r: unpremultiply(atlas.pixels[i]), g: unpremultiply(atlas.pixels[i + 1]),
                                                          b: unpremultiply(atlas.pixels[i + 2]), a: a))
                let o = (v * width + u) * 4
                straight[o] = color.r
                straight[o + 1] = color.g
                straight[o + 2] = color.b
                straight[o + 3] = color.a
            }
        }
        guard let bitmap = Bitmap(width: width, height: height, straightRGBA: straight) else {
            throw ExportError(source: source, message: "sprite \"\(sprite.id)\": cannot build its tinted copy")
        }
        do { return (try contents.png(for: bitmap, encoder: &encoder).png, width, height) } catch {
            throw ExportError(source: source, message: "sprite \"\(sprite.id)\": cannot encode its tinted copy: \(error)")
        }
    }

    private mutating func atlas(_ image: AtlasImage, index: Int, assetsFolder: InputFolder, source: String)
        throws(ExportError) -> Bitmap
    {
        if let known = atlases[image.id] { return known }
        let file = try CoreAnimationExporter.readImage(image, index: index, in: assetsFolder, source: source)
        do {
            let bitmap = try PNGDecoder().decode(file.bytes)
            atlases[image.id] = bitmap
            return bitmap
        } catch {
            throw ExportError(source: source, message: "atlas image \"\(image.id)\" (\(file.display)): \(error)")
        }
    }
}
