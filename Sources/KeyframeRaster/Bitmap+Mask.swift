extension Bitmap {
    /// Multiplies every pixel by the alpha of `mask`, placed with its top-left at (`offsetX`, `offsetY`).
    ///
    /// Pixels outside the mask become transparent. Draw the mask shapes into a bitmap (any colour;
    /// only alpha counts), draw the masked content into a layer, apply the mask to the layer, then
    /// composite the layer with ``Rasterizer/composite(_:x:y:paint:clip:into:)``.
    public mutating func applyMask(_ mask: Bitmap, offsetX: Int = 0, offsetY: Int = 0) {
        let w = width
        let h = height
        let mw = mask.width
        let mh = mask.height
        withTexels(of: mask) { m in
            withPixels(of: &self) { p in
                for y in 0..<h {
                    let row = p + y * w
                    let my = y - offsetY
                    if my < 0 || my >= mh {
                        row.update(repeating: 0, count: w)
                        continue
                    }
                    for x in 0..<w {
                        let mx = x - offsetX
                        let a: UInt32 = (mx >= 0 && mx < mw) ? m[my * mw + mx] >> 24 : 0
                        if a == 255 { continue }
                        row[x] = a == 0 ? 0 : PixelMath.scale(row[x], PixelMath.weight(a))
                    }
                }
            }
        }
    }
}
