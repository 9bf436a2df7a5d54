/// The 8-bit sample layout of pixels handed to ``PNGEncoder/encode(pixels:width:height:layout:)``.
public enum PNGPixelLayout: Int32, Sendable, Hashable, CaseIterable {
    /// Premultiplied RGBA, as a `KeyframeRaster/Bitmap` stores it; written as straight RGBA.
    case premultipliedRGBA = 0
    /// Straight RGBA.
    case rgba = 1
    /// RGB, no alpha.
    case rgb = 2
    /// Gray.
    case gray = 3
    /// Gray and alpha.
    case grayAlpha = 4

    /// Bytes per pixel.
    public var bytesPerPixel: Int {
        switch self {
        case .premultipliedRGBA, .rgba: 4
        case .rgb: 3
        case .gray: 1
        case .grayAlpha: 2
        }
    }
}
