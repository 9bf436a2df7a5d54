import KeyframeRaster

/// One PNG showing many frames in a grid, each labelled (frame number and time), for people to review a clip at a
/// glance.
///
/// Frames are drawn over a checkerboard so transparency shows; the sheet itself is opaque.
public enum ContactSheet {
    /// One cell of the sheet.
    public struct Cell: Sendable {
        /// The picture (any size; cells are as large as the largest picture).
        public var picture: Bitmap
        /// The caption under it.
        public var label: String

        public init(picture: Bitmap, label: String) {
            self.picture = picture
            self.label = label
        }
    }

    static let padding = 6
    static let fontScale = 2
    static let sheetColor = RGBAColor(r: 32, g: 34, b: 38)
    static let labelColor = RGBAColor(r: 220, g: 222, b: 226)
    static let checkerLight = RGBAColor(r: 204, g: 204, b: 204)
    static let checkerDark = RGBAColor(r: 153, g: 153, b: 153)
    static let checkerSize = 8

    /// The largest sheet side ``pictureSide(count:labelWidth:preferred:maximumSide:)`` allows by default.
    public static let maximumSide = 16384
    /// Pictures smaller than this are not worth a sheet.
    public static let minimumPictureSide = 8

    /// The largest picture side, at most `preferred`, at which `count` cells with captions up to
    /// `labelWidth` pixels wide fit a near-square sheet no larger than `maximumSide` on either side;
    /// `nil` when even ``minimumPictureSide`` does not fit.
    ///
    /// Long clips make many cells: their pictures shrink so the sheet stays a size a PNG viewer (and
    /// memory) can take.
    public static func pictureSide(count: Int, labelWidth: Int, preferred: Int,
                                   maximumSide: Int = ContactSheet.maximumSide) -> Int? {
        guard count > 0 else { return preferred }
        let columns = Int(Double(count).squareRoot().rounded(.up))
        let rows = (count + columns - 1) / columns
        let labelHeight = BitmapFont.glyphHeight * fontScale
        // padding + columns · (max(side, label) + padding) ≤ maximumSide, and likewise for the rows.
        let cellWidth = (maximumSide - padding) / columns - padding
        let cellHeight = (maximumSide - padding) / rows - padding - labelHeight - padding
        guard labelWidth <= cellWidth else { return nil }
        let side = min(preferred, cellWidth, cellHeight)
        return side >= minimumPictureSide ? side : nil
    }

    /// Lays `cells` out in rows of `columns` (default: a near-square grid) and draws them.
    public static func compose(_ cells: [Cell], columns: Int? = nil) -> Bitmap {
        guard !cells.isEmpty else { return Bitmap(width: 1, height: 1) }
        let columnCount = max(1, min(cells.count, columns ?? Int(Double(cells.count).squareRoot().rounded(.up))))
        let rowCount = (cells.count + columnCount - 1) / columnCount
        let labelHeight = BitmapFont.glyphHeight * fontScale
        let widestLabel = cells.map { BitmapFont.width(of: $0.label, scale: fontScale) }.max() ?? 0
        let pictureWidth = cells.map { $0.picture.width }.max() ?? 1
        let pictureHeight = cells.map { $0.picture.height }.max() ?? 1
        let cellWidth = max(pictureWidth, widestLabel) + padding
        let cellHeight = pictureHeight + padding + labelHeight + padding
        var sheet = Bitmap(width: padding + columnCount * cellWidth, height: padding + rowCount * cellHeight)
        sheet.clear(to: sheetColor)
        var rasterizer = Rasterizer()
        for (index, cell) in cells.enumerated() {
            let x = padding + (index % columnCount) * cellWidth
            let y = padding + (index / columnCount) * cellHeight
            checkerboard(x: x, y: y, width: cell.picture.width, height: cell.picture.height, into: &sheet)
            rasterizer.composite(cell.picture, x: x, y: y, into: &sheet)
            BitmapFont.draw(cell.label, x: x, y: y + pictureHeight + padding, scale: fontScale, color: labelColor,
                            into: &sheet)
        }
        return sheet
    }

    /// The caption for a frame: its number and its time in seconds, e.g. `F12 0.500S`.
    public static func label(frame: Int, seconds: Double, prefix: String? = nil) -> String {
        let millis = Int(saturatingRounded: seconds * 1000)
        let time = "\(millis / 1000).\(String(millis % 1000).leftPadded(to: 3))s"
        return [prefix, "F\(frame)", time].compactMap { $0 }.joined(separator: " ")
    }

    private static func checkerboard(x: Int, y: Int, width: Int, height: Int, into sheet: inout Bitmap) {
        let light = checkerLight.premultiplied, dark = checkerDark.premultiplied
        for row in 0..<height {
            for column in 0..<width {
                let isLight = ((row / checkerSize) + (column / checkerSize)) % 2 == 0
                sheet.setPixel(x: x + column, y: y + row, isLight ? light : dark)
            }
        }
    }
}

extension String {
    /// The string with `pad` (zeros unless told) in front up to `length` characters.
    package func leftPadded(to length: Int, with pad: Character = "0") -> String {
        count >= length ? self : String(repeating: pad, count: length - count) + self
    }
}
