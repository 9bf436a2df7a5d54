import Foundation
import KeyframeJSON

/// Why a Core Animation export file could not be loaded: the file, where in it, and what is wrong.
public struct LayerTreeLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as given.
    public var file: String
    /// Where in the file (`root.sublayers[2].animation.animations[0].values[3]`), empty for the file as a whole.
    public var path: String
    public var message: String

    public var description: String { path.isEmpty ? "\(file): \(message)" : "\(file): at \(path): \(message)" }
}

extension LayerTreeDescription {
    /// Reads a JSON or property-list file; image paths are resolved inside the file's folder.
    public init(contentsOf url: URL) throws(LayerTreeLoadError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw LayerTreeLoadError(file: url.path, path: "", message: "cannot read the file")
        }
        try self.init(data: data, folder: url.deletingLastPathComponent(), file: url.path)
    }

    /// Reads the bytes of a file whose images live in `folder`; `file` names it in errors.
    ///
    /// JSON is read by KeyframeJSON's parser (numbers to the nearest double, as the exporter wrote them; Foundation's
    /// parser on Linux is off by a few units in the last place), property lists by Foundation.
    public init(data: Data, folder: URL, file: String) throws(LayerTreeLoadError) {
        let reader = Reader(file: file)
        let value: JSONValue
        if data.starts(with: Array("<?xml".utf8)) || data.starts(with: Array("bplist".utf8)) {
            let object: Any
            do { object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) } catch {
                throw reader.error("", "not a readable property list")
            }
            guard let converted = JSONValue(propertyList: object) else {
                throw reader.error("", "the property list holds values a layer tree never has (dates or data)")
            }
            value = converted
        } else {
            do { value = try JSONParser.parse(Array(data)) } catch {
                throw reader.error("", "invalid JSON: \(error)")
            }
        }
        guard let top = value.objectValue else { throw reader.error("", "expected an object at the top") }
        guard top["format"]?.stringValue == LayerTreeDescription.formatName else {
            throw reader.error("format", "not a Keyframe Core Animation file")
        }
        let version = try reader.number(top["version"], "version")
        guard version == Double(LayerTreeDescription.formatVersion) else {
            throw reader.error("version", "unsupported version \(version.formatted); this loader reads version "
                               + "\(LayerTreeDescription.formatVersion)")
        }
        var images: [String: URL] = [:]
        for (index, image) in try reader.objects(top["images"], "images").enumerated() {
            let at = "images[\(index)]"
            let id = try reader.string(image["id"], at + ".id")
            images[id] = try reader.imageURL(try reader.string(image["path"], at + ".path"), in: folder, at + ".path")
        }
        clip = try reader.string(top["clip"], "clip")
        frameRate = try reader.number(top["frameRate"], "frameRate")
        duration = try reader.number(top["duration"], "duration")
        let loops = try reader.number(top["loopCount"], "loopCount")
        guard loops >= 0, loops <= Double(Int32.max), loops.rounded() == loops else {
            throw reader.error("loopCount", "expected a whole number of loops, found \(loops.formatted)")
        }
        loopCount = Int(loops)
        guard let rootObject = top["root"]?.objectValue else { throw reader.error("root", "no root layer") }
        self.images = images
        root = try reader.layer(rootObject, "root", images: images)
    }
}

extension JSONValue {
    /// The value of a parsed property list (nil when it holds dates or data, which JSON cannot say).
    init?(propertyList object: Any) {
        if type(of: object) == Bool.self, let bool = object as? Bool {
            self = .bool(bool)  // swift-corelibs-foundation gives Swift Bools for <true/> and <false/>
        } else if let string = object as? String {
            self = .string(string)
        } else if let number = object as? NSNumber {
            #if canImport(ObjectiveC)
            if CFGetTypeID(number) == CFBooleanGetTypeID() { self = .bool(number.boolValue); return }
            #endif
            self = .number(number.doubleValue)
        } else if let array = object as? [Any] {
            var elements: [JSONValue] = []
            for element in array {
                guard let value = JSONValue(propertyList: element) else { return nil }
                elements.append(value)
            }
            self = .array(elements)
        } else if let dictionary = object as? [String: Any] {
            var members: JSONObject = [:]
            for (key, element) in dictionary {
                guard let value = JSONValue(propertyList: element) else { return nil }
                members[key] = value
            }
            self = .object(members)
        } else {
            return nil
        }
    }
}

/// Reads typed fields, naming the file and the field path in every error.
private struct Reader {
    var file: String

    func error(_ path: String, _ message: String) -> LayerTreeLoadError {
        LayerTreeLoadError(file: file, path: path, message: message)
    }

