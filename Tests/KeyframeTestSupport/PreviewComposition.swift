import KeyframePNG
import KeyframeRaster

/// A preview frame rebuilt from its layers the way the page's player draws it: the frame cleared, the first picture
/// drawn at its place, each further picture replacing the rectangle it covers.
public enum PreviewComposition {
    /// `layers` are `[picture index, x, y]`; `pictures` the page's PNG pictures.
    public static func compose(_ layers: [[Int]], pictures: [[UInt8]], width: Int, height: Int) throws -> Bitmap {
        var frame = Bitmap(width: width, height: height)
        for layer in layers {
            let picture = try PNGDecoder().decode(pictures[layer[0]])
            for y in 0..<picture.height {
                for x in 0..<picture.width { frame.setPixel(x: layer[1] + x, y: layer[2] + y, picture.pixel(x: x, y: y)) }
            }
        }
        return frame
    }
}
