import Foundation
import KeyframeJSON
import KeyframeModel

/// Reads DragonBones binary data (`*_ske.dbbin`): a `DBDT` tag, a JSON header with the armatures' structure, then the
/// runtime's packed arrays, which hold every animation's keyframes.
///
/// The header is read like JSON skeleton data except its animations, whose timelines are offsets into the arrays;
/// they are decoded here into the same wire keyframes the JSON reader produces: keyframe positions and tween types
/// from the frame array, values from the frame float array (rotations in radians, already unwrapped), colours
/// through the int array, curves as the exporter sampled them.
struct DragonBonesBinaryReader {
    /// The packed arrays that follow the header.
    struct Arrays {
        var int: [Int16] = []
        var float: [Float] = []
        var frameInt: [Int16] = []
        var frameFloat: [Float] = []
        var frame: [Int16] = []
        var timeline: [UInt16] = []
    }

    /// The header (as a JSON cursor) and the arrays of a `.dbbin` file; errors name the file.
    static func split(_ bytes: [UInt8], file: String, lenientReads: JSONLenientReads? = nil) throws(ImportError)
        -> (header: JSONCursor, arrays: Arrays)
    {
        func fail(_ reason: String) -> ImportError { ImportError(.invalidFile(file: file, reason: reason)) }
        guard bytes.count >= 12, Array(bytes[0..<4]) == Array("DBDT".utf8) else {
            throw fail("not DragonBones binary data (no DBDT tag)")
        }
        let headerLength = Int(UInt32(bytes[8]) | UInt32(bytes[9]) << 8 | UInt32(bytes[10]) << 16 | UInt32(bytes[11]) << 24)
        guard headerLength <= bytes.count - 12 else { throw fail("the header is longer than the file") }
        let header: JSONCursor
        do { header = JSONCursor(try JSONParser.parse(Array(bytes[12..<(12 + headerLength)])), lenientReads: lenientReads) } catch {
            throw ImportError(.syntax(file: file, error))
        }
        let base = 12 + headerLength
        var offsets: [Int] = []
        do {
            offsets = try header.member("offset").array().map { (c) throws(JSONSchemaError) in try c.integer() }
        } catch { throw ImportError(.schema(file: file, error)) }
        guard offsets.count >= 12 else { throw fail("the header's offset list has \(offsets.count) entries, 12 needed") }
        func slice(_ index: Int, size: Int) throws(ImportError) -> ArraySlice<UInt8> {
            let start = base + offsets[index], length = offsets[index + 1]
            guard offsets[index] >= 0, length >= 0, length % size == 0, start + length <= bytes.count else {
                throw fail("packed array \(index / 2) (\(length) bytes at \(offsets[index])) lies outside the file")
            }
            return bytes[start..<(start + length)]
        }
        func int16(_ data: ArraySlice<UInt8>) -> [Int16] {
            stride(from: data.startIndex, to: data.endIndex, by: 2).map { Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8) }
        }
        func uint16(_ data: ArraySlice<UInt8>) -> [UInt16] {
            stride(from: data.startIndex, to: data.endIndex, by: 2).map { UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8 }
        }
        func float32(_ data: ArraySlice<UInt8>) -> [Float] {
            stride(from: data.startIndex, to: data.endIndex, by: 4).map {
                Float(bitPattern: UInt32(data[$0]) | UInt32(data[$0 + 1]) << 8 | UInt32(data[$0 + 2]) << 16 | UInt32(data[$0 + 3]) << 24)
            }
        }
        var arrays = Arrays()
        arrays.int = int16(try slice(0, size: 2))
        arrays.float = float32(try slice(2, size: 4))
        arrays.frameInt = int16(try slice(4, size: 2))
        arrays.frameFloat = float32(try slice(6, size: 4))
        arrays.frame = int16(try slice(8, size: 2))
        arrays.timeline = uint16(try slice(10, size: 2))
        return (header, arrays)
    }

    let arrays: Arrays

    /// The header without its animations, read as JSON data, plus the animations decoded from the arrays.
    func read(_ header: JSONCursor, version: String, diagnostics: inout DiagnosticCollector, file: String)
        throws(JSONSchemaError) -> DragonBonesWire.Data
    {
        var stripped = try header.object()
        var rawArmatures: [JSONCursor] = []
        if case .array(let armatures)? = stripped["armature"] {
            stripped["armature"] = .array(armatures.map { armature in
                guard case .object(var members) = armature else { return armature }
                members["animation"] = nil
                return .object(members)
            })
            rawArmatures = try header.member("armature").array()
        }
        var data = try DragonBonesReader().read(header.cursor(.object(stripped), at: header.path), version: version)
        for (index, raw) in rawArmatures.enumerated() where index < data.armatures.count {
            for cursor in try raw.optionalMember("animation")?.array() ?? [] {
                data.armatures[index].animations.append(try readAnimation(cursor, diagnostics: &diagnostics, file: file))
            }
        }
        return data
    }

    private func number(_ json: JSONCursor, _ key: String, _ fallback: Double) throws(JSONSchemaError) -> Double {
        try json.optionalMember(key)?.lenientNumber() ?? fallback
    }

    private func readAnimation(_ json: JSONCursor, diagnostics: inout DiagnosticCollector, file: String)
        throws(JSONSchemaError) -> DragonBonesWire.Animation
    {
        let frames = try number(json, "duration", 0)
        guard frames >= 0, frames <= 100_000 else {
            throw json.error(at: "duration", "an animation of \(frames) frames is outside 0…100000")
        }
        let duration = Int(frames)
        let plays = try number(json, "playTimes", 1)
        guard plays.isFinite, abs(plays) <= 100_000_000 else {
            throw json.error(at: "playTimes", "\(plays) is out of range")
        }
        let offsets = try json.member("offset").array().map { (c) throws(JSONSchemaError) in try c.integer() }
        guard offsets.count >= 3 else { throw json.error(at: "offset", "needs three offsets") }
        let (frameInt, frameFloat, frameBase) = (offsets[0], offsets[1], offsets[2])
        var scale = try number(json, "scale", 1)
        if scale <= 0 { scale = 1 }
        var animation = DragonBonesWire.Animation(
            name: try json.optionalName("name") ?? "default", duration: duration,
            playTimes: max(Int(plays), 0), scale: scale, bones: [], slots: [], deforms: [],
            zOrder: nil, eventCount: 0, ikTimelineCount: 0, path: json.path)
        for key in ["action", "zOrder", "ffd", "deform"] where json.has(key) { animation.eventCount += 1 }

        /// One timeline's header and keyframes: (position, tween, frame-array index, value index).
        func keyframes(_ offset: Int, _ path: JSONPath) throws(JSONSchemaError)
            -> (scale: Double, offset: Double, frames: [(position: Int, frameIndex: Int)], valueOffset: Int)
        {
            let t = arrays.timeline
            guard offset >= 0, offset + 5 <= t.count else { throw JSONSchemaError(path: path, message: "timeline offset \(offset) is outside the timeline array") }
            let count = Int(t[offset + 2])
            guard offset + 5 + count <= t.count else { throw JSONSchemaError(path: path, message: "timeline keyframes run past the timeline array") }
            var frames: [(Int, Int)] = []
            for k in 0..<count {
                let index = frameBase + Int(t[offset + 5 + k])
                guard index >= 0, index + 1 < arrays.frame.count else {
                    throw JSONSchemaError(path: path, message: "keyframe \(k) lies outside the frame array")
                }
                frames.append((Int(arrays.frame[index]), index))
            }
            return (Double(t[offset]) / 100, Double(t[offset + 1]) / 100, frames, Int(t[offset + 4]))
        }
        func tween(_ frameIndex: Int) -> DragonBonesWire.Tween {
            let f = arrays.frame
            switch f[frameIndex + 1] {
            case 1: return .easing(0)
            case 2:
                guard frameIndex + 2 < f.count else { return .easing(0) }
                let count = Int(f[frameIndex + 2])
                guard count > 0, frameIndex + 3 + count <= f.count else { return .easing(0) }
                return .samples((0..<count).map { Double(f[frameIndex + 3 + $0]) / 10000 })
            case 3, 4, 5:
                let strength = frameIndex + 2 < f.count ? Double(f[frameIndex + 2]) / 100 : 1
                switch f[frameIndex + 1] {
                case 3: return .easing(-strength)
                case 4: return .easing(strength)
                default: return .easing(1 + strength)
                }
            default: return .none
            }
        }
        func frameList<V: Sendable>(_ frames: [(position: Int, frameIndex: Int)], tweened: Bool,
                                    _ value: (Int) throws(JSONSchemaError) -> V) throws(JSONSchemaError)
            -> [DragonBonesWire.Frame<V>]
        {
            var result: [DragonBonesWire.Frame<V>] = []
            for (k, frame) in frames.enumerated() {
                let next = k + 1 < frames.count ? frames[k + 1].position : duration
                result.append(DragonBonesWire.Frame(duration: max(next - frame.position, 0),
                                                    tween: tweened ? tween(frame.frameIndex) : .none, value: try value(k)))
            }
            return result
        }
        func pair(_ base: Int, _ k: Int, _ path: JSONPath) throws(JSONSchemaError) -> (Double, Double) {
            let index = frameFloat + base + 2 * k
            guard index >= 0, index + 1 < arrays.frameFloat.count else {
                throw JSONSchemaError(path: path, message: "keyframe values lie outside the frame float array")
            }
            return (Double(arrays.frameFloat[index]), Double(arrays.frameFloat[index + 1]))
        }

        for (name, cursor) in try (json.optionalMember("bone")?.object() ?? [:]).sorted(by: { $0.key < $1.key }) {
            let path = json.path.appending("bone").appending(name)
            let list = try json.cursor(cursor, at: path).array().map { (c) throws(JSONSchemaError) in try c.integer() }
            var timeline = DragonBonesWire.BoneTimeline(name: name, path: path)
            timeline.rotationsUnwrapped = true
            for i in stride(from: 0, to: list.count - 1, by: 2) {
                let (type, offset) = (list[i], list[i + 1])
                let header = try keyframes(offset, path)
                timeline.scale = header.scale
                timeline.offset = header.offset
                switch type {
                case 11:
                    timeline.translate = try frameList(header.frames, tweened: true) { (k) throws(JSONSchemaError) in
                        let (x, y) = try pair(header.valueOffset, k, path)
                        return Vector2(x: x, y: y)
                    }
                case 12:
                    timeline.rotate = try frameList(header.frames, tweened: true) { (k) throws(JSONSchemaError) in
                        let (r, s) = try pair(header.valueOffset, k, path)
                        return (rotate: r * 180 / .pi, skew: s * 180 / .pi)
                    }
                case 13:
                    timeline.scaleFrames = try frameList(header.frames, tweened: true) { (k) throws(JSONSchemaError) in
                        let (x, y) = try pair(header.valueOffset, k, path)
                        return Vector2(x: x, y: y)
                    }
                default:
                    diagnostics.add(Diagnostic(severity: .warning, code: "binary-timeline-not-converted",
                                               message: "binary bone timeline type \(type) is not converted", file: file,
                                               path: path.description))
                }
            }
            animation.bones.append(timeline)
        }
        for (name, cursor) in try (json.optionalMember("slot")?.object() ?? [:]).sorted(by: { $0.key < $1.key }) {
            let path = json.path.appending("slot").appending(name)
            let list = try json.cursor(cursor, at: path).array().map { (c) throws(JSONSchemaError) in try c.integer() }
            var timeline = DragonBonesWire.SlotTimeline(name: name, path: path)
            for i in stride(from: 0, to: list.count - 1, by: 2) {
                let (type, offset) = (list[i], list[i + 1])
                let header = try keyframes(offset, path)
                timeline.scale = header.scale
                timeline.offset = header.offset
                switch type {
                case 20:
                    timeline.display = try frameList(header.frames, tweened: false) { (k) throws(JSONSchemaError) in
                        Int(arrays.frame[header.frames[k].frameIndex + 1])
                    }
                case 21:
                    timeline.color = try frameList(header.frames, tweened: true) { (k) throws(JSONSchemaError) in
                        let at = frameInt + header.valueOffset + k
                        guard at >= 0, at < arrays.frameInt.count else {
                            throw JSONSchemaError(path: path, message: "colour keyframe lies outside the frame int array")
                        }
                        let c = Int(arrays.frameInt[at])
                        guard c >= 0, c + 8 <= arrays.int.count else {
                            throw JSONSchemaError(path: path, message: "colour \(c) lies outside the int array")
                        }
                        let v = arrays.int[c..<(c + 8)].map(Double.init)
                        return DragonBonesWire.Color(aM: v[0], rM: v[1], gM: v[2], bM: v[3], aO: v[4], rO: v[5], gO: v[6], bO: v[7])
                    }
                default:
                    diagnostics.add(Diagnostic(severity: .warning, code: "binary-timeline-not-converted",
                                               message: "binary slot timeline type \(type) is not converted", file: file,
                                               path: path.description))
                }
            }
            animation.slots.append(timeline)
        }
        return animation
    }
}
