extension ImportError {
    /// The same error with every file name (relative to the export's folder) prefixed by `folder`, the export's
    /// folder as the user wrote it, so that `Animation.json:11:119` reads `Samples/walker/Animation.json:11:119`.
    /// Absolute paths, the input itself (``Kind/unrecognizedInput(path:reason:)``) and an empty `folder` leave the
    /// error as it is.
    public func located(in folder: String) -> ImportError {
        guard !folder.isEmpty else { return self }
        func place(_ file: String) -> String {
            if file.hasPrefix("/") || file.isEmpty { return file }
            return folder.hasSuffix("/") ? folder + file : folder + "/" + file
        }
        switch kind {
        case .syntax(let file, let error): return ImportError(.syntax(file: place(file), error))
        case .markup(let file, let line, let column, let message):
            return ImportError(.markup(file: place(file), line: line, column: column, message: message))
        case .schema(let file, let error): return ImportError(.schema(file: place(file), error))
        case .missingSprite(let name, let file, let path):
            return ImportError(.missingSprite(name: name, file: place(file), path: path))
        case .limitExceeded(let file, let path, let message):
            return ImportError(.limitExceeded(file: place(file), path: path, message: message))
        case .model(let file, let error): return ImportError(.model(file: place(file), error))
        case .missingFile(let path, let reason): return ImportError(.missingFile(path: place(path), reason: reason))
        case .invalidFile(let file, let reason): return ImportError(.invalidFile(file: place(file), reason: reason))
        case .symbolCycle, .unrecognizedInput, .strictDiagnostics: return self
        }
    }
}
