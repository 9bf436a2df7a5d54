/// The one error KeyframePNG throws: what went wrong, libpng's message, and the file involved.
///
/// A corrupt, truncated, non-PNG or oversized input always ends here; libpng never aborts the
/// process because the C shim catches its errors with a jump buffer.
public struct PNGError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Broad classes of failure, for callers that react differently.
    public enum Kind: String, Sendable, Hashable {
        /// The data does not start with the PNG signature.
        case notPNG
        /// libpng rejected the data (bad chunk, CRC, zlib stream, truncated file…).
        case invalidData
        /// The image exceeds the configured ``PNGDecodingLimits``.
        case limitExceeded
        /// Encoding failed (invalid arguments or libpng error while writing).
        case encodingFailed
        /// Reading or writing a file failed.
        case fileSystem
    }

    /// The class of failure.
    public var kind: Kind
    /// libpng's message, or ours for file-system and argument problems.
    public var message: String
    /// The file involved, if any.
    public var path: String?

    /// Creates an error.
    public init(kind: Kind, message: String, path: String? = nil) {
        self.kind = kind
        self.message = message
        self.path = path
    }

    public var description: String {
        let location = path.map { "\($0): " } ?? ""
        return "\(location)PNG \(kind.rawValue): \(message)"
    }

    /// Returns a copy that names `path`.
    func at(_ path: String) -> PNGError {
        var copy = self
        copy.path = path
        return copy
    }

    /// Decodes a NUL-terminated C message buffer.
    static func text(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Classifies a message from the shim.
    static func fromDecoder(_ message: String) -> PNGError {
        let kind: Kind
        if message.hasPrefix("not a PNG") {
            kind = .notPNG
        } else if message.contains("limit") {
            kind = .limitExceeded
        } else {
            kind = .invalidData
        }
        return PNGError(kind: kind, message: message)
    }
}
