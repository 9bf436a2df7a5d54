import Foundation
import KeyframeJSON
import KeyframeModel

/// Reads DragonBones binary data (`*_ske.dbbin`): a `DBDT` tag, a JSON header with the armatures' structure, then the
/// runtime's packed arrays (DragonBonesJS `BinaryDataParser`), which hold every mesh's geometry and every
/// animation's keyframes.
///
/// The header is read like JSON skeleton data except its animations, whose timelines are offsets into the arrays, and
/// its meshes, whose geometry is an offset too; both are decoded here into the wire values the JSON reader produces:
/// keyframe positions and tween types from the frame array, values from the frame float and int arrays (rotations in
/// radians, already unwrapped), colours through the colour (or int) array, curves as the exporter sampled them,
/// weighted meshes with each influence already in its bone's bind space, deform values as stored (per influence for
/// weighted meshes), play actions from the armature's `actions` list, draw orders from the z-order timeline.
struct DragonBonesBinaryReader {
    /// The packed arrays that follow the header.
    struct Arrays {
        var int: [Int16] = []
        var float: [Float] = []
        var frameInt: [Int16] = []
        var frameFloat: [Float] = []
        var frame: [Int16] = []
        var timeline: [UInt16] = []
        /// Colours (newer files); older files keep them in `int`.
        var color: [Int16] = []
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
        if offsets.count >= 14, offsets[13] > 0 { arrays.color = int16(try slice(12, size: 2)) }
        return (header, arrays)
    }

    let arrays: Arrays

