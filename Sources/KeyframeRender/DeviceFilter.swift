import Foundation
import KeyframeModel
import KeyframeRaster

/// A model filter in device pixels: what the renderer runs over a filtered group's picture.
///
/// Flash's filter parameters are in stage pixels, independent of the filtered object's own transform; only the
/// stage's zoom scales them. Here the view (document → device) is that zoom: blur sizes scale by its horizontal and
/// vertical scale, and a drop shadow's offset goes through its linear part and is rounded to whole pixels.
enum DeviceFilter: Equatable {
    case blur(BoxBlur)
    case glow(GlowKernel)
    case colorMatrix(ColorMatrixKernel)

    /// The device form of `effect` under `view`; `nil` when it changes nothing (a blur of at most one pixel, an
    /// identity colour matrix).
    init?(_ effect: FilterEffect, view: Affine) {
        let sx = (view.a * view.a + view.b * view.b).squareRoot()
        let sy = (view.c * view.c + view.d * view.d).squareRoot()
        func box(_ blur: FilterEffect.Blur) -> BoxBlur {
            func size(_ value: Double, _ scale: Double) -> Double {
                let clamped = value.isFinite ? min(max(value, 0), 255) : 0
                let scaled = clamped * scale
                return scaled.isFinite ? min(scaled, 1_048_576) : 0
            }
            return BoxBlur(width: size(blur.blurX, sx), height: size(blur.blurY, sy),
                           passes: min(max(blur.quality, 0), 15))
        }
        switch effect {
        case .blur(let blur):
            let kernel = box(blur)
            guard !kernel.isIdentity else { return nil }
            self = .blur(kernel)
        case .glow(let glow), .dropShadow(let glow):
            var dx = 0, dy = 0
            if case .dropShadow = effect, glow.distance.isFinite, glow.angle.isFinite {
                let radians = glow.angle * .pi / 180
                let offset = view.applyToVector(SIMD2(glow.distance * cos(radians), glow.distance * sin(radians)))
                dx = Int(saturatingRounded: offset.x)
                dy = Int(saturatingRounded: offset.y)
                let limit = 1 << 16
                dx = min(max(dx, -limit), limit)
                dy = min(max(dy, -limit), limit)
            }
            self = .glow(GlowKernel(
                blur: box(glow.blur), red: glow.red, green: glow.green, blue: glow.blue,
                alpha: glow.alpha.isFinite ? min(max(glow.alpha, 0), 1) : 0,
                strength: glow.strength.isFinite ? min(max(glow.strength, 0), 255) : 0,
                offsetX: dx, offsetY: dy, inner: glow.inner, knockout: glow.knockout, hideObject: glow.hideObject))
        case .adjustColor(let adjust):
            let matrix = adjust.matrix
            let identity: [Double] = [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0]
            guard zip(matrix, identity).contains(where: { abs($0 - $1) > 1e-12 }),
                let kernel = ColorMatrixKernel(matrix)
            else { return nil }
            self = .colorMatrix(kernel)
        }
    }

    /// The device filters of `filters` under `view`, in order; filters Keyframe does not draw are left out.
    static func filters(_ filters: [Filter], view: Affine) -> [DeviceFilter] {
        filters.compactMap { filter in filter.effect.flatMap { DeviceFilter($0, view: view) } }
    }

    /// How far the result reaches beyond the picture (left, top, right, bottom), in pixels.
    var margins: Insets {
        switch self {
        case .blur(let blur):
            let e = blur.extent
            return Insets(left: e.x, top: e.y, right: e.x, bottom: e.y)
        case .glow(let glow):
            let m = glow.margins
            return Insets(left: m.left, top: m.top, right: m.right, bottom: m.bottom)
        case .colorMatrix:
            return Insets()
        }
    }

    /// How far around each pixel the filter reads (left, top, right, bottom), in pixels.
    var reach: Insets {
        switch self {
        case .blur:
            return margins
        case .glow(let glow):
            let r = glow.reach
            return Insets(left: r.left, top: r.top, right: r.right, bottom: r.bottom)
        case .colorMatrix:
            return Insets()
        }
    }

    /// Runs the filter over `bitmap`; `plane` and `scratch` are working memory.
    func apply(to bitmap: inout Bitmap, plane: inout [UInt8], scratch: inout [UInt8]) {
        switch self {
        case .blur(let blur): blur.apply(to: &bitmap, scratch: &scratch)
        case .glow(let glow): glow.apply(to: &bitmap, plane: &plane, scratch: &scratch)
        case .colorMatrix(let matrix): matrix.apply(to: &bitmap)
        }
    }
}

/// Whole-pixel distances on each side of a rectangle.
struct Insets: Equatable {
    var left = 0, top = 0, right = 0, bottom = 0

    static func + (a: Insets, b: Insets) -> Insets {
        Insets(left: a.left + b.left, top: a.top + b.top, right: a.right + b.right, bottom: a.bottom + b.bottom)
    }

    static func - (a: Insets, b: Insets) -> Insets {
        Insets(left: a.left - b.left, top: a.top - b.top, right: a.right - b.right, bottom: a.bottom - b.bottom)
    }

    /// The larger of the two on each side.
    func union(_ other: Insets) -> Insets {
        Insets(left: max(left, other.left), top: max(top, other.top), right: max(right, other.right),
               bottom: max(bottom, other.bottom))
    }
}

extension PixelRect {
    /// The rectangle grown by `insets` (an empty rectangle stays empty).
    func grown(by insets: Insets) -> PixelRect {
        guard !isEmpty else { return self }
        return PixelRect(x: x - insets.left, y: y - insets.top, width: width + insets.left + insets.right,
                         height: height + insets.top + insets.bottom)
    }
}
