import Foundation
import KeyframeExport
import KeyframeFiles
import KeyframeImport
import KeyframeJSON
import KeyframePNG

/// A batch's options written in a JSON file (`keyframe batch --config FILE`): what the SwiftPM plugin's
/// `keyframe-assets.json` holds.
///
/// ```json
/// {"to": ["normalized", "lottie"], "strict": true, "previews": true, "profile": "full", "png": "fast", "pretty": true}
/// ```
///
/// Every key is optional: `to` (a non-empty list of `normalized`, `lottie`, `core-animation`), `strict`,
/// `previews` and `pretty` (Booleans), `profile` (`portable` or `full`), `png` (`compact` or `fast`). An unknown key,
/// a wrong type or an unknown value is an error at its line and column. The file is read when the batch runs, so a
/// build that passes it as an input picks up every edit without being planned again.
public struct BatchConfigFile: Sendable, Equatable {
    /// The keys a configuration file may hold.
    public static let keys = ["png", "pretty", "previews", "profile", "strict", "to"]

    public var targets: [BatchTarget]?
    public var strict: Bool?
    public var previews: Bool?
    public var pretty: Bool?
    public var profile: LottieExportSettings.Profile?
    public var pictures: PNGPreset?

    public init() {}

    /// Reads the file at `path` (named `path` in errors).
    ///
    /// - Throws: ``BatchError`` (kind `input`) naming the file and, for a bad key or value, its line and column
    ///   (``BatchError/located``).
    public static func read(_ path: String) throws(BatchError) -> BatchConfigFile {
        let bytes: [UInt8]
        do { bytes = try InputFile.read(path, limit: 1 << 20) } catch {
            throw BatchError(.input, "\(error)", located: BuildMessage(.error, file: path, message: "cannot be read: \(error.reason)"))
        }
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch {
            throw BatchError(.input, "\(path):\(error.line):\(error.column): invalid JSON: \(error.message)",
                             located: BuildMessage(.error, file: path, line: error.line, column: error.column,
                                                   message: "invalid JSON: \(error.message)"))
        }
        func fail(_ at: JSONPath, _ message: String) -> BatchError {
            let place = JSONLocator.position(of: at, in: bytes)
            let where_ = place.map { ":\($0.line):\($0.column)" } ?? ""
            return BatchError(.input, "\(path)\(where_): \(message)",
                              located: BuildMessage(.error, file: path, line: place?.line, column: place?.column,
                                                    message: message))
        }
        guard case .object(let members) = root else { throw fail(.root, "expected a JSON object of options") }
        var config = BatchConfigFile()
        for key in members.keys.sorted() {
            let value = members[key]!
            let at = JSONPath.root.appending(key)
            func flag() throws(BatchError) -> Bool {
                guard case .bool(let flag) = value else { throw fail(at, "\"\(key)\" must be true or false") }
                return flag
            }
            func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type) throws(BatchError) -> T where T.RawValue == String {
                let known = T.allCases.map(\.rawValue).joined(separator: ", ")
                guard case .string(let text) = value, let chosen = T(rawValue: text) else {
                    throw fail(at, "\"\(key)\" must be one of \(known)")
                }
                return chosen
            }
            switch key {
            case "strict": config.strict = try flag()
            case "previews": config.previews = try flag()
            case "pretty": config.pretty = try flag()
            case "profile": config.profile = try choice(LottieExportSettings.Profile.self)
            case "png": config.pictures = try choice(PNGPreset.self)
            case "to":
                let known = BatchTarget.all.map(\.description).joined(separator: ", ")
                guard case .array(let list) = value, !list.isEmpty else {
                    throw fail(at, "\"to\" must be a non-empty list of formats (\(known))")
                }
                var targets: [BatchTarget] = []
                for (index, element) in list.enumerated() {
                    guard case .string(let name) = element, let target = BatchTarget(argument: name) else {
                        let found = element.stringValue.map { "\"\($0)\"" } ?? element.typeName
                        throw fail(at.appending(index), "\"to\": unknown format \(found) (known: \(known))")
                    }
                    targets.append(target)
                }
                config.targets = targets
            default:
                throw fail(at, "unknown key \"\(key)\" (known: \(keys.joined(separator: ", ")))")
            }
        }
        return config
    }

    /// `options` with this file's settings applied.
    public func applied(to options: BatchOptions) -> BatchOptions {
        var options = options
        if let targets { options.targets = targets }
        if let strict { options.strict = strict }
        if let previews { options.previews = previews }
        if let pretty { options.prettyJSON = pretty }
        if let profile { options.lottieProfile = profile }
        if let pictures { options.pictures = pictures }
        return options
    }
}
