import CRLottie
import Foundation
import KeyframeRaster

/// rlottie playing a Lottie file from memory: the reference player the exports are checked against.
final class RLottiePlayer {
    private let animation: OpaquePointer
    let width: Int
    let height: Int
    let frameCount: Int
    let frameRate: Double

    /// Loads `json`; image files named by relative paths are looked up in `resourceFolder`. `nil` when rlottie
    /// refuses the file.
    init?(json: [UInt8], key: String, resourceFolder: String = "") {
        var text = json
        text.append(0)
        let loaded: OpaquePointer? = text.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { chars in
                lottie_animation_from_data(chars, key, resourceFolder)
            }
        }
        guard let loaded else { return nil }
        animation = loaded
        var w = 0, h = 0
        lottie_animation_get_size(animation, &w, &h)
        width = w
        height = h
        frameCount = lottie_animation_get_totalframe(animation)
        frameRate = lottie_animation_get_framerate(animation)
    }

    deinit { lottie_animation_destroy(animation) }

    /// The markers rlottie read: name, first and last frame.
    var markers: [(name: String, start: Int, end: Int)] {
        guard let list = lottie_animation_get_markerlist(animation), let items = list.pointee.ptr else { return [] }
        return (0..<list.pointee.size).map { i in
            let marker = items[i]
            return (marker.name.map { String(cString: $0) } ?? "", Int(marker.startframe), Int(marker.endframe))
        }
    }

    /// Frame `frame` at the file's own size, as a premultiplied RGBA bitmap.
    ///
    /// rlottie writes ARGB32 premultiplied words (`0xAARRGGBB`, so bytes B, G, R, A in memory on little-endian).
    func render(frame: Int) -> Bitmap {
        var buffer = [UInt32](repeating: 0, count: width * height)
        buffer.withUnsafeMutableBufferPointer { pointer in
            lottie_animation_render(animation, frame, pointer.baseAddress, width, height, width * 4)
        }
        var bitmap = Bitmap(width: width, height: height)
        bitmap.pixels.withUnsafeMutableBufferPointer { out in
            for (i, word) in buffer.enumerated() {
                out[i * 4] = UInt8((word >> 16) & 0xFF)
                out[i * 4 + 1] = UInt8((word >> 8) & 0xFF)
                out[i * 4 + 2] = UInt8(word & 0xFF)
                out[i * 4 + 3] = UInt8(word >> 24)
            }
        }
        return bitmap
    }
}
