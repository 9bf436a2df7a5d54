import KeyframeModel

/// One file an exporter produced, in memory, named relative to the folder its clip's main file goes in.
public struct ExportedFile: Sendable, Equatable {
    /// The path relative to the main file's folder (`walk.json`, `images/head.png`).
    public var relativePath: String
    /// The bytes to write.
    public var bytes: [UInt8]

    public init(relativePath: String, bytes: [UInt8]) {
        self.relativePath = relativePath
        self.bytes = bytes
    }
}

/// The export of one clip: its main file and the files it refers to (images written beside it).
public struct ExportedClip: Sendable, Equatable {
    /// The clip's name in the document.
    public var clip: String
    /// The main file; its `relativePath` is the exporter's default name for it (`<clip>.json`).
    public var main: ExportedFile
    /// Files the main file refers to by relative path (e.g. `images/…` for `--images folder`).
    public var companions: [ExportedFile]

    public init(clip: String, main: ExportedFile, companions: [ExportedFile] = []) {
        self.clip = clip
        self.main = main
        self.companions = companions
    }
}

/// Everything an exporter produced for one document: nothing is written until the caller writes it.
public struct ExportResult: Sendable, Equatable {
    /// One entry per exported clip, in the order asked for.
    public var clips: [ExportedClip]
    /// What could not be exported exactly (approximations, dropped features), merged by code and message.
    public var diagnostics: [Diagnostic]

    public init(clips: [ExportedClip], diagnostics: [Diagnostic]) {
        self.clips = clips
        self.diagnostics = diagnostics
    }
}
