import CWebP

/// Assembles an animated WebP with libwebp's animation encoder (`WebPAnimEncoder`, libwebpmux) from frames of
/// straight 8-bit RGBA.
///
/// The encoder stores each frame as the rectangle that changed, blended or not, whichever is smaller, and merges
/// identical frames. Timestamps are whole milliseconds spread by ``AnimationTiming``; the loop count is the clip's
/// (0: forever). Encoding runs on the calling thread only, so the bytes are the same on every run.
public final class WebPWriter {
    /// The frames' size.
    public let width: Int
    public let height: Int
    /// Frames per second.
    public let fps: Double
    /// How many times the animation plays; 0 means forever.
    public let plays: Int
    /// Lossless or lossy.
    public let options: WebPOptions

    private var encoder: OpaquePointer
    private var config = WebPConfig()
    /// How many frames have been added.
    public private(set) var frameCount = 0

    /// The largest side WebP stores.
    public static let maximumSide = 16383

    /// Creates a writer for frames of `width` × `height` (1…16383) shown at `fps`, played `plays` times (0: forever).
    public init(width: Int, height: Int, fps: Double, plays: Int, options: WebPOptions) throws(AnimationError) {
        guard (1...WebPWriter.maximumSide).contains(width), (1...WebPWriter.maximumSide).contains(height) else {
            throw AnimationError("WebP frames are 1 to \(WebPWriter.maximumSide) pixels a side, not \(width)×\(height)")
        }
        self.width = width
        self.height = height
        self.fps = fps
        self.plays = max(0, min(65535, plays))
        self.options = options
        var animation = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&animation) != 0, WebPConfigInit(&config) != 0 else {
            throw AnimationError("libwebp's version does not match its headers")
        }
        animation.anim_params.loop_count = Int32(self.plays)
        animation.anim_params.bgcolor = 0  // a transparent background (a hint; decoders clear to transparent)
        animation.allow_mixed = 0
        switch options {
        case .lossless:
            config.lossless = 1
            config.quality = 75
            config.exact = 1
        case .lossy(let quality):
            config.lossless = 0
            config.quality = Float(quality)
            config.alpha_quality = 100
        }
        config.method = 4
        config.thread_level = 0
        guard WebPValidateConfig(&config) != 0,
              let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &animation) else {
            throw AnimationError("libwebp cannot create an animation encoder for \(width)×\(height)")
        }
        self.encoder = encoder
    }

    /// Adds a frame given as straight 8-bit RGBA, rows tightly packed.
    public func add(straightRGBA pixels: [UInt8]) throws(AnimationError) {
        guard pixels.count == width * height * 4 else {
            throw AnimationError("frame \(frameCount) has \(pixels.count) bytes, not \(width * height * 4)")
        }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw AnimationError("libwebp cannot create a picture") }
        defer { WebPPictureFree(&picture) }
        picture.width = Int32(width)
        picture.height = Int32(height)
        picture.use_argb = 1
        let imported = pixels.withUnsafeBufferPointer { WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(width * 4)) }
        guard imported != 0 else { throw AnimationError("libwebp cannot take frame \(frameCount)") }
        let timestamp = AnimationTiming.start(ofFrame: frameCount, fps: fps, ticksPerSecond: 1000)
        guard WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: timestamp), &config) != 0 else {
            throw AnimationError("frame \(frameCount): \(errorText)")
        }
        frameCount += 1
    }

    deinit { WebPAnimEncoderDelete(encoder) }

    /// The WebP file; the writer takes no frames afterwards.
    public func finish() throws(AnimationError) -> [UInt8] {
        guard frameCount > 0 else { throw AnimationError("no frames to animate") }
        let end = AnimationTiming.start(ofFrame: frameCount, fps: fps, ticksPerSecond: 1000)
        var data = WebPData()
        WebPDataInit(&data)
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: end), nil) != 0,
              WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
            throw AnimationError("libwebp cannot assemble the animation: \(errorText)")
        }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }

    /// libwebp's message for the last failure.
    private var errorText: String {
        guard let message = WebPAnimEncoderGetError(encoder) else { return "unknown error" }
        return String(cString: message)
    }
}
