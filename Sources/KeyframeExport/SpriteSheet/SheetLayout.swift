import KeyframePNG

/// The trimmed pictures placed on pages: where each one is, and the pages' pixels.
struct SheetLayout: Sendable {
    /// Where one picture is stored.
    struct Slot: Sendable, Equatable {
        /// The page, from 0.
        var page: Int
        /// The picture's top-left pixel on the page (inside its extrusion).
        var x: Int, y: Int
        /// The picture's own size (unrotated).
        var width: Int, height: Int
        /// Stored a quarter turn clockwise: the picture's top row runs down the page's column `x + height - 1`.
        var rotated: Bool
    }

    /// One slot per picture, in the pictures' order.
    var slots: [Slot]
    /// Each page's size and RGBA bytes.
    var pages: [(width: Int, height: Int, pixels: [UInt8])]
    /// The heuristic that won.
    var heuristic: MaxRectsPacker.Heuristic

    /// Packs `pictures` with `settings` (padding, extrusion, rotation, power-of-two, page size).
    static func pack(_ pictures: [SheetFrames.Picture], settings: SpriteSheetSettings) throws(ExportError) -> SheetLayout {
        let border = settings.extrude * 2 + settings.padding
        var packer = MaxRectsPacker(maximumSide: settings.maximumPageSide + settings.padding,
                                    allowRotation: settings.rotation, powerOfTwo: false)
        packer.maximumSide = settings.maximumPageSide + settings.padding
        let items = pictures.map { MaxRectsPacker.Item(width: $0.width + border, height: $0.height + border) }
        let result: MaxRectsPacker.Result
        do { result = try packer.pack(items) } catch {
            let picture = pictures[error.item]
            throw ExportError(message: "a trimmed frame of \(picture.width)×\(picture.height) pixels (with "
                              + "\(border) of padding and extrusion) does not fit a page of at most "
                              + "\(settings.maximumPageSide) pixels; raise --max-size")
        }
        var slots: [Slot] = []
        var sizes = [(width: Int, height: Int)](repeating: (0, 0), count: result.pages.count)
        for (picture, placement) in zip(pictures, result.placements) {
            let slot = Slot(page: placement.page, x: placement.x + settings.extrude, y: placement.y + settings.extrude,
                            width: picture.width, height: picture.height, rotated: placement.rotated)
            let (w, h) = slot.rotated ? (slot.height, slot.width) : (slot.width, slot.height)
            sizes[slot.page] = (max(sizes[slot.page].width, slot.x + w + settings.extrude),
                                max(sizes[slot.page].height, slot.y + h + settings.extrude))
            slots.append(slot)
        }
        if settings.powerOfTwo {
            sizes = sizes.map { (MaxRectsPacker.powerOfTwo(atLeast: $0.width), MaxRectsPacker.powerOfTwo(atLeast: $0.height)) }
        }
        var pages = sizes.map { (width: $0.width, height: $0.height,
                                 pixels: [UInt8](repeating: 0, count: $0.width * $0.height * 4)) }
        for (picture, slot) in zip(pictures, slots) {
            draw(picture, at: slot, extrude: settings.extrude, into: &pages[slot.page])
        }
        return SheetLayout(slots: slots, pages: pages, heuristic: result.heuristic)
    }

    /// Copies `picture` into `page` at `slot` (turned when the slot is rotated), with its edge pixels repeated
    /// `extrude` pixels outward.
    static func draw(_ picture: SheetFrames.Picture, at slot: Slot, extrude: Int,
                     into page: inout (width: Int, height: Int, pixels: [UInt8])) {
        let (w, h) = slot.rotated ? (slot.height, slot.width) : (slot.width, slot.height)
        let pageWidth = page.width
        page.pixels.withUnsafeMutableBufferPointer { target in
            picture.pixels.withUnsafeBufferPointer { source in
                // The stored pixel (px, py) shows the picture's pixel (sx, sy), clamped to the edge for extrusion.
                func copy(_ px: Int, _ py: Int) {
                    let (cx, cy) = (min(max(px, 0), w - 1), min(max(py, 0), h - 1))
                    let (sx, sy) = slot.rotated ? (cy, picture.height - 1 - cx) : (cx, cy)
                    let from = (sy * picture.width + sx) * 4
                    let to = ((slot.y + py) * pageWidth + slot.x + px) * 4
                    for channel in 0..<4 { target[to + channel] = source[from + channel] }
                }
                if slot.rotated {
                    for py in -extrude..<(h + extrude) { for px in -extrude..<(w + extrude) { copy(px, py) } }
                    return
                }
                // Upright: whole rows at once, then only the extrusion pixel by pixel.
                for row in 0..<h {
                    let from = row * w * 4, to = ((slot.y + row) * pageWidth + slot.x) * 4
                    (target.baseAddress! + to).update(from: source.baseAddress! + from, count: w * 4)
                }
                guard extrude > 0 else { return }
                for py in -extrude..<(h + extrude) {
                    if py >= 0 && py < h {
                        for px in -extrude..<0 { copy(px, py) }
                        for px in w..<(w + extrude) { copy(px, py) }
                    } else {
                        for px in -extrude..<(w + extrude) { copy(px, py) }
                    }
                }
            }
        }
    }

    /// Each page as PNG bytes, holding the bytes as they are (straight or premultiplied, as the pictures were made).
    func encodedPages(preset: PNGPreset) throws(ExportError) -> [[UInt8]] {
        var encoder = PNGEncoder(options: PNGEncodingOptions(preset: preset))
        var files: [[UInt8]] = []
        for page in pages {
            do { files.append(try encoder.encode(pixels: page.pixels, width: page.width, height: page.height, layout: .rgba)) }
            catch { throw ExportError(message: "cannot encode a sprite-sheet page: \(error)") }
        }
        return files
    }
}