    func layer(_ d: JSONObject, _ at: String, images: [String: URL]) throws(LayerTreeLoadError)
        -> LayerTreeDescription.Layer
    {
        let contents = d["contents"]?.stringValue
        if d["contents"] != nil, contents == nil { throw error(at + ".contents", "expected an image id") }
        if let contents, images[contents] == nil { throw error(at + ".contents", "unknown image \"\(contents)\"") }
        var sublayers: [LayerTreeDescription.Layer] = []
        for (index, sublayer) in try objects(d["sublayers"], at + ".sublayers").enumerated() {
            sublayers.append(try layer(sublayer, at + ".sublayers[\(index)]", images: images))
        }
        var mask: [LayerTreeDescription.Layer] = []
        if let value = d["mask"] {
            guard let object = value.objectValue else { throw error(at + ".mask", "expected a layer") }
            mask.append(try layer(object, at + ".mask", images: images))
        }
        return LayerTreeDescription.Layer(
            name: try string(d["name"], at + ".name"),
            bounds: try rect(d["bounds"], at + ".bounds"),
            anchorPoint: try point(d["anchorPoint"], at + ".anchorPoint"),
            position: try point(d["position"], at + ".position"),
            transform: try numbers(d["transform"], at + ".transform", count: 16),
            opacity: Float(try number(d["opacity"], at + ".opacity")),
            isHidden: try bool(d["isHidden"], at + ".isHidden"),
            zPosition: try number(d["zPosition"], at + ".zPosition"),
            allowsGroupOpacity: try bool(d["allowsGroupOpacity"], at + ".allowsGroupOpacity"),
            contents: contents,
            contentsRect: try rect(d["contentsRect"], at + ".contentsRect"),
            beginTime: try number(d["beginTime"], at + ".beginTime"),
            timeOffset: try number(d["timeOffset"], at + ".timeOffset"),
            speed: Float(try number(d["speed"], at + ".speed")),
            animation: try d["animation"].map { value throws(LayerTreeLoadError) in
                guard let object = value.objectValue else { throw error(at + ".animation", "expected a group") }
                return try group(object, at + ".animation")
            },
            mask: mask,
            sublayers: sublayers,
            path: try polygon(d["path"], at + ".path"))
    }

    /// A shape layer's polygon: absent, or x, y pairs of at least three points.
    func polygon(_ value: JSONValue?, _ at: String) throws(LayerTreeLoadError) -> [LayerTreeDescription.Point] {
        guard let value else { return [] }
        let flat = try numbers(value, at)
        guard flat.count >= 6, flat.count % 2 == 0 else {
            throw error(at, "\(flat.count) numbers: expected x, y pairs of at least 3 points")
        }
        return stride(from: 0, to: flat.count, by: 2).map { LayerTreeDescription.Point(x: flat[$0], y: flat[$0 + 1]) }
    }

    func group(_ d: JSONObject, _ at: String) throws(LayerTreeLoadError) -> LayerTreeDescription.AnimationGroup {
        var animations: [LayerTreeDescription.KeyframeAnimation] = []
        for (index, animation) in try objects(d["animations"], at + ".animations").enumerated() {
            animations.append(try keyframeAnimation(animation, at + ".animations[\(index)]"))
        }
        return LayerTreeDescription.AnimationGroup(timing: try timing(d, at), animations: animations)
    }

    func keyframeAnimation(_ d: JSONObject, _ at: String) throws(LayerTreeLoadError)
        -> LayerTreeDescription.KeyframeAnimation
    {
        let type = try string(d["valueType"], at + ".valueType")
        guard let rawValues = d["values"]?.arrayValue else { throw error(at + ".values", "expected a list of values") }
        var values: [LayerTreeDescription.Value] = []
        for (index, raw) in rawValues.enumerated() {
            let where_ = at + ".values[\(index)]"
            switch type {
            case "number": values.append(.number(try number(raw, where_)))
            case "bool": values.append(.bool(try bool(raw, where_)))
            case "point": values.append(.point(try point(raw, where_)))
            case "transform": values.append(.transform(try numbers(raw, where_, count: 16)))
            default: throw error(at + ".valueType", "unknown value type \"\(type)\"")
            }
        }
        let mode = try string(d["calculationMode"], at + ".calculationMode")
        let keyTimes = try numbers(d["keyTimes"], at + ".keyTimes")
        // Core Animation's discrete mode takes one key time more than values (the end of the last value's span); the
        // paced modes ignore key times.
        let expected = mode == "discrete" ? values.count + 1 : values.count
        guard keyTimes.count == expected || mode == "paced" || mode == "cubicPaced" else {
            throw error(at + ".keyTimes", "\(keyTimes.count) key times for \(values.count) values (\(mode) needs "
                        + "\(expected))")
        }
        var functions: [[Float]] = []
        if let raw = d["timingFunctions"] {
            guard let list = raw.arrayValue else { throw error(at + ".timingFunctions", "expected a list") }
            for (index, function) in list.enumerated() {
                functions.append(try numbers(function, at + ".timingFunctions[\(index)]", count: 4).map { Float($0) })
            }
        }
        return LayerTreeDescription.KeyframeAnimation(
            keyPath: try string(d["keyPath"], at + ".keyPath"), values: values, keyTimes: keyTimes,
            timingFunctions: functions, calculationMode: mode,
            timing: try timing(d, at))
    }

