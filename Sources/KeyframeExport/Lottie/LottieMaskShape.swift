import KeyframeModel
import KeyframeRaster

/// A mask picture's coverage as rectangles, for Lottie layer masks (`masksProperties`), which every player draws —
/// rlottie 0.1, the Debian build, draws no track mattes at all.
///
/// Pixels with alpha ≥ 128 are inside. Each row's inside runs are merged with the identical runs of the rows below
/// into rectangles, so an opaque rectangular mask is one rectangle and a disc a few dozen. The result is exact for
/// pictures whose alpha is only 0 or 255; anti-aliased mask edges become hard pixel edges (``isBinary`` is false).
struct LottieMaskShape: Equatable {
    /// Rectangles in the picture's pixels, `(x, y, width, height)`.
    var rectangles: [(x: Int, y: Int, width: Int, height: Int)]
    /// Whether every pixel was fully transparent or fully opaque (the rectangles then cover exactly the picture).
    var isBinary: Bool

    static func == (a: LottieMaskShape, b: LottieMaskShape) -> Bool {
        a.isBinary == b.isBinary && a.rectangles.map { [$0.x, $0.y, $0.width, $0.height] }
            == b.rectangles.map { [$0.x, $0.y, $0.width, $0.height] }
    }

    /// More rectangles than this and the mask becomes its inside pixels' bounding box (a warning).
    static let maximumRectangles = 256

    init(picture: Bitmap) {
        var binary = true
        var open: [String: (x: Int, y: Int, width: Int, height: Int)] = [:]
        var done: [(x: Int, y: Int, width: Int, height: Int)] = []
        for y in 0..<picture.height {
            var runs: [(Int, Int)] = []
            var x = 0
            while x < picture.width {
                let alpha = picture.pixels[(y * picture.width + x) * 4 + 3]
                if alpha != 0 && alpha != 255 { binary = false }
                if alpha >= 128 {
                    let start = x
                    while x < picture.width, picture.pixels[(y * picture.width + x) * 4 + 3] >= 128 {
                        let a = picture.pixels[(y * picture.width + x) * 4 + 3]
                        if a != 255 { binary = false }
                        x += 1
                    }
                    runs.append((start, x - start))
                } else {
                    x += 1
                }
            }
            var next: [String: (x: Int, y: Int, width: Int, height: Int)] = [:]
            for (start, width) in runs {
                let key = "\(start),\(width)"
                if var rect = open[key] {
                    rect.height += 1
                    next[key] = rect
                    open[key] = nil
                } else {
                    next[key] = (start, y, width, 1)
                }
            }
            done += open.values
            open = next
        }
        done += open.values
        rectangles = done.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
        isBinary = binary
    }

    /// The bounding box of the rectangles (one rectangle), for masks too detailed to list.
    var bounds: (x: Int, y: Int, width: Int, height: Int)? {
        guard let first = rectangles.first else { return nil }
        var minX = first.x, minY = first.y, maxX = first.x + first.width, maxY = first.y + first.height
        for r in rectangles {
            minX = min(minX, r.x); minY = min(minY, r.y)
            maxX = max(maxX, r.x + r.width); maxY = max(maxY, r.y + r.height)
        }
        return (minX, minY, maxX - minX, maxY - minY)
    }
}