    /// The header without its animations, read as JSON data, with its meshes' geometry and its animations decoded
    /// from the arrays.
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
            for s in data.armatures[index].skins.indices {
                for (slot, displays) in data.armatures[index].skins[s].displays {
                    for d in displays.indices {
                        guard let offset = displays[d].packedGeometry else { continue }
                        data.armatures[index].skins[s].displays[slot]?[d].mesh =
                            try mesh(at: offset, path: displays[d].jsonPath)
                    }
                }
            }
            let actions = try raw.optionalMember("actions")?.array() ?? []
            for cursor in try raw.optionalMember("animation")?.array() ?? [] {
                data.armatures[index].animations.append(try readAnimation(
                    cursor, armature: data.armatures[index], actions: actions, diagnostics: &diagnostics, file: file))
            }
        }
        return data
    }

    // MARK: Meshes

    /// An int16 that holds an unsigned offset (the runtime adds 65536 to one read as negative).
    private static func unsigned(_ value: Int16) -> Int { value < 0 ? Int(value) + 65536 : Int(value) }

    /// A mesh's geometry at `offset` in the int array: vertex and triangle counts, the float offset of its vertices
    /// and uvs, its weights (bone list, then per vertex the bones and, in the float array, weight and bind-space
    /// position of each influence), then its triangles.
    private func mesh(at offset: Int, path: JSONPath) throws(JSONSchemaError) -> DragonBonesWire.Mesh {
        let ints = arrays.int, floats = arrays.float
        func fail(_ message: String) -> JSONSchemaError { JSONSchemaError(path: path.appending("offset"), message: message) }
        guard offset >= 0, offset + 4 <= ints.count else { throw fail("mesh offset \(offset) lies outside the int array") }
        let vertexCount = Self.unsigned(ints[offset]), triangleCount = Self.unsigned(ints[offset + 1])
        let floatOffset = Self.unsigned(ints[offset + 2])
        guard offset + 4 + 3 * triangleCount <= ints.count else { throw fail("the mesh's triangles run past the int array") }
        guard floatOffset + 4 * vertexCount <= floats.count else { throw fail("the mesh's vertices run past the float array") }
        let vertices = floats[floatOffset..<(floatOffset + 2 * vertexCount)].map(Double.init)
        let uvs = floats[(floatOffset + 2 * vertexCount)..<(floatOffset + 4 * vertexCount)].map(Double.init)
        let triangles = ints[(offset + 4)..<(offset + 4 + 3 * triangleCount)].map(Self.unsigned)
        var mesh = DragonBonesWire.Mesh(vertices: vertices, uvs: uvs, triangles: triangles, weights: nil, slotPose: nil,
                                        bonePose: nil)
        var weightOffset = Int(ints[offset + 3])
        if weightOffset < -1 { weightOffset += 65536 }
        guard weightOffset >= 0 else { return mesh }
        guard weightOffset + 2 <= ints.count else { throw fail("the mesh's weights lie outside the int array") }
        let boneCount = Self.unsigned(ints[weightOffset])
        var q = Self.unsigned(ints[weightOffset + 1])
        guard weightOffset + 2 + boneCount <= ints.count else { throw fail("the mesh's weight bones run past the int array") }
        let bones = ints[(weightOffset + 2)..<(weightOffset + 2 + boneCount)].map(Self.unsigned)
        var p = weightOffset + 2 + boneCount
        var weights: [Double] = []
        var positions: [Vector2] = []
        for _ in 0..<vertexCount {
            guard p < ints.count else { throw fail("the mesh's weights run past the int array") }
            let influences = Self.unsigned(ints[p])
            p += 1
            guard p + influences <= ints.count, q + 3 * influences <= floats.count else {
                throw fail("the mesh's weights run past the packed arrays")
            }
            weights.append(Double(influences))
            for _ in 0..<influences {
                let local = Self.unsigned(ints[p])
                p += 1
                guard bones.indices.contains(local) else { throw fail("a vertex names weight bone \(local) of \(bones.count)") }
                weights.append(Double(bones[local]))
                weights.append(Double(floats[q]))
                positions.append(Vector2(x: Double(floats[q + 1]), y: Double(floats[q + 2])))
                q += 3
            }
        }
        mesh.weights = weights
        mesh.influencePositions = positions
        return mesh
    }

    // MARK: Animations

    private func number(_ json: JSONCursor, _ key: String, _ fallback: Double) throws(JSONSchemaError) -> Double {
        try json.optionalMember(key)?.lenientNumber() ?? fallback
    }

    /// One timeline's header: its scale and offset, keyframes (position, frame-array index), value count and offset.
    private struct Timeline {
        var scale: Double, offset: Double
        var frames: [(position: Int, frameIndex: Int)]
        var valueCount: Int, valueOffset: Int
    }

    private func readAnimation(_ json: JSONCursor, armature: DragonBonesWire.Armature, actions: [JSONCursor],
                               diagnostics: inout DiagnosticCollector, file: String)
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
        let (frameIntBase, frameFloatBase, frameBase) = (offsets[0], offsets[1], offsets[2])
        var scale = try number(json, "scale", 1)
        if scale <= 0 { scale = 1 }
        var animation = DragonBonesWire.Animation(
            name: try json.optionalName("name") ?? "default", duration: duration,
            playTimes: max(Int(plays), 0), scale: scale, fadeInTime: max(try number(json, "fadeInTime", 0), 0),
            bones: [], slots: [], deforms: [], zOrder: nil, eventCount: 0, ikTimelineCount: 0, path: json.path)

        func timeline(_ offset: Int, _ path: JSONPath) throws(JSONSchemaError) -> Timeline {
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
            return Timeline(scale: Double(t[offset]) / 100, offset: Double(t[offset + 1]) / 100, frames: frames,
                            valueCount: Int(t[offset + 3]), valueOffset: Int(t[offset + 4]))
        }
        func tween(_ frameIndex: Int) -> DragonBonesWire.Tween {
            let f = arrays.frame
            switch f[frameIndex + 1] {
            case 1: return .easing(0)
            case 2:
                guard frameIndex + 2 < f.count else { return .easing(0) }
                let count = Int(f[frameIndex + 2])
                guard count != 0, frameIndex + 3 + abs(count) <= f.count else { return .easing(0) }
                let samples = (0..<abs(count)).map { Double(f[frameIndex + 3 + $0]) / 10000 }
                // A positive count leaves out the curve's ends (0 and 1), a negative one includes them.
                return .samples(count > 0 ? samples : Array(samples.dropFirst().dropLast()))
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
        func frameList<V: Sendable>(_ header: Timeline, tweened: Bool, _ value: (Int) throws(JSONSchemaError) -> V)
            throws(JSONSchemaError) -> [DragonBonesWire.Frame<V>]
        {
            var result: [DragonBonesWire.Frame<V>] = []
            for (k, frame) in header.frames.enumerated() {
                let next = k + 1 < header.frames.count ? header.frames[k + 1].position : duration
                result.append(DragonBonesWire.Frame(duration: max(next - frame.position, 0),
                                                    tween: tweened ? tween(frame.frameIndex) : .none, value: try value(k)))
            }
            return result
        }
        func floats(_ header: Timeline, _ k: Int, _ count: Int, _ path: JSONPath) throws(JSONSchemaError) -> [Double] {
            let index = frameFloatBase + header.valueOffset + count * k
            guard index >= 0, index + count <= arrays.frameFloat.count else {
                throw JSONSchemaError(path: path, message: "keyframe values lie outside the frame float array")
            }
            return arrays.frameFloat[index..<(index + count)].map(Double.init)
        }
        func unconverted(_ what: String, _ type: Int, _ path: JSONPath) {
            diagnostics.add(Diagnostic(severity: .warning, code: "binary-timeline-not-converted",
                                       message: "binary \(what) timeline type \(type) is not converted", file: file,
                                       path: path.description))
        }

        // Bone timelines: translate (11), rotate (12), scale (13), or all three at once (10).
        func bone(_ name: String, _ type: Int, _ header: Timeline, _ path: JSONPath) throws(JSONSchemaError) {
            var timeline = animation.bones.first { $0.name == name }
                ?? DragonBonesWire.BoneTimeline(name: name, path: path)
            timeline.rotationsUnwrapped = true
            timeline.scale = header.scale
            timeline.offset = header.offset
            switch type {
            case 10:
                let values = try (0..<header.frames.count).map { (k) throws(JSONSchemaError) in try floats(header, k, 6, path) }
                timeline.translate = try frameList(header, tweened: true) { k in Vector2(x: values[k][0], y: values[k][1]) }
                timeline.rotate = try frameList(header, tweened: true) { k in
                    (rotate: values[k][2] * 180 / .pi, skew: values[k][3] * 180 / .pi)
                }
                timeline.scaleFrames = try frameList(header, tweened: true) { k in Vector2(x: values[k][4], y: values[k][5]) }
            case 11:
                timeline.translate = try frameList(header, tweened: true) { (k) throws(JSONSchemaError) in
                    let v = try floats(header, k, 2, path)
                    return Vector2(x: v[0], y: v[1])
                }
            case 12:
                timeline.rotate = try frameList(header, tweened: true) { (k) throws(JSONSchemaError) in
                    let v = try floats(header, k, 2, path)
                    return (rotate: v[0] * 180 / .pi, skew: v[1] * 180 / .pi)
                }
            case 13:
                timeline.scaleFrames = try frameList(header, tweened: true) { (k) throws(JSONSchemaError) in
                    let v = try floats(header, k, 2, path)
                    return Vector2(x: v[0], y: v[1])
                }
            default:
                unconverted("bone", type, path)
                return
            }
            animation.bones.removeAll { $0.name == name }
            animation.bones.append(timeline)
        }

        // Slot timelines: display (20), colour (21), deform (22).
        func slot(_ name: String, _ type: Int, _ header: Timeline, _ path: JSONPath) throws(JSONSchemaError) {
            var timeline = animation.slots.first { $0.name == name } ?? DragonBonesWire.SlotTimeline(name: name, path: path)
            switch type {
            case 20:
                timeline.display = try frameList(header, tweened: false) { (k) throws(JSONSchemaError) in
                    Int(arrays.frame[header.frames[k].frameIndex + 1])
                }
            case 21:
                let colors = arrays.color.isEmpty ? arrays.int : arrays.color
                timeline.color = try frameList(header, tweened: true) { (k) throws(JSONSchemaError) in
                    let at = frameIntBase + header.valueOffset + k
                    guard at >= 0, at < arrays.frameInt.count else {
                        throw JSONSchemaError(path: path, message: "colour keyframe lies outside the frame int array")
                    }
                    let c = Self.unsigned(arrays.frameInt[at])
                    guard c + 8 <= colors.count else {
                        throw JSONSchemaError(path: path, message: "colour \(c) lies outside the colour array")
                    }
                    let v = colors[c..<(c + 8)].map(Double.init)
                    return DragonBonesWire.Color(aM: v[0], rM: v[1], gM: v[2], bM: v[3], aO: v[4], rO: v[5], gO: v[6], bO: v[7])
                }
            case 22:
                try deform(name, header, path)
                return
            default:
                unconverted("slot", type, path)
                return
            }
            animation.slots.removeAll { $0.name == name }
            animation.slots.append(timeline)
        }

        // A deform timeline: its header in the frame int array names the mesh (by geometry offset), the value count
        // and the run of values that changes; the values outside that run are stored once.
        func deform(_ slotName: String, _ header: Timeline, _ path: JSONPath) throws(JSONSchemaError) {
            let at = frameIntBase + header.valueCount
            guard at >= 0, at + 5 <= arrays.frameInt.count else {
                throw JSONSchemaError(path: path, message: "the deform header lies outside the frame int array")
            }
            let meshOffset = Self.unsigned(arrays.frameInt[at]), count = Self.unsigned(arrays.frameInt[at + 1])
            let changing = Self.unsigned(arrays.frameInt[at + 2]), begin = Self.unsigned(arrays.frameInt[at + 3])
            let constants = frameFloatBase + Self.unsigned(arrays.frameInt[at + 4])
            guard begin + changing <= count, constants >= 0, constants + count - changing <= arrays.frameFloat.count else {
                throw JSONSchemaError(path: path, message: "the deform values lie outside the frame float array")
            }
            // The slot (by name, or the slot of a mesh of that name) and the mesh display with that geometry.
            var slotName = slotName
            let skin = armature.skins.first?.displays ?? [:]
            if skin[slotName] == nil, let owner = skin.first(where: { $0.value.contains { $0.name == slotName } })?.key {
                slotName = owner
            }
            guard let display = skin[slotName]?.first(where: { $0.packedGeometry == meshOffset }) else {
                diagnostics.add(Diagnostic(severity: .warning, code: "deform-target-missing",
                                           message: "deform timeline for \"\(slotName)\" names no mesh of the slot (geometry \(meshOffset))",
                                           file: file, path: path.description))
                return
            }
            let list = try frameList(header, tweened: true) { (k) throws(JSONSchemaError) -> (offset: Int, vertices: [Double]) in
                let run = try floats(header, k, changing, path)
                var values: [Double] = []
                values.reserveCapacity(count)
                for i in 0..<count {
                    if i < begin {
                        values.append(Double(arrays.frameFloat[constants + i]))
                    } else if i < begin + changing {
                        values.append(run[i - begin])
                    } else {
                        values.append(Double(arrays.frameFloat[constants + i - changing]))
                    }
                }
                return (offset: 0, vertices: values)
            }
            animation.deforms.append(DragonBonesWire.DeformTimeline(
                slot: slotName, display: display.name, skin: "", scale: header.scale, offset: header.offset, frames: list,
                perInfluence: display.mesh?.weights != nil, path: path))
        }

        func pairs(_ cursor: JSONCursor) throws(JSONSchemaError) -> [Int] {
            try cursor.array().map { (c) throws(JSONSchemaError) in try c.integer() }
        }
        for (name, cursor) in try (json.optionalMember("bone")?.object() ?? [:]).sorted(by: { $0.key < $1.key }) {
            let path = json.path.appending("bone").appending(name)
            let list = try pairs(json.cursor(cursor, at: path))
            for i in stride(from: 0, to: list.count - 1, by: 2) { try bone(name, list[i], try timeline(list[i + 1], path), path) }
        }
        for (name, cursor) in try (json.optionalMember("slot")?.object() ?? [:]).sorted(by: { $0.key < $1.key }) {
            let path = json.path.appending("slot").appending(name)
            let list = try pairs(json.cursor(cursor, at: path))
            for i in stride(from: 0, to: list.count - 1, by: 2) { try slot(name, list[i], try timeline(list[i + 1], path), path) }
        }
        // IK weight timelines are not converted (as in JSON data).
        for (_, cursor) in try json.optionalMember("constraint")?.object() ?? [:] {
            if case .array(let list) = cursor { animation.ikTimelineCount += list.count / 2 }
        }
        // Typed timelines named by bone or slot (newer files).
        for (index, entry) in (try json.optionalMember("timeline")?.array() ?? []).enumerated() {
            let path = json.path.appending("timeline").appending(index)
            let type = Int(try number(entry, "type", 0)), offset = Int(try number(entry, "offset", -1))
            let name = try entry.optionalName("name") ?? ""
            guard offset >= 0 else { continue }
            switch type {
            case 10...13: try bone(name, type, try timeline(offset, path), path)
            case 20...22: try slot(name, type, try timeline(offset, path), path)
            case 30: animation.ikTimelineCount += 1
            default: unconverted("typed", type, path)
            }
        }
        // Draw order: each keyframe lists the slot at every draw position (none: the setup order).
        if let offset = try json.optionalMember("zOrder").map({ (c) throws(JSONSchemaError) in try c.integer() }) {
            let path = json.path.appending("zOrder")
            let header = try timeline(offset, path)
            let list = try frameList(header, tweened: false) { (k) throws(JSONSchemaError) -> [Int] in
                let f = arrays.frame, at = header.frames[k].frameIndex
                let count = Int(f[at + 1])
                guard count >= 0, at + 2 + count <= f.count else {
                    throw JSONSchemaError(path: path, message: "a draw order runs past the frame array")
                }
                // As (slot, offset) pairs for every slot, which give back exactly this order.
                let order = (0..<count).map { Int(f[at + 2 + $0]) }
                return order.enumerated().sorted { $0.element < $1.element }.flatMap { [$0.element, $0.offset - $0.element] }
            }
            animation.zOrder = list.map { DragonBonesWire.ZOrderFrame(duration: $0.duration, changes: $0.value) }
        }
        // Actions: play actions naming a slot or bone start a child armature's animation; the others are events.
        if let offset = try json.optionalMember("action").map({ (c) throws(JSONSchemaError) in try c.integer() }) {
            let path = json.path.appending("action")
            let header = try timeline(offset, path)
            for frame in header.frames {
                let f = arrays.frame, at = frame.frameIndex
                let count = Int(f[at + 1])
                guard count >= 0, at + 2 + count <= f.count else {
                    throw JSONSchemaError(path: path, message: "a keyframe's actions run past the frame array")
                }
                for i in 0..<count {
                    let index = Int(f[at + 2 + i])
                    guard actions.indices.contains(index) else {
                        throw JSONSchemaError(path: path, message: "action \(index) is not in the armature's action list")
                    }
                    let play = try DragonBonesReader.playActions(JSONCursor(.array([actions[index].value]))).first
                    if let play, play.slot != nil || play.bone != nil {
                        animation.childActions.append(DragonBonesWire.ChildAction(
                            frame: frame.position, slot: play.slot, bone: play.bone, animation: play.animation))
                    } else {
                        animation.eventCount += 1
                    }
                }
            }
        }
        return animation
    }
}