    func timing(_ d: JSONObject, _ at: String) throws(LayerTreeLoadError) -> LayerTreeDescription.Timing {
        let begin = try number(d["beginTime"], at + ".beginTime")
        return LayerTreeDescription.Timing(
            beginTime: begin == 0 ? LayerTreeDescription.Timing.beginTimeAtZero : begin,
            duration: try number(d["duration"], at + ".duration"),
            timeOffset: try number(d["timeOffset"], at + ".timeOffset"),
            speed: Float(try number(d["speed"], at + ".speed")),
            repeatCount: Float(try number(d["repeatCount"], at + ".repeatCount")),
            repeatDuration: try number(d["repeatDuration"], at + ".repeatDuration"),
            autoreverses: try bool(d["autoreverses"], at + ".autoreverses"),
            fillMode: try string(d["fillMode"], at + ".fillMode"),
            isRemovedOnCompletion: try bool(d["isRemovedOnCompletion"], at + ".isRemovedOnCompletion"))
    }

    /// The file an image path names, which must stay inside the export's folder (no absolute path, no `..`).
    func imageURL(_ path: String, in folder: URL, _ at: String) throws(LayerTreeLoadError) -> URL {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"), !parts.contains(where: { $0 == ".." || $0.isEmpty }) else {
            throw error(at, "image path \"\(path)\" must be relative and stay inside the file's folder")
        }
        return folder.appendingPathComponent(path)
    }

    // MARK: Values

    func number(_ value: JSONValue?, _ at: String) throws(LayerTreeLoadError) -> Double {
        guard let number = value?.doubleValue else {
            throw error(at, value.map { "expected a number, found \($0.typeName)" } ?? "missing number")
        }
        return number
    }

    func bool(_ value: JSONValue?, _ at: String) throws(LayerTreeLoadError) -> Bool {
        guard let bool = value?.boolValue else {
            throw error(at, value.map { "expected a boolean, found \($0.typeName)" } ?? "missing boolean")
        }
        return bool
    }

    func string(_ value: JSONValue?, _ at: String) throws(LayerTreeLoadError) -> String {
        guard let string = value?.stringValue else {
            throw error(at, value.map { "expected a string, found \($0.typeName)" } ?? "missing string")
        }
        return string
    }

    func objects(_ value: JSONValue?, _ at: String) throws(LayerTreeLoadError) -> [JSONObject] {
        guard let list = value?.arrayValue else { throw error(at, "expected a list") }
        var objects: [JSONObject] = []
        for (index, item) in list.enumerated() {
            guard let object = item.objectValue else { throw error(at + "[\(index)]", "expected an object") }
            objects.append(object)
        }
        return objects
    }

    func numbers(_ value: JSONValue?, _ at: String, count: Int? = nil) throws(LayerTreeLoadError) -> [Double] {
        guard let list = value?.arrayValue else { throw error(at, "expected a list of numbers") }
        if let count, list.count != count { throw error(at, "expected \(count) numbers, found \(list.count)") }
        var numbers: [Double] = []
        for (index, item) in list.enumerated() { numbers.append(try number(item, at + "[\(index)]")) }
        return numbers
    }

    func point(_ value: JSONValue?, _ at: String) throws(LayerTreeLoadError) -> LayerTreeDescription.Point {
        let n = try numbers(value, at, count: 2)
        return LayerTreeDescription.Point(x: n[0], y: n[1])
    }

    func rect(_ value: JSONValue?, _ at: String) throws(LayerTreeLoadError) -> LayerTreeDescription.Rect {
        let n = try numbers(value, at, count: 4)
        return LayerTreeDescription.Rect(x: n[0], y: n[1], width: n[2], height: n[3])
    }
}

extension Double {
    /// Whole numbers without a fraction, others as Swift prints them.
    fileprivate var formatted: String {
        rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
