import CLibPNG

/// Raw deflate (RFC 1951) and CRC-32 through the zlib that libpng links, for archives Keyframe writes (the
/// dotLottie container). The same bytes and level give the same output on every run.
public enum Deflate {
    /// `bytes` deflated at `level` (0 … 9), without a zlib header or trailer (a ZIP entry's method 8 data).
    public static func compress(_ bytes: [UInt8], level: Int = 9) throws(PNGError) -> [UInt8] {
        var out = kf_png_buffer(bytes: nil, count: 0, capacity: 0, workspace: nil)
        defer { kf_png_buffer_free(&out) }
        var message = [CChar](repeating: 0, count: Int(KF_PNG_MESSAGE_CAPACITY))
        let status = bytes.withUnsafeBufferPointer { input in
            kf_deflate_raw(input.baseAddress, input.count, Int32(min(max(level, 0), 9)), &out, &message, message.count)
        }
        guard status == 0, let base = out.bytes else {
            throw PNGError(kind: .encodingFailed, message: "deflate: \(PNGError.text(message))")
        }
        return Array(UnsafeBufferPointer(start: base, count: out.count))
    }

    /// The CRC-32 (ISO 3309, as ZIP and PNG use it) of `bytes`.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { kf_crc32(0, $0.baseAddress, $0.count) }
    }
}
