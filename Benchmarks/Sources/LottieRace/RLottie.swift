import CRLottieRace
import KeyframeRaster

/// rlottie playing a Lottie file from memory (C API, synchronous rendering on the calling thread).
final class RLottie {
    let animation: OpaquePointer
    /// The file's `w` × `h`.
    let fileWidth: Int
    let fileHeight: Int
    let frameCount: Int

    /// Loads `json`. `key` must differ between loads of the same file: rlottie caches parsed files by key, and a
    /// cached load would not be a load.
    init?(json: [UInt8], key: String) {
        var text = json
        text.append(0)
        let loaded: OpaquePointer? = text.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                lottie_animation_from_data($0, key, "")
            }
        }
        guard let loaded else { return nil }
        animation = loaded
        var w = 0, h = 0
        lottie_animation_get_size(animation, &w, &h)
        fileWidth = w
        fileHeight = h
        frameCount = lottie_animation_get_totalframe(animation)
    }

    deinit { lottie_animation_destroy(animation) }

    /// Renders `frame` into `buffer` (ARGB32 premultiplied words, `width × height`); rlottie fits the file's
    /// `w` × `h` into the buffer, centred.
    func render(frame: Int, width: Int, height: Int, into buffer: inout [UInt32]) {
        buffer.withUnsafeMutableBufferPointer {
            lottie_animation_render(animation, frame, $0.baseAddress, width, height, width * 4)
        }
    }
}

/// rlottie's premultiplied `0xAARRGGBB` words as a premultiplied RGBA ``Bitmap`` (what ``PNGEncoder`` takes).
func bitmap(fromARGB words: [UInt32], width: Int, height: Int, into bitmap: inout Bitmap) {
    if bitmap.width != width || bitmap.height != height { bitmap = Bitmap(width: width, height: height) }
    bitmap.pixels.withUnsafeMutableBufferPointer { out in
        words.withUnsafeBufferPointer { words in
            for i in 0..<words.count {
                let word = words[i]
                out[i &* 4] = UInt8(truncatingIfNeeded: word >> 16)
                out[i &* 4 &+ 1] = UInt8(truncatingIfNeeded: word >> 8)
                out[i &* 4 &+ 2] = UInt8(truncatingIfNeeded: word)
                out[i &* 4 &+ 3] = UInt8(truncatingIfNeeded: word >> 24)
            }
        }
    }
}

/// ThorVG's canvas bytes (premultiplied R, G, B, A) as a ``Bitmap``.
func bitmap(fromRGBA bytes: UnsafeRawBufferPointer, width: Int, height: Int, into bitmap: inout Bitmap) {
    if bitmap.width != width || bitmap.height != height { bitmap = Bitmap(width: width, height: height) }
    bitmap.pixels.withUnsafeMutableBytes { $0.copyMemory(from: bytes) }
}
