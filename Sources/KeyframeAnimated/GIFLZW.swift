/// GIF's variable-width LZW compression of one frame's colour indices (GIF89a, appendix F), packed least significant
/// bit first into sub-blocks of at most 255 bytes.
enum GIFLZW {
    /// The image data of a frame: the minimum code size byte, the sub-blocks, and the block terminator.
    static func encode(_ indices: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        let clear = 1 << minimumCodeSize, end = clear + 1
        var codeSize = minimumCodeSize + 1
        var next = clear + 2
        // table[prefix * 256 + index]: the code of the string `prefix` followed by `index`, 0 when absent.
        var table = [UInt16](repeating: 0, count: 4096 * 256)
        var bits = BitPacker()
        bits.write(clear, width: codeSize)
        guard var prefix = indices.first.map(Int.init) else {
            bits.write(end, width: codeSize)
            return [UInt8(minimumCodeSize)] + bits.subBlocks()
        }
        for index in indices.dropFirst() {
            let key = prefix << 8 | Int(index)
            let code = Int(table[key])
            if code != 0 { prefix = code; continue }
            bits.write(prefix, width: codeSize)
            table[key] = UInt16(next)
            if next >= 1 << codeSize, codeSize < 12 { codeSize += 1 }
            if next == 4095 {
                bits.write(clear, width: codeSize)
                table.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
                codeSize = minimumCodeSize + 1
                next = clear + 2
            } else {
                next += 1
            }
            prefix = Int(index)
        }
        bits.write(prefix, width: codeSize)
        // A decoder adds a table entry after reading that last code, which may widen the codes, as here.
        if next >= 1 << codeSize, codeSize < 12 { codeSize += 1 }
        bits.write(end, width: codeSize)
        return [UInt8(minimumCodeSize)] + bits.subBlocks()
    }

    /// Codes packed into bytes, least significant bit first.
    struct BitPacker {
        var bytes: [UInt8] = []
        private var buffer = 0, count = 0

        mutating func write(_ code: Int, width: Int) {
            buffer |= code << count
            count += width
            while count >= 8 {
                bytes.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                count -= 8
            }
        }

        /// The bytes (with the last partial one) as sub-blocks, then the zero-length terminator.
        mutating func subBlocks() -> [UInt8] {
            if count > 0 { bytes.append(UInt8(buffer & 0xFF)); buffer = 0; count = 0 }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + bytes.count / 255 + 2)
            var offset = 0
            while offset < bytes.count {
                let length = min(255, bytes.count - offset)
                out.append(UInt8(length))
                out += bytes[offset..<offset + length]
                offset += length
            }
            out.append(0)
            return out
        }
    }
}
