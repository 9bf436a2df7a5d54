/// Standard base64 (RFC 4648, with padding) appended straight into a byte buffer: the preview's pictures are
/// megabytes of it, so it works on raw buffers rather than through `Data`/`String`.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Appends the base64 text of `bytes` to `out`.
    static func append(_ bytes: [UInt8], to out: inout [UInt8]) {
        let count = bytes.count
        let start = out.count
        let encodedCount = (count + 2) / 3 * 4
        out.append(contentsOf: repeatElement(0, count: encodedCount))
        alphabet.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { input in
                out.withUnsafeMutableBufferPointer { output in
                    var i = 0, o = start
                    while i + 3 <= count {
                        let v = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
                        output[o] = table[Int(v >> 18)]
                        output[o + 1] = table[Int(v >> 12 & 63)]
                        output[o + 2] = table[Int(v >> 6 & 63)]
                        output[o + 3] = table[Int(v & 63)]
                        i += 3
                        o += 4
                    }
                    let rest = count - i
                    if rest > 0 {
                        let v = UInt32(input[i]) << 16 | (rest == 2 ? UInt32(input[i + 1]) << 8 : 0)
                        output[o] = table[Int(v >> 18)]
                        output[o + 1] = table[Int(v >> 12 & 63)]
                        output[o + 2] = rest == 2 ? table[Int(v >> 6 & 63)] : UInt8(ascii: "=")
                        output[o + 3] = UInt8(ascii: "=")
                    }
                }
            }
        }
    }
}
