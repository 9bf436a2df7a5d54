import KeyframePNG

/// The one error KeyframeRender throws: what could not be rendered, and the file or option involved.
public struct RenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// An atlas image named by the document is not on disk.
        case missingImage(id: String, path: String)
        /// The path of an atlas image (`field`, e.g. `assets.images[2].path`) leads outside the folder images are
        /// read from; `message` quotes the path and says why.
        case imageOutsideFolder(id: String, field: String, message: String)
        /// An atlas image could not be decoded (corrupt, not a PNG, too large).
        case unreadableImage(id: String, path: String, reason: String)
        /// An output (a frame, the contact sheet, the output folder) could not be encoded or written.
        case output(path: String, reason: String)
        /// The document has no clip of this name.
        case unknownClip(name: String, available: [String])
        /// A render setting cannot be used (empty frame range, zero size, bad colour…).
        case invalidSetting(String)
        /// No frame of the render shows any sprite although the document has sprites (names that match no texture,
        /// everything hidden): `frames` planned, `sprites` in the document, and the importer's one-line account of
        /// displays without a texture when it gave one.
        case nothingDrawn(frames: Int, sprites: Int, missingTextures: String?)
    }

    /// What went wrong.
    public var kind: Kind

    /// Creates an error.
    public init(_ kind: Kind) {
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .missingImage(let id, let path):
            return "\(path): atlas image \"\(id)\" not found"
        case .imageOutsideFolder(_, let field, let message):
            return "at \(field): \(message)"
        case .unreadableImage(let id, let path, let reason):
            return "\(path): atlas image \"\(id)\" cannot be read: \(reason)"
        case .output(let path, let reason):
            return "cannot write \(path): \(reason)"
        case .unknownClip(let name, let available):
            let names = available.map { "\"\($0)\"" }.joined(separator: ", ")
            return "no clip named \"\(name)\" (clips: \(names.isEmpty ? "none" : names))"
        case .invalidSetting(let message):
            return message
        case .nothingDrawn(let frames, let sprites, let missing):
            let why = missing.map { "; \($0)" } ?? ""
            return "nothing to draw: none of the \(frames) frame(s) shows any of the document's \(sprites) sprite(s)"
                + "\(why) (allow blank frames with --allow-empty)"
        }
    }
}
